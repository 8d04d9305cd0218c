// Requests refused before Fastify sees them still answer in their surface's format
// (docs/security.md "Request fidelity"): Node's HTTP parser refusing bytes (bad header
// bytes, headers over 16 KB, malformed framing), a missing Host header, an Expect header
// the service does not meet. An API 1 path (/api/… but not /api/2/…) answers
// {code, message}, API 2 and the rest problem+json, the OAuth endpoints RFC 6749.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import { invalidInput } from '../core/errors.ts';
import { failureBody, surfaceOf, type Failure } from './errors.ts';

/** The target of each connection's latest request: a refusal in a request's body finds its surface here. */
const lastTargets = new WeakMap<Socket, string>();

/** Keeps lastTargets: one WeakMap write per request, from the app's root onRequest hook. */
export function trackTarget(req: IncomingMessage): void {
  lastTargets.set(req.socket, req.url ?? '');
}

/**
 * The request target of the request the parser refused: from its request line when the
 * refused bytes start with one (a refusal in the head), else the connection's latest
 * request (a refusal in the body, after the head was read), else '' (unknown).
 */
export function targetOf(rawPacket: unknown, socket: Socket): string {
  if (Buffer.isBuffer(rawPacket)) {
    const line = /^[!-~]+ (\S+)/.exec(rawPacket.subarray(0, 8192).toString('latin1'));
    if (line) return line[1]!;
  }
  return lastTargets.get(socket) ?? '';
}

/** `always`: the headers every response carries (version, nosniff, HSTS; src/http/app.ts). */
const headersOf = (type: string, body: string, always: Record<string, string>) => ({
  ...always,
  'content-type': type,
  'content-length': String(Buffer.byteLength(body)),
});

/** A whole HTTP/1.1 answer written straight to the socket, in the target's surface format; the connection then closes. */
export function rawFailure(target: string, f: Failure, always: Record<string, string>): string {
  const { type, body } = failureBody(surfaceOf(target), f);
  const text = JSON.stringify(body);
  const head = Object.entries(headersOf(type, text, always)).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `HTTP/1.1 ${f.status} ${STATUS_CODES[f.status]!}\r\n${head}connection: close\r\n\r\n${text}`;
}

/** The answer to a request Node's parser refused: late headers (HEADERS_TIMEOUT) 408, over 16 KB 431, else 400. */
export function clientErrorResponse(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket, always: Record<string, string>): string {
  const f: Failure =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? { status: 408, code: 'request-timeout', message: 'The request headers did not arrive in time' }
      : { status: err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400, code: 'invalid-input', message: 'The request could not be parsed' };
  return rawFailure(targetOf(err.rawPacket, socket), f, always);
}

/**
 * HTTP/1.1 requests need a Host header (RFC 9112 §3.2). Node's own check answers an
 * empty 400 before any hook; with it off (`http.requireHostHeader: false`) this hook
 * refuses the request in the surface's format instead.
 */
export const requireHost: onRequestHookHandler = (req, _reply, done) => {
  if (req.headers.host === undefined && req.raw.httpVersionMajor === 1 && req.raw.httpVersionMinor >= 1) {
    return done(invalidInput('An HTTP/1.1 request needs a Host header', { field: 'host' }));
  }
  return done();
};

/** Expect values other than 100-continue answer 417 in the surface's format (Node's own 417 has no body). */
export function answerExpectationFailed(server: Server, always: Record<string, string>): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const f: Failure = { status: 417, code: 'invalid-input', message: 'Only "Expect: 100-continue" is supported' };
    const { type, body } = failureBody(surfaceOf(req.url ?? ''), f);
    const text = JSON.stringify(body);
    res.writeHead(417, { ...headersOf(type, text, always), connection: 'close' });
    res.end(text);
  });
}
