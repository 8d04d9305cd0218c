// API 2 (under /api/2): RFC 9457 errors, URN ids.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Services } from '../../services.ts';
import { requireAuthentication } from '../auth.ts';
import { ROUTE_MODULES } from '../route-modules.ts';

export const api2Routes =
  (core: Services): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    requireAuthentication(app, core, { rateLimited: true });

    // Each module's routes of this API (src/http/route-modules.ts).
    for (const m of ROUTE_MODULES) m.api2?.(app, core);
  };
