// The three error renderers, the only places that know an error wire format:
// RFC 9457 problem+json (API 2 and our own surfaces), API 1 {code, message},
// RFC 6749 for the token endpoints. No error ever leaves as a 5xx with a stack.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, DomainError } from '../core/http-face.ts';
import { acceptedMediaTypes, JSON_TYPE } from './request-bodies.ts';

export type Surface = 'api2' | 'api1' | 'oauth' | 'other';

/** The surface a request target belongs to; an absolute-form target (`http://host/api/…`) by its path. */
export function surfaceOf(target: string): Surface {
  const url = target.startsWith('/') ? target : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  if (url === '/api/2' || url.startsWith('/api/2/') || url.startsWith('/api/2?')) return 'api2';
  if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) return 'api1';
  if (url.startsWith('/oauth/')) return 'oauth';
  return 'other';
}

/** A failure normalised from whatever was thrown. */
export interface Failure {
  status: number;
  code: ErrorCode;
  message: string;
  values?: Record<string, unknown>;
  headers?: Record<string, string>;
  validation?: boolean;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload-too-large', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported-media-type',
    message: 'Unsupported Content-Type for this operation',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid-input',
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid-input', message: 'The JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid-input', message: 'The body is not valid JSON' },
};

/**
 * A database error the request caused rather than the server: a value PostgreSQL
 * cannot hold (class 22: a NUL byte, an out-of-range date or number, a malformed
 * uuid), a size limit (class 54) or a constraint a concurrent writer won (class 23).
 * Both engines raise errors carrying the SQLSTATE in `code` and a `severity`.
 */
function databaseFailure(err: unknown): Failure | null {
  const e = err as { code?: unknown; severity?: unknown } | null;
  if (!e || typeof e.code !== 'string' || typeof e.severity !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code)) return null;
  const cls = e.code.slice(0, 2);
  if (cls === '22' || cls === '54') {
    return { status: 400, code: 'invalid-input', message: 'A value of the request cannot be stored' };
  }
  if (cls === '23') return { status: 409, code: 'conflict', message: 'The request conflicts with the current state' };
  return null;
}

export function toFailure(err: unknown): Failure {
  if (err instanceof DomainError) {
    return { status: err.status, code: err.code, message: err.message, values: err.values, headers: err.headers };
  }
  const fe = err as FastifyError & { validation?: { instancePath?: string; params?: Record<string, unknown>; message?: string }[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) {
    const first = fe.validation[0];
    const missing = first?.params?.missingProperty as string | undefined;
    const additional = first?.params?.additionalProperty as string | undefined;
    const pathPart = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const field = [fe.validationContext, pathPart, missing ?? additional].filter(Boolean).join('.');
    return {
      status: 400,
      code: 'invalid-input',
      message: `Invalid ${field || 'input'}: ${first?.message ?? 'does not match the schema'}`,
      values: { field: field || undefined, reason: first?.message },
      validation: true,
    };
  }
  const db = databaseFailure(err);
  if (db) return db;
  const known = fe?.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return { ...known };
  if (err instanceof SyntaxError || fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, code: 'invalid-input', message: 'The body is not valid JSON' };
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, code: status === 404 ? 'not-found' : 'invalid-input', message: fe.message || 'Bad request' };
  }
  return { status: 500, code: 'internal-error', message: 'Internal error' };
}

const OAUTH_CODES = new Set([
  'invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type',
  'invalid_scope', 'unsupported_token_type', 'access_denied', 'server_error',
]);

/** The status, media type and body of a failure on a surface: the one place that knows the formats. */
export function failureBody(surface: Surface, f: Failure): { type: string; body: Record<string, unknown> } {
  const json = 'application/json; charset=utf-8';
  switch (surface) {
    case 'api1':
      return { type: json, body: { code: f.code, message: f.message } };
    case 'oauth': {
      if (f.status === 401) {
        return {
          type: json,
          body: { errorCode: 'unauthorized', error: (f.values?.oauthError as string | undefined) ?? 'invalid_token', error_description: f.message },
        };
      }
      const error = OAUTH_CODES.has(f.code) ? f.code : f.status >= 500 ? 'server_error' : f.status === 404 ? 'not_found' : 'invalid_request';
      return { type: json, body: { error, error_description: f.message } };
    }
    default: {
      const body: Record<string, unknown> = {
        type: 'about:blank',
        status: f.status,
        title: TITLES[f.status] ?? STATUS_CODES[f.status] ?? 'Error',
        detail: f.message,
        errorCode: f.code,
      };
      if (f.values) {
        const values = Object.fromEntries(Object.entries(f.values).filter(([, v]) => v !== undefined));
        if (Object.keys(values).length) body.errorValues = values;
      }
      return { type: 'application/problem+json; charset=utf-8', body };
    }
  }
}

/** The failure of each failed answer, for its request log line (src/http/app.ts logRequest) and the journal. */
const failures = new WeakMap<FastifyReply, Failure>();

/** The errorCode the reply was rendered with; undefined for a success. */
export const errorCodeOf = (reply: FastifyReply): string | undefined => failures.get(reply)?.code;

/** The failure the reply was rendered with (code, message, values); undefined for a success. */
export const failureOf = (reply: FastifyReply): Failure | undefined => failures.get(reply);

export function renderFailure(surface: Surface, f: Failure, reply: FastifyReply): FastifyReply {
  failures.set(reply, f);
  if (f.headers) reply.headers(f.headers);
  const { type, body } = failureBody(surface, f);
  return reply.code(f.status).type(type).send(body);
}

/** The request's own words in a message: printable ASCII, capped. */
const quoted = (v: string) => JSON.stringify(v.replace(/[^\x20-\x7e]/g, '?').slice(0, 100));

/** A failure told in terms of the request: the media type it should have sent, the body it lacks. */
function inContext(f: Failure, req: FastifyRequest): Failure {
  if (f.code === 'unsupported-media-type') {
    const sent = String(req.headers['content-type'] ?? '');
    const expected = acceptedMediaTypes(req);
    return {
      ...f,
      message: `Content-Type ${quoted(sent)} is not accepted here: send ${expected.join(' or ') || 'no body'}`,
      values: { contentType: sent.slice(0, 100), expected },
    };
  }
  if (f.validation && f.values?.field === 'body' && req.body === undefined) {
    return { ...f, message: `This operation needs a JSON body (Content-Type: ${JSON_TYPE})`, values: { field: 'body' } };
  }
  return f;
}

export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const f = inContext(toFailure(err), req);
  if (f.status >= 500) req.log.error({ err }, 'unhandled error');
  return renderFailure(surfaceOf(req.url), f, reply);
}

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply) {
  const path = req.url.split('?')[0]!.slice(0, 200);
  return renderFailure(
    surfaceOf(req.url),
    { status: 404, code: 'route-not-found', message: `No route ${req.method} ${path}` },
    reply,
  );
}

