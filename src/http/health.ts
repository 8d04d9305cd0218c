// Probes, no auth (docs/operations.md):
// - GET /healthz: 200 when the database (and storage) answer, 503 otherwise (kept as it was);
// - GET /livez: the process answers (restart it when this fails);
// - GET /readyz: 200 when it should get traffic: database and storage answering within
//   1 s, no transaction stuck past its deadline, the LISTEN connection (PostgreSQL) not
//   being replaced, not shutting down; 503 with the reason otherwise (src/probes.ts).
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../services.ts';

const Probe = {
  200: Type.Object({ status: Type.Literal('ok'), version: Type.String() }),
  503: Type.Object({
    status: Type.Union([Type.Literal('unavailable'), Type.Literal('draining')]),
    version: Type.String(),
    reason: Type.Optional(Type.String()),
    listener: Type.Optional(Type.String()),
  }),
};

export const healthRoutes =
  (core: Pick<Services, 'health' | 'ready' | 'version'>): FastifyPluginAsync =>
  async (app) => {
    app.get('/healthz', { schema: { hide: true, response: Probe } }, async (_req, reply) => {
      const ok = await core.health();
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', version: core.version } as never);
    });
    app.get('/livez', { schema: { hide: true, response: { 200: Probe[200] } } }, async () => ({ status: 'ok' as const, version: core.version }));
    // Within 2 s whatever the database does (src/probes.ts), with the reason when not ready.
    app.get('/readyz', { schema: { hide: true, response: Probe } }, async (_req, reply) => {
      const r = await core.ready();
      return reply.code(r.status === 'ok' ? 200 : 503).send({ ...r, version: core.version } as never);
    });
  };
