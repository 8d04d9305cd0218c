// API 2 extension (ours, not the vendor's): the caller's own sessions, the oauth module's
// revocation (docs/security.md "Evicting every session").
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import type { Revocation } from '../core/revocation.ts';

export function sessionRoutes(root: FastifyInstance, core: KitCore & { revocation: Revocation }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { actor, errors, tag } = api2Kit(core);

  app.post('/me/sign-out-everywhere', {
    schema: { summary: 'Sign out everywhere: end every session of the caller', operationId: 'signOutEverywhere', ...tag('Session'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.revocation.signOutEverywhere(actor(req).userId);
    return reply.code(204).send(null);
  });
}
