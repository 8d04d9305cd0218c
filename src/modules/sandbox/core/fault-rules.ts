// Fault rules (docs/sandbox.md "Fault rules"), pure: a rule's shape checked field by field
// (a refusal names the field), its path pattern compiled, a request matched, and whether a
// matching request meets the fault: every rule draws from its own generator seeded with
// its `seed`, so the same sequence of requests meets the same faults in every run.
import { invalidInput } from '../../../core/errors.ts';

export const FAULT_LIMITS = {
  rules: 100,
  delayMsMax: 120_000,
  retryAfterMax: 86_400,
  countMax: 1_000_000,
  textMax: 200,
} as const;

/** The statuses a `status` effect may answer (the service's own failures). */
export const FAULT_STATUSES = [500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

export type FaultEffect =
  | { kind: 'status'; status: FaultStatus }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop' }
  | { kind: 'throttle'; retryAfterSeconds: number }
  | { kind: 'truncate' };

export const FAULT_KINDS = ['status', 'delay', 'drop', 'throttle', 'truncate'] as const;

export interface FaultMatch {
  /** An HTTP method, upper case. */
  method?: string;
  /** A path pattern: `*` one segment (or part of one), `**` any number of segments. */
  path?: string;
  operationId?: string;
  /** The signed-in user's id. */
  user?: string;
  /** An account id as the request's path names it (`accountId`). */
  account?: string;
  /** api2, api1, oauth or other (every path outside the three). */
  surface?: 'api2' | 'api1' | 'oauth' | 'other';
}

export interface FaultRule {
  id: string;
  name?: string;
  match: FaultMatch;
  effect: FaultEffect;
  /** The share of matching requests that meet the fault (default 1). */
  probability: number;
  /** The generator's seed (default 1): the same seed, the same faults. */
  seed: number;
  /** At most this many faults, then the rule stays but injects nothing (default: no limit). */
  count?: number;
}

/** The facts of a request a rule is matched on. */
export interface FaultRequest {
  method: string;
  path: string;
  operationId: string | undefined;
  user: string | undefined;
  account: string | undefined;
  surface: 'api2' | 'api1' | 'oauth' | 'other';
}

const SURFACES = ['api2', 'api1', 'oauth', 'other'] as const;
const METHOD = /^[A-Z]{1,16}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (field: string, reason: string, value?: unknown) =>
  invalidInput(`Invalid ${field}: ${reason}`, { field, reason, ...(value === undefined ? {} : { value: preview(value) }) });
const preview = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
};

function onlyKeys(o: Obj, field: string, keys: readonly string[]): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw bad(`${field}.${k}`, `unknown property (expected ${keys.join(', ')})`);
}

function text(o: Obj, key: string, field: string, pattern?: RegExp): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > FAULT_LIMITS.textMax) throw bad(`${field}.${key}`, `must be a string of 1 to ${FAULT_LIMITS.textMax} characters`, v);
  if (pattern && !pattern.test(v)) throw bad(`${field}.${key}`, `must match ${pattern.source}`, v);
  return v;
}

function number(o: Obj, key: string, field: string, min: number, max: number, integer: boolean): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw bad(`${field}.${key}`, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, v);
  }
  return v;
}

function parseMatch(v: unknown, field: string): FaultMatch {
  if (v === undefined) return {};
  if (!isObj(v)) throw bad(field, 'must be an object', v);
  onlyKeys(v, field, ['method', 'path', 'operationId', 'user', 'account', 'surface']);
  const m: FaultMatch = {};
  const method = text(v, 'method', field);
  if (method !== undefined) {
    if (!METHOD.test(method.toUpperCase())) throw bad(`${field}.method`, 'must be an HTTP method', method);
    m.method = method.toUpperCase();
  }
  const p = text(v, 'path', field, /^\//);
  if (p !== undefined) m.path = p;
  const op = text(v, 'operationId', field, /^[A-Za-z0-9_.-]+$/);
  if (op !== undefined) m.operationId = op;
  const user = text(v, 'user', field);
  if (user !== undefined) m.user = user;
  const account = text(v, 'account', field);
  if (account !== undefined) m.account = account;
  const surface = v.surface;
  if (surface !== undefined) {
    if (!SURFACES.includes(surface as never)) throw bad(`${field}.surface`, `must be one of ${SURFACES.join(', ')}`, surface);
    m.surface = surface as FaultMatch['surface'];
  }
  return m;
}

function parseEffect(v: unknown, field: string): FaultEffect {
  if (!isObj(v)) throw bad(field, 'is required: an object with a kind', v);
  const kind = v.kind;
  if (!FAULT_KINDS.includes(kind as never)) throw bad(`${field}.kind`, `must be one of ${FAULT_KINDS.join(', ')}`, kind);
  switch (kind as FaultEffect['kind']) {
    case 'status': {
      onlyKeys(v, field, ['kind', 'status']);
      const status = v.status ?? 503;
      if (!FAULT_STATUSES.includes(status as never)) throw bad(`${field}.status`, `must be one of ${FAULT_STATUSES.join(', ')}`, status);
      return { kind: 'status', status: status as FaultStatus };
    }
    case 'delay': {
      onlyKeys(v, field, ['kind', 'ms']);
      const ms = number(v, 'ms', field, 0, FAULT_LIMITS.delayMsMax, true);
      if (ms === undefined) throw bad(`${field}.ms`, 'is required');
      return { kind: 'delay', ms };
    }
    case 'throttle': {
      onlyKeys(v, field, ['kind', 'retryAfterSeconds']);
      return { kind: 'throttle', retryAfterSeconds: number(v, 'retryAfterSeconds', field, 1, FAULT_LIMITS.retryAfterMax, true) ?? 1 };
    }
    case 'drop':
      onlyKeys(v, field, ['kind']);
      return { kind: 'drop' };
    case 'truncate':
      onlyKeys(v, field, ['kind']);
      return { kind: 'truncate' };
  }
}

/** Checks one rule as sent (a refusal names the field, under `field`); `id` is the one it gets. */
export function parseFaultRule(v: unknown, id: string, field = 'body'): FaultRule {
  if (!isObj(v)) throw bad(field, 'must be an object', v);
  onlyKeys(v, field, ['name', 'match', 'effect', 'probability', 'seed', 'count']);
  const rule: FaultRule = {
    id,
    match: parseMatch(v.match, `${field}.match`),
    effect: parseEffect(v.effect, `${field}.effect`),
    probability: number(v, 'probability', field, 0, 1, false) ?? 1,
    seed: number(v, 'seed', field, 0, 2 ** 32 - 1, true) ?? 1,
  };
  const name = text(v, 'name', field);
  if (name !== undefined) rule.name = name;
  const count = number(v, 'count', field, 1, FAULT_LIMITS.countMax, true);
  if (count !== undefined) rule.count = count;
  return rule;
}

/** A path pattern as a regular expression: `**` any segments, `*` within one segment, the rest literal. */
export function pathPattern(pattern: string): RegExp {
  const parts = pattern.split(/(\*\*|\*)/).map((p) => (p === '**' ? '.*' : p === '*' ? '[^/]*' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A rule ready to be matched: its pattern compiled, its generator and its count of faults. */
export class ArmedRule {
  readonly rule: FaultRule;
  private readonly path: RegExp | null;
  private readonly random: () => number;
  injected = 0;
  matched = 0;

  constructor(rule: FaultRule) {
    this.rule = rule;
    this.path = rule.match.path ? pathPattern(rule.match.path) : null;
    this.random = seededRandom(rule.seed);
  }

  matches(r: FaultRequest): boolean {
    const m = this.rule.match;
    return (m.method === undefined || m.method === r.method)
      && (m.surface === undefined || m.surface === r.surface)
      && (m.operationId === undefined || m.operationId === r.operationId)
      && (m.user === undefined || m.user === r.user)
      && (m.account === undefined || m.account === r.account)
      && (this.path === null || this.path.test(r.path));
  }

  /**
   * Whether this matching request meets the fault: one draw per matching request (the same
   * sequence of requests draws the same numbers), then the count.
   */
  fires(): boolean {
    this.matched++;
    const draw = this.random();
    if (this.rule.count !== undefined && this.injected >= this.rule.count) return false;
    if (draw >= this.rule.probability) return false;
    this.injected++;
    return true;
  }
}
