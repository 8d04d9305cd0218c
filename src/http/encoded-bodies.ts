// JSON answers serialised once and compressed once, kept beside the core's cached value they
// present (a WeakMap keyed by that object: when the core drops its entry, the body goes with
// it). For large answers a node serves again and again unchanged (a caller's project list,
// ~1 MB for 1,000 projects): the serialisation, and the compression every real client asks
// for (Accept-Encoding: gzip), cost once per cached value instead of once per request.
// docs/performance.md "Project list", docs/decisions.md.
import { createHash } from 'node:crypto';
import { gzip as gzipCallback, constants } from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON answer as sent: its bytes, its strong validator, and its gzip variant once asked for. */
export interface EncodedBody {
  readonly json: Buffer;
  /** A strong ETag of the JSON bytes (the identity representation; the gzip one adds `-gzip`). */
  readonly etag: string;
  /** Made on libuv's thread pool the first time a client asks for it, then kept. */
  gzip?: Promise<Buffer>;
}

const gzipAsync = promisify(gzipCallback);

/** zlib's default level: ~5–10 ms for 1 MB of JSON (off the main thread), once per kept body; higher levels gain little on JSON. */
const GZIP_LEVEL = 6;

/** The content coding to send for an `Accept-Encoding` header: gzip when accepted (q > 0), else identity. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  let gzip: number | null = null;
  let any: number | null = null;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim());
    const name = coding.toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([0-9.]+)$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (name === '*') any = q;
    else gzip = Math.max(gzip ?? 0, q);
  }
  return (gzip ?? any ?? 0) > 0;
}

/** Bodies kept per value: `of(value, serialise)` answers the value's body, serialising it on first use. */
export function encodedBodies<K extends object>() {
  const bodies = new WeakMap<K, EncodedBody>();
  return {
    of(value: K, serialise: () => string): EncodedBody {
      let body = bodies.get(value);
      if (!body) {
        const json = Buffer.from(serialise());
        body = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"` };
        bodies.set(value, body);
      }
      return body;
    },
  };
}

/** `If-None-Match` names one of the body's tags (or `*`): the client holds it (weak comparison, RFC 9110 §13.1.2). */
function matches(ifNoneMatch: string | undefined, tags: readonly string[]): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tags.includes(tag);
  });
}

/**
 * Sends a kept body as a 200 `application/json; charset=utf-8`, gzip-coded when the request
 * accepts it (`Vary: Accept-Encoding` either way), or 304 when `If-None-Match` names it.
 * The bytes bypass the route's serializer (they were made by it).
 */
export async function sendEncoded(req: FastifyRequest, reply: FastifyReply, body: EncodedBody): Promise<FastifyReply> {
  const gzipped = acceptsGzip(req.headers['accept-encoding']);
  const etag = gzipped ? `${body.etag.slice(0, -1)}-gzip"` : body.etag;
  reply.header('vary', 'Accept-Encoding').header('etag', etag);
  if (matches(req.headers['if-none-match'], [body.etag, `${body.etag.slice(0, -1)}-gzip"`])) return reply.code(304).send();
  reply.code(200).type('application/json; charset=utf-8');
  if (!gzipped) return reply.send(body.json);
  body.gzip ??= gzipAsync(body.json, { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY }).catch((e: unknown) => {
    body.gzip = undefined; // not kept: the next request tries again
    throw e;
  });
  return reply.header('content-encoding', 'gzip').send(await body.gzip);
}
