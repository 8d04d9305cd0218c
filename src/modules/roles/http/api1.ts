// API 1: the roles of an account, the roles module, over the same use cases as API 2.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Roles } from '../index.ts';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import * as S from '../../../http/api1/schemas.ts';
import { api1Role } from './presenters.ts';

export function roleRoutes(root: FastifyInstance, core: { roles: Roles }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };

  app.get('/accounts/:accountId/roles', {
    schema: { summary: 'List roles', operationId: 'listRoles', tags: ['roles'], params: S.AccountParams, response: { 200: Type.Array(S.Role), ...errors } },
  }, async (req) => (await core.roles.listRoles(actor(req), ref('account', req.params.accountId))).map(api1Role));

  app.get('/accounts/:accountId/roles/:roleId', {
    schema: { summary: 'Get role', operationId: 'getRole', tags: ['roles'], params: S.withParams('roleId'), response: { 200: S.Role, ...errors } },
  }, async (req) => api1Role(await core.roles.getRole(actor(req), ref('account', req.params.accountId), ref('role', req.params.roleId))));
}
