// API 2: the values lists (vendor `listPermissions`, `listSpatialReferences`). The spatial
// references (~8,000, ~700 kB of JSON) are serialised once and gzipped once (encoded-bodies.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Problem } from '../../../http/api2/schemas.ts';
import { encodedBodies, sendEncoded } from '../../../http/encoded-bodies.ts';
import type { SpatialReferenceValue, ValuesLists } from '../core/values.ts';

const PermissionSchema = Type.Object({ name: Type.String() });
const SpatialReferenceSchema = Type.Object({
  authName: Type.String(),
  code: Type.String(),
  deprecated: Type.Boolean(),
  name: Type.String(),
  type: Type.String(),
});
const errors = { '4xx': Problem };
const beta = (tag: string) => ({ tags: ['BETA', tag] });

export function valuesRoutes(root: FastifyInstance, use: { valuesLists: ValuesLists }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { valuesLists } = use;
  const spatialBodies = encodedBodies<readonly SpatialReferenceValue[]>();

  app.get('/values/permissions', {
    schema: { summary: 'List permissions', operationId: 'listPermissions', ...beta('Permissions'), response: { 200: Type.Array(PermissionSchema), ...errors } },
  }, async () => [...valuesLists.permissions()]);

  app.get('/values/spatial-references', {
    schema: { summary: 'List Spatial References', operationId: 'listSpatialReferences', ...beta('Project'), response: { 200: Type.Array(SpatialReferenceSchema), ...errors } },
  }, async (req, reply) => {
    const list = valuesLists.spatialReferences();
    return sendEncoded(req, reply, spatialBodies.of(list, () => reply.serialize(list) as string));
  });
}
