// CORS of the local-disk store's signed URLs (docs/security.md "Blobs"): with
// BLOB_PUBLIC_URL the /_blobs routes answer on another origin than the console's, so the
// console's uploads (PUT with Content-MD5, Cache-Control, x-ms-blob-type) and its scan
// preview (GET with Range) are cross-origin requests. Only the console's origin,
// PUBLIC_URL's, is allowed, and without credentials: a signed URL needs no cookie.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request headers the console's blob calls send (uploads, ranged reads). */
export const BLOB_CORS_REQUEST_HEADERS = 'content-md5, cache-control, x-ms-blob-type, content-type, range, if-range';
/** The answer headers the console reads (the ranged reads' Content-Range, the upload's ETag). */
const EXPOSED = 'content-range, content-length, accept-ranges, etag, content-md5';

/** Adds the CORS answer headers when the request comes from `consoleOrigin`; answers whether it did. */
export function allowConsoleOrigin(req: FastifyRequest, reply: FastifyReply, consoleOrigin: string): boolean {
  reply.header('vary', 'origin');
  if (req.headers.origin !== consoleOrigin) return false;
  reply.header('access-control-allow-origin', consoleOrigin);
  reply.header('access-control-expose-headers', EXPOSED);
  return true;
}

/** The preflight of a cross-origin blob call: 204 with what is allowed for the console's origin, 403 otherwise. */
export function blobPreflight(req: FastifyRequest, reply: FastifyReply, consoleOrigin: string) {
  if (!allowConsoleOrigin(req, reply, consoleOrigin)) return reply.code(403).send();
  return reply
    .header('access-control-allow-methods', 'GET, HEAD, PUT')
    .header('access-control-allow-headers', BLOB_CORS_REQUEST_HEADERS)
    .header('access-control-max-age', '600')
    .code(204)
    .send();
}
