// Connection and request time limits (docs/security.md "Slow clients"). Node's server
// enforces the header deadline (headersTimeout → 408 through clientErrorHandler) and the
// connection cap (maxConnections). The body deadline is ours: Node's requestTimeout would
// also cut /_blobs uploads, which are long streams with their own idle rule (http/blobs.ts,
// UPLOAD_IDLE_MS) once their signature is verified (liftBodyDeadline). The idle deadline is ours too (idleConnections): Node's
// (server.setTimeout) costs every request a timer.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rawFailure } from './client-errors.ts';
import type { Failure } from './errors.ts';

export interface TimeLimits {
  headersTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
  idleTimeoutSeconds: number;
  maxConnections: number;
}


/** A limit checked by a periodic sweep is checked every quarter of it, at least every 250 ms and at most every 5 s. */
const sweepPeriodMs = (limitMs: number) => Math.min(5000, Math.max(250, Math.floor(limitMs / 4)));

/**
 * Fastify's server options for the limits Node enforces, with the app's other `http`
 * options (one `http` key). No socket timeout (`connectionTimeout: 0`): IDLE_TIMEOUT is
 * idleConnections().
 */
export function serverTimeOptions<H extends object>(limits: TimeLimits, http: H) {
  const headersTimeout = limits.headersTimeoutSeconds * 1000;
  return {
    connectionTimeout: 0,
    http: {
      ...http,
      headersTimeout,
      // Node checks header deadlines on this period (30 s by default): keep the overshoot
      // a fraction of the deadline.
      connectionsCheckingInterval: sweepPeriodMs(headersTimeout),
    },
  };
}

/**
 * IDLE_TIMEOUT: a connection with no traffic either way for that long is closed, whether
 * between requests (keep-alive), during a request whose answer is slow to come, or while
 * a client stops reading its answer. One sweep over the open connections every quarter
 * of the limit (sweepPeriodMs) compares each connection's byte counts with the previous
 * sweep's, so a connection is cut between IDLE_TIMEOUT and 1.25 × IDLE_TIMEOUT after its
 * last byte. Nothing is done per request: Node's own socket timeout (`server.setTimeout`)
 * makes a timer at every request and moves it at every read and write, a measurable share
 * of the cheapest requests' CPU (`npm run bench`, docs/performance.md). The sweep runs
 * while the server listens (app.inject() tests have no connections).
 */
export function idleConnections(server: Server, limits: Pick<TimeLimits, 'idleTimeoutSeconds'>): void {
  const idleMs = limits.idleTimeoutSeconds * 1000;
  // No keep-alive timer of Node's (Fastify sets 72 s, and takes 0 for "its default"): the
  // sweep closes a kept-alive connection as any other. Node's timer re-armed a socket timeout
  // after every answer and cleared it at the next request, and made every answer carry a
  // Keep-Alive header line (HTTP/1.1 connections persist without it; nginx sends none by
  // default): both a measurable share of the cheapest requests' CPU (docs/performance.md).
  server.keepAliveTimeout = 0;
  /** Per open connection: its bytes read and written at the last sweep that saw them change, and when. */
  const open = new Map<Socket, { bytes: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    open.set(socket, { bytes: 0, since: Date.now() });
    socket.once('close', () => open.delete(socket));
  });
  const sweep = () => {
    const now = Date.now();
    for (const [socket, seen] of open) {
      const bytes = socket.bytesRead + socket.bytesWritten;
      if (bytes !== seen.bytes) {
        seen.bytes = bytes;
        seen.since = now;
      } else if (now - seen.since >= idleMs) {
        socket.destroy();
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  server.on('listening', () => {
    timer ??= setInterval(sweep, sweepPeriodMs(idleMs)).unref();
  });
  server.on('close', () => {
    clearInterval(timer);
    timer = undefined;
  });
}

/** Whether a request announces a body (a length other than 0, or chunks). */
export const hasBody = (req: FastifyRequest): boolean => {
  const h = req.headers;
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
};

/** The body deadline armed for each request whose body is on its way: its clear. */
const deadlines = new WeakMap<IncomingMessage, () => void>();

/**
 * Exempts a request from BODY_TIMEOUT: only a /_blobs upload whose signature was verified
 * (http/blobs.ts), which then keeps the upload idle rule instead. Every other request with
 * a body, /_blobs ones included until verified, keeps the deadline.
 */
export function liftBodyDeadline(req: IncomingMessage): void {
  deadlines.get(req)?.();
}

/**
 * A body that has not arrived entirely BODY_TIMEOUT after the request started gets 408
 * and its connection closed (a client sending one byte every few seconds would otherwise
 * hold a connection, a parser and its buffer for ever). Answers the per-request step, which
 * the app's one root onRequest hook calls (a hook of its own would cost every request a
 * step); requests without a body arm no timer. Also applies MAX_CONNECTIONS.
 */
export function bodyDeadline(
  app: FastifyInstance,
  limits: TimeLimits,
  headers: Record<string, string>,
): (req: FastifyRequest, reply: FastifyReply) => void {
  const ms = limits.bodyTimeoutSeconds * 1000;
  const late: Failure = { status: 408, code: 'request-timeout', message: 'The request body did not arrive in time' };
  app.server.maxConnections = limits.maxConnections;
  return (req, reply) => {
    if (!hasBody(req)) return;
    const raw = req.raw;
    const socket: Socket = raw.socket;
    const timer = setTimeout(() => {
      if (raw.complete || socket.destroyed) return;
      req.log.warn({ path: req.url.split('?')[0]!.slice(0, 200) }, 'request body timed out');
      if (reply.raw.headersSent) socket.destroy();
      else socket.end(rawFailure(req.url, late, headers), () => socket.destroy());
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    deadlines.set(raw, clear);
  };
}
