// API 1 (under /api): {code, message} errors, API 1 ids.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.ts';
import { requireAuthentication } from '../auth.ts';
import { ROUTE_MODULES } from '../route-modules.ts';

export const api1Routes =
  (core: Services): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    requireAuthentication(app, core, { rateLimited: true });

    app.get(
      '/isLogged',
      {
        schema: {
          summary: 'Health check: answers 200 when the access token is recognised',
          operationId: 'isLogged',
          response: { 200: Type.Object({ success: Type.Literal(true) }) },
        },
      },
      () => ({ success: true as const }), // synchronous: no promise on the hottest route
    );

    // Each module's routes of this API (src/http/route-modules.ts).
    for (const m of ROUTE_MODULES) m.api1?.(app, core);
  };
