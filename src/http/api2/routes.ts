// API 2 (under /api/2): RFC 9457 errors, URN ids.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { requireAuthentication } from '../auth.ts';
import { PERMISSIONS } from '../../core/permissions/catalog.ts';
import { accountRoutes } from './accounts.ts';
import { projectRoutes } from './projects.ts';
import { fileRoutes } from './files.ts';
import { tagRoutes } from './tags.ts';
import { webhookRoutes } from './webhooks.ts';

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

    accountRoutes(app, core);
    projectRoutes(app, core);
    fileRoutes(app, core);
    tagRoutes(app, core);
    webhookRoutes(app, core);
  };
