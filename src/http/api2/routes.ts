// API 2 (under /api/2): RFC 9457 errors, URN ids.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { requireAuthentication } from '../auth.ts';
import { ROUTE_MODULES } from '../route-modules.ts';
import { PERMISSIONS } from '../../core/permissions/catalog.ts';

export const api2Routes =
  (core: Core): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    requireAuthentication(app, core, { rateLimited: true });

    const permissionList = PERMISSIONS.map((name) => ({ name }));
    app.get(
      '/values/permissions',
      {
        schema: {
          summary: 'The permissions the service knows',
          operationId: 'getPermissions',
          tags: ['values'],
          response: { 200: Type.Array(Type.Object({ name: Type.String() })) },
        },
      },
      async () => permissionList,
    );

    // Each module's routes of this API (src/http/route-modules.ts).
    for (const m of ROUTE_MODULES) m.api2?.(app, core);
  };
