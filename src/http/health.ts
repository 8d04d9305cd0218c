// Probes, no auth (docs/operations.md):
// - GET /healthz: 200 when the database (and storage) answer, 503 otherwise (kept as it was);
// - GET /livez: the process answers (restart it when this fails);
// - GET /readyz: 200 when it should get traffic: database and storage reachable and not
//   shutting down; 503 while draining after SIGTERM, and while the LISTEN connection
//   (PostgreSQL) is being replaced (listenerProbe).
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Core } from '../compose.ts';

const Probe = {
  200: Type.Object({ status: Type.Literal('ok'), version: Type.String() }),
  503: Type.Object({
    status: Type.Union([Type.Literal('unavailable'), Type.Literal('draining')]), version: Type.String(),
    listener: Type.Optional(Type.String()),
  }),
};

/**
 * The LISTEN connection's part of readiness: a node that does not hear other nodes'
 * changes (its connection lost or silent, being replaced) may answer from stale caches, so
 * it takes no traffic until it listens again (every cache is dropped then). Null: ready as
 * far as the listener goes (listening, or the embedded database, which has none).
 */
export function listenerProbe(core: Pick<Core, 'eventsListener'>): { status: 'unavailable'; listener: string } | null {
  const listener = core.eventsListener();
  return listener && listener.state !== 'listening' ? { status: 'unavailable', listener: listener.state } : null;
}

export const healthRoutes =
  (core: Core): FastifyPluginAsync =>
  async (app) => {
    app.get('/healthz', { schema: { hide: true, response: Probe } }, async (_req, reply) => {
      const ok = await core.health();
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', version: core.version } as never);
    });
    app.get('/livez', { schema: { hide: true, response: { 200: Probe[200] } } }, async () => ({ status: 'ok' as const, version: core.version }));
    app.get('/readyz', { schema: { hide: true, response: Probe } }, async (_req, reply) => {
      if (core.isDraining()) return reply.code(503).send({ status: 'draining', version: core.version } as never);
      const deaf = listenerProbe(core);
      if (deaf) return reply.code(503).send({ ...deaf, version: core.version } as never);
      const ok = await core.ready();
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', version: core.version } as never);
    });
  };
