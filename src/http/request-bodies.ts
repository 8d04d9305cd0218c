// How request bodies are read (docs/security.md "Request fidelity"):
// - JSON text must be UTF-8 (RFC 8259 §8.1): undecodable bytes answer 400 instead of
//   reaching the core as U+FFFD; __proto__ and constructor keys are refused.
// - An empty body sent with a JSON content type is no body (fetch and curl samples send
//   `Content-Type: application/json` on DELETE): a route whose body is optional runs, one
//   that needs a body answers 400 naming it, an unknown route its 404.
// - Only the HTML forms and the OAuth endpoints read form bodies (formBodies); elsewhere a
//   form or text/plain body answers 415 unsupported-media-type naming the expected type.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import formbody from '@fastify/formbody';
import { invalidInput } from '../core/http-face.ts';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The root's parsers: JSON only (Fastify's text/plain parser removed). */
export function jsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(JSON_TYPE);
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0 || req.is404) return done(null, undefined);
    if (!isUtf8(bytes)) return done(invalidInput('The body is not valid UTF-8'), undefined);
    return parseJson(req, bytes.toString('utf8'), done);
  });
}

/** Form bodies, for the plugin (context) it is registered in: the OAuth endpoints and HTML forms. */
export async function formBodies(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
}

/** The media types the request's route reads, for a 415's message. */
export function acceptedMediaTypes(req: FastifyRequest): string[] {
  return [JSON_TYPE, FORM_TYPE].filter((t) => req.server.hasContentTypeParser(t));
}

/** For a route whose whole body is optional: no body means `{}` (e.g. connect export). */
export const absentBodyIsEmpty: preValidationHookHandler = (req, _reply, done) => {
  req.body ??= {};
  done();
};
