// GET /healthz (no auth): 200 when the database (and storage) answer, 503 otherwise.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Core } from '../compose.ts';

export const healthRoutes =
  (core: Core): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          hide: true,
          response: {
            200: Type.Object({ status: Type.Literal('ok'), version: Type.String() }),
            503: Type.Object({ status: Type.Literal('unavailable'), version: Type.String() }),
          },
        },
      },
      async (_req, reply) => {
        const ok = await core.health();
        return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', version: core.version } as never);
      },
    );
  };
