// API 2: the custom roles of an account, the roles module (spec "API 2 operations", CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Roles } from '../index.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { api2RolePresenter } from './presenters.ts';

export function roleRoutes(root: FastifyInstance, core: { roles: Roles; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, actor, errors, tag } = api2Naming(core.config.urnNamespace);
  const p = { role: api2RolePresenter(urn) };

  // Roles
  app.get('/accounts/:accountRef/roles', {
    schema: { summary: 'Roles of an account', operationId: 'getRoles', ...tag('Role'), params: S.AccountParams, response: { 200: Type.Array(S.Role), ...errors } },
  }, async (req) => (await core.roles.listRoles(actor(req), ref('account', req.params.accountRef))).map(p.role));

  app.post('/accounts/:accountRef/roles', {
    schema: { summary: 'Create a role', operationId: 'createRole', ...tag('Role'), params: S.AccountParams, body: S.RoleCreate, response: { 201: S.Role, ...errors } },
  }, async (req, reply) => {
    const role = await core.roles.createRole(actor(req), ref('account', req.params.accountRef), req.body);
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/roles/${role.id}`).send(p.role(role));
  });

  app.get('/accounts/:accountRef/roles/:roleRef', {
    schema: { summary: 'A role', operationId: 'getRole', ...tag('Role'), params: S.withParams('roleRef'), response: { 200: S.Role, ...errors } },
  }, async (req) => p.role(await core.roles.getRole(actor(req), ref('account', req.params.accountRef), ref('role', req.params.roleRef))));

  app.put('/accounts/:accountRef/roles/:roleRef', {
    schema: { summary: 'Overwrite a role (a missing field is erased)', operationId: 'updateRole', ...tag('Role'), params: S.withParams('roleRef'), body: S.RoleUpdate, response: { 200: S.Role, ...errors } },
  }, async (req) =>
    p.role(await core.roles.updateRole(actor(req), ref('account', req.params.accountRef), ref('role', req.params.roleRef), req.body)));

  app.delete('/accounts/:accountRef/roles/:roleRef', {
    schema: { summary: 'Delete a role', operationId: 'deleteRole', ...tag('Role'), params: S.withParams('roleRef'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.roles.deleteRole(actor(req), ref('account', req.params.accountRef), ref('role', req.params.roleRef));
    return reply.code(204).send(null);
  });
}
