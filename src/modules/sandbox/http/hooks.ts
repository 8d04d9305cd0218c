// The sandbox module's per-request steps (docs/sandbox.md), added to the root of the app:
// - with OPERATOR_TOKEN: the request gate (a restore or a reset holds new requests and
//   waits for those in flight) and the request journal (one entry when the answer is over);
// - with SANDBOX=1: the fault rules, in ONE preParsing hook (after every onRequest hook,
//   the bearer check included, so a rule can match the user; before the body is read and
//   before the route). With no rule it is one property read and the callback. Two rule
//   kinds act later: refuse-refresh is decided once POST /oauth/token's body is read (it
//   needs grant_type: preValidation), and slow-body paces the answer (onSend);
//   slow-request-body paces the request's body (the stream preParsing hands on). A rule's
//   window is read on the service's clock (the Clock port, which the sandbox clock moves).
// /_operator requests pass neither the gate (a restore is one) nor the journal nor the rules.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../../core/ports/clock.ts';
import type { RequestGate } from '../core/request-gate.ts';
import type { Faults } from '../core/faults.ts';
import type { Journal } from '../core/journal.ts';
import { failureOf, renderFailure, surfaceOf, type Failure } from '../../../http/errors.ts';
import { loggedPath } from '../../../http/logged-path.ts';
import type { InjectedFault } from '../core/faults.ts';
import { REFRESH_REQUEST, type FaultEffect, type FaultRequest } from '../core/fault-rules.ts';
import { refusalOf } from '../core/journal.ts';

const OPERATOR = '/_operator';
const isOperator = (url: string) => url.startsWith(OPERATOR) && (url.length === OPERATOR.length || url[OPERATOR.length] === '/' || url[OPERATOR.length] === '?');

/** The fault each request met (the journal names it). */
const injected = new WeakMap<FastifyRequest, InjectedFault>();

const operationIdOf = (req: FastifyRequest): string | undefined =>
  (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId;

function accountOf(req: FastifyRequest): string | undefined {
  const p = req.params as Record<string, unknown> | undefined;
  const v = p?.accountRef ?? p?.accountId;
  return typeof v === 'string' ? v : undefined;
}

function factsOf(req: FastifyRequest, nowMs: number): FaultRequest {
  const path = req.url.split('?')[0]!;
  return {
    method: req.method, path, operationId: operationIdOf(req), user: req.principal?.userId,
    account: accountOf(req), surface: surfaceOf(req.url), nowMs,
  };
}

/**
 * A slow body: the real answer, paced at `bytesPerSecond` (the first slice at once, then
 * each when the bytes sent so far are due; `paced` below paces a slow-request-body's request
 * body the same way). A stream answer is read as it is sent (its own backpressure: memory
 * stays flat); a whole answer is sliced without copies, and keeps its Content-Length.
 */
function slowBody(payload: unknown, bytesPerSecond: number, reply: FastifyReply): unknown {
  if (payload === null || payload === undefined) return payload;
  const whole = typeof payload === 'string' ? Buffer.from(payload) : payload instanceof Uint8Array ? payload : null;
  if (whole) reply.header('content-length', String(whole.length));
  return Readable.from(paced(whole ? [whole] : (payload as AsyncIterable<Uint8Array | string>), bytesPerSecond));
}

async function* paced(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array | string>, bytesPerSecond: number): AsyncGenerator<Uint8Array> {
  const slice = Math.max(1, Math.ceil(bytesPerSecond / 10)); // about ten slices a second
  const started = performance.now();
  let sent = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let i = 0; i < bytes.length; i += slice) {
      const wait = started + (sent / bytesPerSecond) * 1000 - performance.now();
      if (wait > 0) await sleep(wait);
      const part = bytes.subarray(i, i + slice);
      sent += part.length;
      yield part;
    }
  }
}

/**
 * A cut body: the headers (with the whole Content-Length) and the first half of the bytes,
 * then the connection is destroyed. Patches this one response's write and end.
 */
function truncate(reply: FastifyReply): void {
  const res = reply.raw;
  const write = res.write.bind(res) as (chunk: Uint8Array, done?: () => void) => boolean;
  let budget: number | null = null;
  let cutOff = false;
  // The connection is destroyed once the bytes kept are flushed (destroying at once would drop them).
  const destroy = () => res.socket?.destroy();
  const cut = (chunk: unknown, last: boolean): boolean => {
    if (cutOff) return false;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk instanceof Uint8Array ? chunk : Buffer.alloc(0);
    if (budget === null) {
      // Fastify keeps the headers on the reply until it writes them all at once.
      const length = Number(reply.getHeader('content-length') ?? res.getHeader('content-length') ?? (last ? bytes.length : NaN));
      budget = Number.isFinite(length) && length > 1 ? Math.floor(length / 2) : 1;
    }
    const keep = bytes.subarray(0, budget);
    budget -= keep.length;
    if (budget > 0 && !last) return keep.length ? write(keep) : true;
    cutOff = true;
    if (keep.length) write(keep, destroy);
    else if (res.headersSent) destroy();
    else write(Buffer.alloc(0), destroy); // the headers, then the end
    return false;
  };
  res.write = ((chunk: unknown) => cut(chunk, false)) as typeof res.write;
  res.end = ((chunk?: unknown) => {
    cut(typeof chunk === 'function' ? undefined : chunk, true);
    return res;
  }) as typeof res.end;
}

function injectedFailure(f: InjectedFault): Failure | null {
  const e = f.effect;
  if (e.kind === 'status') {
    return { status: e.status, code: 'injected-fault', message: `A fault injected by sandbox rule ${f.ruleId}`, values: { ruleId: f.ruleId } };
  }
  if (e.kind === 'throttle') {
    return {
      status: 429, code: 'too-many-requests', message: `Too many requests; retry in ${e.retryAfterSeconds} seconds`,
      values: { retryAfter: e.retryAfterSeconds }, headers: { 'retry-after': String(e.retryAfterSeconds) },
    };
  }
  if (e.kind === 'refuse-refresh') {
    // RFC 6749 5.2: 400 {error: invalid_grant} in the token endpoint's format (http/errors.ts).
    return { status: 400, code: 'invalid_grant', message: `The refresh token was refused (a fault injected by sandbox rule ${f.ruleId})`, values: { ruleId: f.ruleId } };
  }
  return null;
}

/** The injected faults' counter of GET /metrics (the module's offer: one per node, on its registry). */
export interface FaultCounter {
  injected(kind: string): void;
}

/** What the hooks use: the settings, the module's gate, journal, rules and injected faults' counter. */
export interface SandboxHookUse {
  config: { sandbox: boolean; operatorToken: string | undefined };
  requestGate: RequestGate;
  journal: Journal | null;
  faults: Faults;
  faultCounter: FaultCounter;
  /** The service's clock (the sandbox clock moves it): the rules' windows are read on it. */
  clock: Clock;
}

export function sandboxHooks(app: FastifyInstance, core: SandboxHookUse): void {
  const { requestGate: gate, journal, faults } = core;

  if (core.config.operatorToken) {
    app.addHook('onRequest', (req, reply, done) => {
      if (isOperator(req.url)) return done();
      let admitted = false;
      let over = false;
      reply.raw.once('close', () => {
        over = true;
        if (admitted) gate.leave();
        if (journal) record(req, reply);
      });
      const wait = gate.enter();
      if (wait === null) {
        admitted = true;
        return done();
      }
      wait.then(() => {
        admitted = true;
        if (over) gate.leave(); // gone while it waited
        else done();
      }, done);
    });
  }

  function record(req: FastifyRequest, reply: FastifyReply): void {
    const f = failureOf(reply);
    const fault = injected.get(req);
    const status = reply.raw.headersSent ? reply.statusCode : 0;
    journal!.record({
      at: new Date(Date.now() - reply.elapsedTime).toISOString(),
      method: req.method,
      path: loggedPath(req.url),
      operationId: operationIdOf(req) ?? null,
      surface: surfaceOf(req.url),
      user: req.principal?.userId ?? null,
      status,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      errorCode: f?.code ?? null,
      detail: f?.message ?? null,
      refusal: f ? refusalOf(f.status, f.code, f.values) : null,
      fault: fault ? { ruleId: fault.ruleId, kind: fault.effect.kind, ...(fault.delayMs === undefined ? {} : { delayMs: fault.delayMs }) } : null,
    });
  }

  if (!core.config.sandbox) return;
  // The requests whose answer a slow-body rule paces, not yet sent: while there is none,
  // onSend is one comparison (a request gone before its answer leaves the count above 0:
  // the set is then asked, no harm done).
  const answersToPace = new WeakSet<FastifyRequest>();
  let pending = 0;
  app.addHook('preParsing', (req, reply, payload, done) => {
    if (!faults.active || isOperator(req.url)) return done(null, payload);
    const f = faults.decide(factsOf(req, core.clock.nowMs()));
    if (!f) return done(null, payload);
    injected.set(req, f);
    core.faultCounter.injected(f.effect.kind);
    const e = f.effect;
    switch (e.kind) {
      case 'delay':
        setTimeout(() => done(null, payload), f.delayMs ?? 0);
        return;
      case 'slow-body': // paced in onSend
        answersToPace.add(req);
        pending++;
        return done(null, payload);
      case 'slow-request-body':
        // The body the parsers (and the blob upload route, through req.body) read instead of
        // the request: pulled from it only as fast as it is paced (backpressure: the socket
        // stops being read, the client's writes wait), so memory stays at one chunk.
        return done(null, Readable.from(paced(payload as AsyncIterable<Uint8Array>, e.bytesPerSecond), { objectMode: false }));
      case 'drop':
        req.raw.socket?.destroy();
        return;
      case 'truncate':
        truncate(reply);
        return done(null, payload);
      default:
        renderFailure(surfaceOf(req.url), injectedFailure(f)!, reply);
    }
  });

  // refuse-refresh: decided once the token request's body is read (only its rules match then).
  app.addHook('preValidation', (req, reply, done) => {
    if (!faults.active || req.method !== REFRESH_REQUEST.method || injected.has(req) || req.url.split('?')[0] !== REFRESH_REQUEST.path) return done();
    const body = req.body as { grant_type?: unknown; client_id?: unknown } | undefined;
    if (body?.grant_type !== REFRESH_REQUEST.grantType) return done();
    const facts = factsOf(req, core.clock.nowMs());
    const f = faults.decide({ ...facts, grantType: REFRESH_REQUEST.grantType, ...(typeof body.client_id === 'string' ? { client: body.client_id } : {}) });
    if (!f) return done();
    injected.set(req, f);
    core.faultCounter.injected(f.effect.kind);
    renderFailure('oauth', injectedFailure(f)!, reply);
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    if (pending === 0 || !answersToPace.delete(req)) return done(null, payload);
    pending--;
    const e = injected.get(req)!.effect as Extract<FaultEffect, { kind: 'slow-body' }>;
    done(null, slowBody(payload, e.bytesPerSecond, reply));
  });
}
