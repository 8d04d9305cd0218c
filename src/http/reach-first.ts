// Routes that accept large bodies (tag writes, up to 96 MiB) check the caller's reach on
// the path's account and project before the body is read: authentication already ran
// (onRequest, http/auth.ts), this preParsing step asks the core whether the caller may
// get at the project. A refusal answers at once (401/403/404 in the surface's format)
// and closes the connection instead of draining the unread body.
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { Reach } from '../modules/projects/index.ts';
import type { EntityRef } from '../core/http-face.ts';
import { actorOf } from './auth.ts';

type Params = Record<string, string>;

export function reachFirst(core: { reach: Reach }, refsOf: (params: Params) => readonly [EntityRef, EntityRef]) {
  return beforeBody((req) => core.reach.project(actorOf(req), ...refsOf(req.params as Params)));
}

/**
 * A preParsing step running `check` (a use case's "may the caller do this here", which
 * throws the refusal) before the body is read; a refusal answers at once and closes the
 * connection instead of draining the unread body.
 */
export function beforeBody(check: (req: FastifyRequest) => Promise<unknown>) {
  const refuse = (reply: FastifyReply, e: unknown, done: (err: Error | null) => void) => {
    reply.header('connection', 'close');
    done(e as Error);
  };
  return (req: FastifyRequest, reply: FastifyReply, payload: RequestPayload, done: (err: Error | null, payload?: RequestPayload) => void) => {
    try {
      check(req).then(() => done(null, payload), (e: unknown) => refuse(reply, e, done));
    } catch (e) {
      refuse(reply, e, done);
    }
  };
}
