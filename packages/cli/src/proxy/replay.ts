// `scanbase proxy diff DIR --against URL`: the recorded session sent again, request by
// request in recorded order, to another service, and each answer compared with the
// recorded one (compare.ts). What differs by nature between the two services is carried
// over (docs/sandbox.md "Replaying a session"):
//  - ids: where a recorded answer holds an id (a member `id`, `…Id`, `…_id`, a URN, a URL,
//    a blob name, a token) and the replay's answer holds another at the same JSON path, the
//    recorded one is replaced by it in every later request (path, query, headers, body); a
//    URN's UUID is mapped with it; the first mapping of a value stands;
//  - signed URLs: a later request to an address a recorded answer gave (through the proxy)
//    goes to the address the replay's answer gave at the same place, whatever its host;
//  - users: each recorded principal (session.json) gets a token pair on the other service,
//    from its operator API (--operator-token, by the user's e-mail) or a token file; its
//    recorded token placeholders and user id map to them;
//  - personal data: --map FILE (placeholder → value, e.g. the proxy's --keys file) puts
//    values back where the session has placeholders.
// The browser steps of a sign-in (the authorize page, an authorization-code grant) cannot be
// replayed: they are reported as skipped.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isPlaceholder } from './redact.ts';
import { mapPathAndQuery } from './paths.ts';
import { classOf } from './record.ts';
import { compareAnswers, type Difference } from './compare.ts';
import { readSession, type Exchange, type RecordedBody } from './session.ts';

export interface ReplayAuth {
  /** The other service's operator token: token pairs by e-mail (POST /_operator/tokens). */
  operatorToken?: string;
  /** A recorded user id (or e-mail placeholder) → the e-mail to sign in as there. */
  users?: Record<string, string>;
  /** The e-mail every recorded principal without another is signed in as. */
  as?: string;
  /** A recorded user id or token placeholder → an access token, or a pair. */
  tokens?: Record<string, string | { access_token: string; refresh_token?: string }>;
}

export interface ReplayOptions extends ReplayAuth {
  dir: string;
  against: string;
  /** Placeholder → value, put back in the replayed requests. */
  map?: Record<string, string>;
  fetch?: typeof fetch;
}

export interface ReplayedExchange {
  seq: number;
  method: string;
  path: string;
  status: { recorded: number | null; replayed: number | null };
  skipped?: string;
  differences: Difference[];
}

export interface ReplayReport {
  recordedFrom: string;
  against: string;
  summary: { requests: number; alike: number; different: number; skipped: number };
  exchanges: ReplayedExchange[];
  /** Principals that got no credentials on the other service (their requests go without a token). */
  unauthenticated: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URN = /^urn:[^:\s]+:[^:\s]+:([^:\s]+)$/;
const ID_KEY = /^(id|ids|urn|href|url|location|blobName|uploadId|access_token|refresh_token|user_id)$|(Id|Ids|_id|Urn|Url|_url)$/;

/** Recorded value → replayed value: ids, URLs and tokens the two services gave at the same places. */
export class IdMap {
  readonly pairs = new Map<string, string>();
  private long: string[] = [];

  add(recorded: string, replayed: string): void {
    if (!recorded || recorded === replayed || this.pairs.has(recorded)) return;
    this.pairs.set(recorded, replayed);
    if (recorded.length >= 16) this.long = [...this.long, recorded].sort((a, b) => b.length - a.length);
    const a = URN.exec(recorded)?.[1];
    const b = URN.exec(replayed)?.[1];
    if (a && b) this.add(a, b);
  }

  /** The value with every mapped value in it replaced (whole, else as a part of a longer string). */
  apply(s: string): string {
    const whole = this.pairs.get(s);
    if (whole !== undefined) return whole;
    let out = s;
    for (const k of this.long) if (out.includes(k)) out = out.split(k).join(this.pairs.get(k)!);
    return out;
  }

  json(v: unknown): unknown {
    if (typeof v === 'string') return this.apply(v);
    if (Array.isArray(v)) return v.map((x) => this.json(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.json(x)]));
    return v;
  }

  /** Learns from two answers to the same request: strings at the same path that look like ids. */
  learn(recorded: unknown, replayed: unknown, key?: string): void {
    if (typeof recorded === 'string' && typeof replayed === 'string') {
      if (recorded !== replayed && ((key !== undefined && ID_KEY.test(key)) || UUID.test(recorded) || URN.test(recorded) || isPlaceholder(recorded) || /^https?:\/\//.test(recorded))) {
        this.add(recorded, replayed);
      }
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(replayed)) {
      for (let i = 0; i < Math.min(recorded.length, replayed.length); i++) this.learn(recorded[i], replayed[i], key);
      return;
    }
    if (recorded && replayed && typeof recorded === 'object' && typeof replayed === 'object') {
      const b = replayed as Record<string, unknown>;
      for (const [k, v] of Object.entries(recorded as Record<string, unknown>)) if (k in b) this.learn(v, b[k], k);
    }
  }

  /** A path with its query: each segment and each parameter value mapped. */
  path(pathAndQuery: string): string {
    return mapPathAndQuery(pathAndQuery, (seg) => this.apply(seg), (_k, v) => this.apply(v));
  }
}

/** Requests the replay does not send: the browser steps of a sign-in. */
function skipReason(ex: Exchange): string | null {
  const p = ex.request.path.split('?')[0]!;
  if (p === '/oauth/authorize' || p.startsWith('/oauth/authorize/') || p === '/login' || p.startsWith('/oauth/login')) return 'a browser sign-in step';
  const b = ex.request.body;
  if (p === '/oauth/token' && b.kind === 'form' && b.form.grant_type === 'authorization_code') return 'an authorization-code grant (its code came from a browser)';
  return null;
}

const HEADERS_NOT_SENT = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'cookie', 'transfer-encoding', 'keep-alive']);

async function answerOf(res: Response): Promise<{ status: number; body: RecordedBody; raw: unknown; location: string | null }> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const klass = classOf(res.headers.get('content-type') ?? undefined);
  const location = res.headers.get('location');
  if (!bytes.length) return { status: res.status, body: { kind: 'none' }, raw: null, location };
  if (klass === 'binary') return { status: res.status, body: { kind: 'binary', bytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') }, raw: null, location };
  const text = bytes.toString('utf8');
  if (klass === 'json') {
    try {
      const json = JSON.parse(text) as unknown;
      return { status: res.status, body: { kind: 'json', json }, raw: json, location };
    } catch {
      return { status: res.status, body: { kind: 'text', text }, raw: null, location }; // not JSON after all: compared as text
    }
  }
  if (klass === 'form') {
    const form = Object.fromEntries(new URLSearchParams(text));
    return { status: res.status, body: { kind: 'form', form }, raw: form, location };
  }
  return { status: res.status, body: { kind: 'text', text }, raw: null, location };
}

export async function replaySession(o: ReplayOptions): Promise<ReplayReport> {
  const { info, exchanges } = readSession(o.dir);
  const against = o.against.replace(/\/+$/, '');
  const fetchFn = o.fetch ?? fetch;
  const ids = new IdMap();
  for (const [k, v] of Object.entries(o.map ?? {})) ids.add(k, v);

  // Credentials on the other service, per recorded user (or per token placeholder without one).
  const unauthenticated: string[] = [];
  const byUser = new Map<string, { access_token: string; refresh_token?: string; user_id?: string } | null>();
  const emailOf = (userId: string): string | undefined => {
    const direct = o.users?.[userId];
    if (direct) return direct;
    // The same user may be named by its UUID (a token's subject) and by its URN (an answer's id).
    const tail = (id: string) => id.slice(id.lastIndexOf(':') + 1);
    const placeholder = (info.users[userId] ?? Object.entries(info.users).find(([id]) => tail(id) === tail(userId))?.[1])?.email;
    if (placeholder) return o.users?.[placeholder] ?? o.map?.[placeholder] ?? o.as;
    return o.as;
  };
  const pairFor = async (key: string, userId: string | null) => {
    const given = o.tokens?.[key] ?? (userId ? o.tokens?.[userId] : undefined);
    if (given) return typeof given === 'string' ? { access_token: given } : given;
    const email = userId ? emailOf(userId) : o.as;
    if (!email || !o.operatorToken) return null;
    const res = await fetchFn(`${against}/_operator/tokens`, {
      method: 'POST', headers: { authorization: `Bearer ${o.operatorToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ email }),
    });
    if (res.status !== 200) throw new Error(`${against}/_operator/tokens for ${email}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { access_token: string; refresh_token: string; user_id: string };
  };
  // Tokens the session itself obtained (a refresh's answer) are mapped when the replay obtains
  // its own at the same place; only those used before that (or obtained by a skipped browser
  // step) need credentials from here.
  const issuedAt = new Map<string, number>();
  for (const ex of exchanges) {
    const r = ex.response?.body;
    if (skipReason(ex) || r?.kind !== 'json' || !r.json || typeof r.json !== 'object') continue;
    for (const k of ['access_token', 'refresh_token']) {
      const v = (r.json as Record<string, unknown>)[k];
      if (typeof v === 'string' && !issuedAt.has(v)) issuedAt.set(v, ex.seq);
    }
  }
  const usedAt = (placeholder: string) => exchanges.find((ex) => JSON.stringify(ex.request).includes(placeholder))?.seq ?? Infinity;
  for (const [placeholder, p] of Object.entries(info.principals)) {
    if ((issuedAt.get(placeholder) ?? Infinity) < usedAt(placeholder)) continue;
    const key = p.userId ?? placeholder;
    if (!byUser.has(key)) byUser.set(key, await pairFor(placeholder, p.userId));
    const pair = byUser.get(key);
    if (!pair) {
      if (!unauthenticated.includes(key)) unauthenticated.push(key);
      continue;
    }
    if (p.userId && pair.user_id) ids.add(p.userId, pair.user_id);
    const token = p.use === 'refresh' ? pair.refresh_token : pair.access_token;
    if (token) ids.add(placeholder, token);
  }

  const out: ReplayedExchange[] = [];
  for (const ex of exchanges) {
    const row: ReplayedExchange = {
      seq: ex.seq, method: ex.request.method, path: ex.request.path,
      status: { recorded: ex.response?.status ?? null, replayed: null }, differences: [],
    };
    out.push(row);
    const skipped = skipReason(ex);
    if (skipped) {
      row.skipped = skipped;
      continue;
    }
    const absolute = ids.pairs.get(`${info.proxyOrigin}${ex.request.path}`);
    const url = absolute ?? `${against}${ids.path(ex.request.path)}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(ex.request.headers)) {
      if (HEADERS_NOT_SENT.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, ids.apply(v));
    }
    const b = ex.request.body;
    let body: BodyInit | undefined;
    if (b.kind === 'json') body = JSON.stringify(ids.json(b.json));
    else if (b.kind === 'form') body = new URLSearchParams(Object.entries(b.form).map(([k, v]) => [k, ids.apply(v)])).toString();
    else if (b.kind === 'text') body = ids.apply(b.text);
    else if (b.kind === 'binary') {
      if (!b.file) throw new Error(`exchange ${ex.seq}: a request body of ${b.bytes} bytes was not kept`);
      body = new Uint8Array(fs.readFileSync(path.join(o.dir, b.file)));
    }
    let answer: Awaited<ReturnType<typeof answerOf>> | null = null;
    try {
      answer = await answerOf(await fetchFn(url, { method: ex.request.method, headers, body, redirect: 'manual' }));
    } catch (e) {
      row.differences.push({ kind: 'status', recorded: ex.response?.status ?? null, replayed: null });
      row.skipped = `no answer: ${(e as Error).message}`;
      continue;
    }
    row.status.replayed = answer.status;
    row.differences = compareAnswers(ex.response, answer);
    if (ex.response?.body.kind === 'json' && answer.raw !== null) ids.learn(ex.response.body.json, answer.raw);
    if (ex.response?.body.kind === 'form' && answer.raw !== null) ids.learn(ex.response.body.form, answer.raw);
    const recordedLocation = ex.response?.headers.location;
    if (typeof recordedLocation === 'string' && answer.location) ids.add(recordedLocation, new URL(answer.location, url).href);
  }
  const skipped = out.filter((r) => r.skipped).length;
  const different = out.filter((r) => !r.skipped && r.differences.length).length;
  return {
    recordedFrom: info.target, against,
    summary: { requests: out.length, alike: out.length - skipped - different, different, skipped },
    exchanges: out, unauthenticated,
  };
}

/** The report for people: a summary, then each request answered differently with its differences. */
export function reportText(r: ReplayReport): string {
  const lines = [
    `Replayed ${r.summary.requests} recorded requests (recorded from ${r.recordedFrom}) against ${r.against}:`,
    `  ${r.summary.alike} answered alike, ${r.summary.different} differently, ${r.summary.skipped} skipped.`,
  ];
  if (r.unauthenticated.length) lines.push(`  No credentials for ${r.unauthenticated.join(', ')}: their requests were sent without a token (see --operator-token, --user, --as, --token-file).`);
  for (const x of r.exchanges) {
    if (!x.skipped && !x.differences.length) continue;
    lines.push('', `#${x.seq} ${x.method} ${x.path}  ${x.status.recorded ?? '-'} → ${x.status.replayed ?? '-'}${x.skipped ? `  skipped: ${x.skipped}` : ''}`);
    for (const d of x.differences) {
      if (d.kind === 'status') lines.push(`  status      recorded ${d.recorded ?? 'no answer'}, replayed ${d.replayed ?? 'no answer'}`);
      else if (d.kind === 'error-code') lines.push(`  error code  recorded ${d.recorded ?? '(none)'}, replayed ${d.replayed ?? '(none)'}`);
      else if (d.kind === 'body') lines.push(`  body        recorded ${d.recorded}, replayed ${d.replayed}`);
      else if (d.kind === 'missing') lines.push(`  missing     ${d.path} (${d.recorded}): in the recorded answer only`);
      else if (d.kind === 'extra') lines.push(`  extra       ${d.path} (${d.replayed}): in the replayed answer only`);
      else lines.push(`  type        ${d.path}: recorded ${d.recorded}, replayed ${d.replayed}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
