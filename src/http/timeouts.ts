// Connection and request time limits (docs/security.md "Slow clients"). Node's server
// enforces the header deadline (headersTimeout → 408 through clientErrorHandler), the
// idle deadline (server.setTimeout) and the connection cap (maxConnections). The body
// deadline is ours: Node's requestTimeout would also cut /_blobs uploads, which are long
// streams with their own idle rule (http/blobs.ts, UPLOAD_IDLE_MS).
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BLOB_ROUTE_PREFIX } from '../adapters/storage/local-disk.ts';
import { rawFailure } from './client-errors.ts';
import type { Failure } from './errors.ts';

export interface TimeLimits {
  headersTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
  idleTimeoutSeconds: number;
  maxConnections: number;
}


/** Fastify's server options for the limits Node enforces, with the app's other `http` options (one `http` key). */
export function serverTimeOptions<H extends object>(limits: TimeLimits, http: H) {
  const headersTimeout = limits.headersTimeoutSeconds * 1000;
  return {
    connectionTimeout: limits.idleTimeoutSeconds * 1000,
    http: {
      ...http,
      headersTimeout,
      // Node checks header deadlines on this period (30 s by default): keep the overshoot
      // a fraction of the deadline.
      connectionsCheckingInterval: Math.min(5000, Math.max(250, Math.floor(headersTimeout / 4))),
    },
  };
}

const hasBody = (req: FastifyRequest): boolean => {
  const h = req.headers;
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0');
};

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
    if (!hasBody(req) || req.url.startsWith(BLOB_ROUTE_PREFIX)) return;
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
  };
}
