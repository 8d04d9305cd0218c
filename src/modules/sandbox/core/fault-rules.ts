// Fault rules (docs/sandbox.md "Fault rules"), pure: a rule's shape checked field by field
// (a refusal names the field), its path pattern compiled, a request matched, and whether a
// matching request meets the fault: every rule draws from its own generator seeded with
// its `seed`, so the same sequence of requests meets the same faults (and the same drawn
// delays) in every run. A rule's `window` is read on the service's clock (the Clock port:
// the sandbox clock moves it), never on the system's.
import { invalidInput } from '../../../core/errors.ts';

export const FAULT_LIMITS = {
  rules: 100,
  delayMsMax: 120_000,
  retryAfterMax: 86_400,
  countMax: 1_000_000,
  textMax: 200,
  /** A slow body's rate (an answer's or a request's): 1 byte to 100 MB per second. */
  bytesPerSecondMax: 100_000_000,
} as const;

/** The statuses a `status` effect may answer (the service's own failures). */
export const FAULT_STATUSES = [500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** A delay drawn per request from the rule's generator, clamped to 0..delayMsMax. */
export type DelayDistribution =
  | { type: 'uniform'; minMs: number; maxMs: number }
  | { type: 'normal'; meanMs: number; stdDevMs: number };

export type FaultEffect =
  | { kind: 'status'; status: FaultStatus }
  | { kind: 'delay'; ms: number }
  | { kind: 'delay'; distribution: DelayDistribution }
  | { kind: 'drop' }
  | { kind: 'throttle'; retryAfterSeconds: number }
  | { kind: 'truncate' }
  | { kind: 'slow-body'; bytesPerSecond: number }
  /** The request's body read at this rate (a slow upload, seen from the client). */
  | { kind: 'slow-request-body'; bytesPerSecond: number }
  | { kind: 'refuse-refresh' };

export const FAULT_KINDS = ['status', 'delay', 'drop', 'throttle', 'truncate', 'slow-body', 'slow-request-body', 'refuse-refresh'] as const;

/** The one request a `refuse-refresh` rule may match: the token endpoint asked for a refresh. */
export const REFRESH_REQUEST = { method: 'POST', path: '/oauth/token', grantType: 'refresh_token' } as const;

/** Instants (ms since the epoch, on the service's clock) between which a rule injects: [from, until). */
export interface FaultWindow {
  from?: string;
  until?: string;
}

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
  /** The token request's client_id (only a refuse-refresh rule sees it: the body is read then). */
  client?: string;
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
  /** Outside this window (the service's clock) the rule matches nothing. */
  window?: FaultWindow;
}

/** The facts of a request a rule is matched on. */
export interface FaultRequest {
  method: string;
  path: string;
  operationId: string | undefined;
  user: string | undefined;
  account: string | undefined;
  surface: 'api2' | 'api1' | 'oauth' | 'other';
  /**
   * The token request's grant_type, known once its body is read: `refresh_token` rules are
   * decided then (with it), every other kind before the body (without it).
   */
  grantType?: string;
  /** The token request's client_id (with grantType). */
  client?: string;
  /** The service's clock now (ms since the epoch), for the rules' windows. */
  nowMs: number;
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
  onlyKeys(v, field, ['method', 'path', 'operationId', 'user', 'account', 'surface', 'client']);
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
  const client = text(v, 'client', field);
  if (client !== undefined) m.client = client;
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
      onlyKeys(v, field, ['kind', 'ms', 'distribution']);
      if (v.distribution !== undefined) {
        if (v.ms !== undefined) throw bad(`${field}.ms`, 'must not be given with distribution');
        return { kind: 'delay', distribution: parseDistribution(v.distribution, `${field}.distribution`) };
      }
      const ms = number(v, 'ms', field, 0, FAULT_LIMITS.delayMsMax, true);
      if (ms === undefined) throw bad(`${field}.ms`, 'is required (or distribution)');
      return { kind: 'delay', ms };
    }
    case 'slow-body':
    case 'slow-request-body': {
      onlyKeys(v, field, ['kind', 'bytesPerSecond']);
      const bytesPerSecond = number(v, 'bytesPerSecond', field, 1, FAULT_LIMITS.bytesPerSecondMax, true);
      if (bytesPerSecond === undefined) throw bad(`${field}.bytesPerSecond`, 'is required');
      return { kind: kind as 'slow-body' | 'slow-request-body', bytesPerSecond };
    }
    case 'refuse-refresh':
      onlyKeys(v, field, ['kind']);
      return { kind: 'refuse-refresh' };
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

function parseDistribution(v: unknown, field: string): DelayDistribution {
  if (!isObj(v)) throw bad(field, 'must be an object with a type (uniform or normal)', v);
  const max = FAULT_LIMITS.delayMsMax;
  const required = (key: string, min: number) => {
    const n = number(v, key, field, min, max, false);
    if (n === undefined) throw bad(`${field}.${key}`, 'is required');
    return n;
  };
  if (v.type === 'uniform') {
    onlyKeys(v, field, ['type', 'minMs', 'maxMs']);
    const minMs = required('minMs', 0);
    const maxMs = required('maxMs', 0);
    if (maxMs < minMs) throw bad(`${field}.maxMs`, 'must be at least minMs', maxMs);
    return { type: 'uniform', minMs, maxMs };
  }
  if (v.type === 'normal') {
    onlyKeys(v, field, ['type', 'meanMs', 'stdDevMs']);
    return { type: 'normal', meanMs: required('meanMs', 0), stdDevMs: required('stdDevMs', 0) };
  }
  throw bad(`${field}.type`, 'must be one of uniform, normal', v.type);
}

function parseWindow(v: unknown, field: string): FaultWindow {
  if (!isObj(v)) throw bad(field, 'must be an object with from and/or until (ISO instants)', v);
  onlyKeys(v, field, ['from', 'until']);
  const w: FaultWindow = {};
  for (const key of ['from', 'until'] as const) {
    const at = v[key];
    if (at === undefined) continue;
    if (typeof at !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(at) || !Number.isFinite(Date.parse(at))) {
      throw bad(`${field}.${key}`, 'must be an ISO 8601 instant (2026-01-31T12:00:00Z)', at);
    }
    w[key] = at;
  }
  if (w.from === undefined && w.until === undefined) throw bad(field, 'needs from, until or both');
  if (w.from !== undefined && w.until !== undefined && Date.parse(w.until) <= Date.parse(w.from)) {
    throw bad(`${field}.until`, 'must be after from', w.until);
  }
  return w;
}

/** Whether `nowMs` (the service's clock) is inside the window: from inclusive, until exclusive. */
export function inWindow(w: FaultWindow | undefined, nowMs: number): boolean {
  if (!w) return true;
  return (w.from === undefined || nowMs >= Date.parse(w.from)) && (w.until === undefined || nowMs < Date.parse(w.until));
}

/**
 * A delay effect's milliseconds for one request: fixed, or drawn from `random` (the rule's
 * generator: uniform takes one draw, normal two, Box-Muller), rounded and clamped to
 * 0..delayMsMax.
 */
export function delayOf(e: Extract<FaultEffect, { kind: 'delay' }>, random: () => number): number {
  if ('ms' in e) return e.ms;
  const d = e.distribution;
  let ms: number;
  if (d.type === 'uniform') ms = d.minMs + random() * (d.maxMs - d.minMs);
  else {
    const u1 = 1 - random(); // (0, 1]: the logarithm stays finite
    const u2 = random();
    ms = d.meanMs + d.stdDevMs * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  return Math.min(Math.max(Math.round(ms), 0), FAULT_LIMITS.delayMsMax);
}

/** Checks one rule as sent (a refusal names the field, under `field`); `id` is the one it gets. */
export function parseFaultRule(v: unknown, id: string, field = 'body'): FaultRule {
  if (!isObj(v)) throw bad(field, 'must be an object', v);
  onlyKeys(v, field, ['name', 'match', 'effect', 'probability', 'seed', 'count', 'window']);
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
  if (v.window !== undefined) rule.window = parseWindow(v.window, `${field}.window`);
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
    const refusesRefresh = this.rule.effect.kind === 'refuse-refresh';
    if (refusesRefresh !== (r.grantType !== undefined)) return false; // decided with the body, or before it
    if (refusesRefresh && (r.method !== REFRESH_REQUEST.method || r.path !== REFRESH_REQUEST.path || r.grantType !== REFRESH_REQUEST.grantType)) return false;
    return inWindow(this.rule.window, r.nowMs)
      && (m.method === undefined || m.method === r.method)
      && (m.surface === undefined || m.surface === r.surface)
      && (m.operationId === undefined || m.operationId === r.operationId)
      && (m.user === undefined || m.user === r.user)
      && (m.account === undefined || m.account === r.account)
      && (m.client === undefined || m.client === r.client)
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

  /** The delay of a delay rule that fired (a distribution draws from the same generator). */
  delayMs(): number | undefined {
    const e = this.rule.effect;
    return e.kind === 'delay' ? delayOf(e, this.random) : undefined;
  }
}
