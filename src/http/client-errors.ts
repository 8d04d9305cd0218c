// Requests refused before Fastify sees them still answer in their surface's format
// (docs/security.md "Request fidelity"): Node's HTTP parser refusing bytes (bad header
// bytes, headers over 16 KB, malformed framing), a missing Host header, an Expect header
// the service does not meet. An API 1 path (/api/… but not /api/2/…) answers
// {code, message}, API 2 and the rest problem+json, the OAuth endpoints RFC 6749: the
// path of the request refused, however its bytes arrived (split over reads, pipelined
// after other requests on a kept-alive connection).
import { METHODS, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HTTPParser } from 'node:_http_common';
import type { Socket } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import { invalidInput } from '../core/http-face.ts';
import { failureBody, surfaceOf, type Failure } from './errors.ts';

/** Each connection's latest request whose head was read: a refusal in its body is its own. */
const latestRequests = new WeakMap<Socket, IncomingMessage>();
/** Its response: a refusal of a later request pipelined behind it is written after it. */
const latestResponses = new WeakMap<Socket, ServerResponse>();

/**
 * The head a connection is in the middle of, when a read ended inside it (a head split over
 * several reads, or a read ending with the start of the next pipelined request): its
 * request target once its first line is complete, else the bytes of that line so far.
 * `after`: the latest request when it was kept (a newer one makes it stale).
 */
interface PartialHead {
  after: IncomingMessage | undefined;
  target?: string;
  line: string;
}
const partialHeads = new WeakMap<Socket, PartialHead>();

/** The start of a request target is all its surface needs: a longer first line is not kept. */
const MAX_KEPT_LINE = 8192;

const methods = METHODS.map((m) => m.replace(/-/g, '\\-')).join('|');
/** A complete request line, possibly after the end of a previous body on the same line. */
const REQUEST_LINE = new RegExp(`(?:^|[^A-Z-])(?:${methods}) ([^ ]+) HTTP/\\d\\.\\d\\r?$`);
/** The target on an incomplete or malformed first line: after a known method, else after any upper-case word. */
const KNOWN_METHOD_TARGET = new RegExp(`(?:^|[^A-Z-])(?:${methods}) +([^ \\r\\n]+)`);
const ANY_METHOD_TARGET = /(?:^|[^A-Z-])[A-Z][A-Z-]* +([^ \r\n]+)/;
const HEADER_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;

/**
 * The target of the head whose bytes end at `lineStart` (the start of its last, incomplete
 * line): walking back over its header lines, the first line that is not one is its request
 * line. Undefined when there is none before (the head is still on its first line).
 */
function requestLineBefore(text: string, lineStart: number): string | undefined {
  for (let end = lineStart - 1; end >= 0; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    const request = REQUEST_LINE.exec(line);
    if (request) return request[1];
    if (!HEADER_LINE.test(line)) return undefined; // an empty line ends the previous head
    end = start - 1;
  }
  return undefined;
}

const firstLineTarget = (line: string): string | undefined => (KNOWN_METHOD_TARGET.exec(line) ?? ANY_METHOD_TARGET.exec(line))?.[1];

/**
 * The target of the request head that `text` (latin1) ends in, refused at `at`: from its
 * request line, or from its first line when that is where the refusal is (read to the
 * line's end: `GEX /api/… HTTP/1.1` is refused at its method, and is an API 1 request).
 * The bytes before the head (the end of the previous request) may precede it.
 */
export function headTarget(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = text.indexOf('\n', at);
  return requestLineBefore(text, lineStart) ?? firstLineTarget(text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd)) ?? '';
}

/** What a read that ended inside a head adds to what is known of that head. */
function keepPartialHead(socket: Socket, chunk: Buffer): void {
  const after = latestRequests.get(socket);
  const kept = partialHeads.get(socket);
  const before = kept?.after === after ? kept : undefined;
  if (before?.target !== undefined) return;
  const text = (before?.line ?? '') + chunk.toString('latin1');
  const lineStart = text.lastIndexOf('\n') + 1;
  const target = requestLineBefore(text, lineStart);
  const line = text.slice(lineStart);
  if (target !== undefined) partialHeads.set(socket, { after, target, line: '' });
  else if (line.length > MAX_KEPT_LINE) partialHeads.set(socket, { after, target: firstLineTarget(line) ?? '', line: '' });
  else partialHeads.set(socket, { after, line });
}

type Callback = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Watches each connection's reads, so that a refusal is answered in the surface of the
 * request it refuses (docs/decisions.md "A refusal in the format of the request it
 * refuses"): records each request whose head was read and, through the HTTP parser's
 * callbacks (message begun, head complete, read done: the only places a read is seen
 * without taking the socket off the parser's native path), the head a read ended inside.
 * Without those callbacks (another Node version) only the refused read itself is known.
 */
export function trackRequests(server: Server): void {
  const record = (req: IncomingMessage, res: ServerResponse) => {
    latestRequests.set(req.socket, req);
    latestResponses.set(req.socket, res);
  };
  server.on('request', record);
  // A request with an Expect header other than 100-continue is handed to this event instead.
  server.on('checkExpectation', record);
  server.on('connection', (socket: Socket) => {
    const parser = (socket as Socket & { parser?: Record<number, unknown> & { getCurrentBuffer?: () => Buffer } }).parser;
    const onHeadersComplete = parser?.[HTTPParser.kOnHeadersComplete];
    const onExecute = parser?.[HTTPParser.kOnExecute];
    const getCurrentBuffer = parser?.getCurrentBuffer;
    if (!parser || typeof onHeadersComplete !== 'function' || typeof onExecute !== 'function' || typeof getCurrentBuffer !== 'function') return;
    if (parser[HTTPParser.kOnMessageBegin] != null) return; // taken: not the parser this was written for
    let inHead = false;
    parser[HTTPParser.kOnMessageBegin] = () => {
      inHead = true;
    };
    parser[HTTPParser.kOnHeadersComplete] = function (this: unknown, ...args: unknown[]) {
      inHead = false;
      return (onHeadersComplete as Callback).apply(this, args);
    };
    parser[HTTPParser.kOnExecute] = function (this: unknown, ret: unknown, ...rest: unknown[]) {
      // After a read that ends inside a head, keep what it holds of it; a refused read is the handler's.
      if (typeof ret === 'number') {
        if (inHead) keepPartialHead(socket, getCurrentBuffer.call(parser));
        else partialHeads.delete(socket);
      }
      return (onExecute as Callback).call(this, ret, ...rest);
    };
  });
}

/**
 * The request target of the request the parser refused: the connection's latest request
 * when the refusal is in its body (its head was read, its body was not complete); else the
 * head being read, from the refused read up to the refused byte (`bytesParsed`) and what
 * earlier reads held of the same head. '' when no target can be read (bytes that are no request).
 */
export function targetOf(err: { rawPacket?: unknown; bytesParsed?: unknown }, socket: Socket): string {
  const latest = latestRequests.get(socket);
  if (latest && !latest.complete) return latest.url ?? '';
  const kept = partialHeads.get(socket);
  const before = kept?.after === latest ? kept : undefined;
  if (before?.target !== undefined) return before.target;
  const refused = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : '';
  const at = typeof err.bytesParsed === 'number' ? Math.min(err.bytesParsed, refused.length) : refused.length;
  const line = before?.line ?? '';
  return headTarget(line + refused, line.length + at);
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
export function clientErrorResponse(err: Error & { code?: string; rawPacket?: unknown; bytesParsed?: unknown }, socket: Socket, always: Record<string, string>): string {
  const f: Failure =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? { status: 408, code: 'request-timeout', message: 'The request headers did not arrive in time' }
      : { status: err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400, code: 'invalid-input', message: 'The request could not be parsed' };
  return rawFailure(targetOf(err, socket), f, always);
}

/**
 * Answers a request Node's parser refused (the app's clientErrorHandler), then closes the
 * connection. Responses go in the order of their requests (RFC 9112 §9.3.2): when the
 * refused request was pipelined behind one still being answered, the refusal waits for
 * that answer.
 */
export function refuseRequest(err: Error & { code?: string; rawPacket?: unknown; bytesParsed?: unknown }, socket: Socket, always: Record<string, string>): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = clientErrorResponse(err, socket, always);
  const send = () => {
    if (socket.writable) socket.write(answer);
    socket.destroy(err);
  };
  // A refusal in the latest request's own body answers that request: at once.
  const earlier = latestRequests.get(socket)?.complete ? latestResponses.get(socket) : undefined;
  if (!earlier || earlier.writableFinished || earlier.destroyed) return send();
  let sent = false;
  const once = () => {
    if (sent) return;
    sent = true;
    send();
  };
  earlier.once('finish', once);
  earlier.once('close', once);
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
