// The local-disk store's signed URLs (docs/storage.md): PUT receives an upload (streamed,
// no body limit), GET and HEAD serve an object with Range support. Registered only when
// the store is the local disk; failures are RFC 9457 problem+json like every surface.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { KernelConfig } from '../../../kernel-config.ts';
import type { ObjectStore } from '../../../core/ports/object-store.ts';
import { DomainError } from '../../../core/errors.ts';
import { BLOB_ROUTE_PREFIX, LocalDiskStore, contentDisposition, type DownloadTarget } from '../../../adapters/storage/local-disk.ts';
import { renderFailure, toFailure } from '../../../http/errors.ts';
import { allowConsoleOrigin, blobPreflight } from './blob-cors.ts';
import { liftBodyDeadline } from '../../../http/timeouts.ts';

/** The key and query of a /_blobs/… URL, decoded; null when undecodable. */
function parseUrl(url: string): { key: string; query: Record<string, string | undefined> } | null {
  const q = url.indexOf('?');
  const rawPath = (q < 0 ? url : url.slice(0, q)).slice(BLOB_ROUTE_PREFIX.length);
  let key: string;
  try {
    key = rawPath.split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
  const query: Record<string, string | undefined> = {};
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
      if (k in query) return null; // a repeated parameter is never ours
      query[k] = v;
    }
  }
  return { key, query };
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

/**
 * A refusal closes its connection (docs/security.md "Slow clients"): the rest of a refused
 * body is never read, and a client refused here (a bad signature, an unknown key) gets no
 * kept-alive connection to try again on.
 */
function fail(reply: FastifyReply, err: unknown) {
  const f = toFailure(err);
  if (f.status >= 500) reply.log.error({ err }, 'blob request failed');
  reply.header('connection', 'close');
  return renderFailure('other', f, reply);
}

/** How long an upload may receive nothing before its connection is closed. */
export const UPLOAD_IDLE_MS = 120_000;

const badUrl = () => new DomainError('forbidden', 'signature-invalid', 'The URL signature does not match');

/** A single byte range (RFC 9110 §14.1.2); null: serve the whole object; 'unsatisfiable': 416. */
export function parseRange(value: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!value) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // other units, lists: ignored (RFC 9110 allows it)
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null; // invalid: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * On every /_blobs response, refusals included (docs/security.md "Blobs"): the browser
 * takes the signed type as is (no sniffing), and a document opened from here runs no
 * script, loads nothing and gets an opaque origin (no cookie, no storage of the service).
 */
export const BLOB_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
};

function serve(req: FastifyRequest, reply: FastifyReply, t: DownloadTarget) {
  const etag = `"${t.md5Hex}"`;
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', etag);
  reply.header('cache-control', t.cacheControl);
  reply.header('content-type', t.contentType);
  if (!t.inline) reply.header('content-disposition', contentDisposition(t.fileName));
  const ifNoneMatch = header(req, 'if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((v) => v.trim() === etag || v.trim() === '*')) {
    return reply.code(304).send();
  }
  // If-Range with another ETag: the object changed, send all of it.
  const ifRange = header(req, 'if-range');
  const range = ifRange && ifRange !== etag ? null : parseRange(header(req, 'range'), t.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${t.size}`);
    return renderFailure('other', { status: 416, code: 'range-not-satisfiable', message: 'The range is outside the object' }, reply);
  }
  const start = range ? range.start : 0;
  const end = range ? range.end : t.size - 1;
  const length = t.size === 0 ? 0 : end - start + 1;
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${start}-${end}/${t.size}`);
  } else {
    reply.header('content-md5', Buffer.from(t.md5Hex, 'hex').toString('base64'));
  }
  reply.header('content-length', String(length));
  if (req.method === 'HEAD' || length === 0) return reply.send();
  return reply.send(fs.createReadStream(t.path, { start, end, highWaterMark: 1024 * 1024 }));
}

export const blobRoutes =
  (core: { config: Pick<KernelConfig, 'publicUrl'>; objectStore: ObjectStore }): FastifyPluginAsync =>
  async (app) => {
    const store = core.objectStore;
    if (!(store instanceof LocalDiskStore)) return;

    const consoleOrigin = new URL(core.config.publicUrl).origin;
    app.addHook('onRequest', async (req, reply) => {
      reply.headers(BLOB_SECURITY_HEADERS);
      allowConsoleOrigin(req, reply, consoleOrigin);
    });
    // The console on PUBLIC_URL calling a separate blob origin (BLOB_PUBLIC_URL): blob-cors.ts.
    app.options(`${BLOB_ROUTE_PREFIX}*`, { schema: { hide: true } }, (req, reply) => blobPreflight(req, reply, consoleOrigin));

    // The PUT body is the request stream, read by the handler: no parser, no body limit. The
    // parser hands on the stream the preParsing hooks left (the request itself, or the
    // sandbox's paced body: docs/sandbox.md "slow-request-body") unread.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

    app.put(`${BLOB_ROUTE_PREFIX}*`, { schema: { hide: true } }, async (req, reply) => {
      const parsed = parseUrl(req.url);
      const body = req.body instanceof Readable ? req.body : req.raw; // no body: Fastify ran no parser
      // A whole upload, or one part of a multipart upload (`upload` and `part` in the query).
      let receive: () => Promise<{ md5Hex: string }>;
      try {
        if (!parsed) throw badUrl();
        const request = {
          key: parsed.key,
          query: parsed.query,
          contentLength: header(req, 'content-length'),
          contentMd5: header(req, 'content-md5'),
          cacheControl: header(req, 'cache-control'),
          chunked: header(req, 'transfer-encoding') !== undefined,
        };
        if (parsed.query.upload !== undefined) {
          const part = await store.verifyPart(request);
          receive = () => store.receivePart(part, body);
        } else {
          const whole = await store.verifyUpload(request);
          receive = () => store.receive(whole, body);
        }
      } catch (e) {
        return fail(reply, e);
      }
      // Verified: the body may take longer than BODY_TIMEOUT (a large upload), so the
      // deadline gives way to the upload idle rule.
      liftBodyDeadline(req.raw);
      // A client that stops sending for UPLOAD_IDLE_MS loses its connection (and its
      // temporary file): no upload hangs for ever holding a socket and a half-written file.
      const socket = req.raw.socket;
      const onIdle = () => socket.destroy();
      socket.setTimeout(UPLOAD_IDLE_MS);
      socket.on('timeout', onIdle);
      try {
        const info = await receive();
        reply.header('etag', `"${info.md5Hex}"`);
        reply.header('content-md5', Buffer.from(info.md5Hex, 'hex').toString('base64'));
        return reply.code(201).send();
      } catch (e) {
        if (req.raw.socket?.destroyed) {
          reply.hijack(); // the client is gone: nobody to answer
          return;
        }
        return fail(reply, e);
      } finally {
        socket.off('timeout', onIdle);
        socket.setTimeout(0);
      }
    });

    app.route({
      method: ['GET', 'HEAD'],
      url: `${BLOB_ROUTE_PREFIX}*`,
      schema: { hide: true },
      handler: async (req, reply) => {
        try {
          const parsed = parseUrl(req.url);
          if (!parsed) throw badUrl();
          const target = await store.verifyDownload(parsed.key, parsed.query);
          return serve(req, reply, target);
        } catch (e) {
          return fail(reply, e);
        }
      },
    });
  };
