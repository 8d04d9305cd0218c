// API 2: the user groups of an account, the groups module (spec "API 2 operations", CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Groups } from '../index.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { api2GroupPresenter } from './presenters.ts';

export function groupRoutes(root: FastifyInstance, core: { groups: Groups; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, actor, errors, tag } = api2Naming(core.config.urnNamespace);
  const p = { group: api2GroupPresenter(urn) };

  // Groups
  app.get('/accounts/:accountRef/groups', {
    schema: { summary: 'Groups of an account', operationId: 'getGroups', ...tag('Group'), params: S.AccountParams, response: { 200: Type.Array(S.Group), ...errors } },
  }, async (req) => (await core.groups.listGroups(actor(req), ref('account', req.params.accountRef))).map(p.group));

  app.post('/accounts/:accountRef/groups', {
    schema: { summary: 'Create a group (409 when the name exists, case-insensitive)', operationId: 'createGroup', ...tag('Group'), params: S.AccountParams, body: S.GroupCreate, response: { 201: S.Group, ...errors } },
  }, async (req, reply) => {
    const g = await core.groups.createGroup(actor(req), ref('account', req.params.accountRef), req.body);
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/groups/${g.id}`).send(p.group(g));
  });

  app.get('/accounts/:accountRef/groups/:groupRef', {
    schema: { summary: 'A group', operationId: 'getGroup', ...tag('Group'), params: S.withParams('groupRef'), response: { 200: S.Group, ...errors } },
  }, async (req) => p.group(await core.groups.getGroup(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef))));

  app.put('/accounts/:accountRef/groups/:groupRef', {
    schema: { summary: 'Overwrite a group', operationId: 'updateGroup', ...tag('Group'), params: S.withParams('groupRef'), body: S.GroupUpdate, response: { 200: S.Group, ...errors } },
  }, async (req) =>
    p.group(await core.groups.updateGroup(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef), req.body)));

  app.delete('/accounts/:accountRef/groups/:groupRef', {
    schema: { summary: 'Delete a group', operationId: 'deleteGroup', ...tag('Group'), params: S.withParams('groupRef'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.groups.deleteGroup(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef));
    return reply.code(204).send(null);
  });

  app.post('/accounts/:accountRef/groups/:groupRef/members', {
    schema: { summary: 'Add users to a group', operationId: 'addUsersToGroup', ...tag('Group'), params: S.withParams('groupRef'), body: S.RefList, response: { 200: S.Group, ...errors } },
  }, async (req) =>
    p.group(
      await core.groups.addGroupMembers(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef), req.body.map((u) => ref('user', u))),
    ));

  app.delete('/accounts/:accountRef/groups/:groupRef/members', {
    schema: { summary: 'Remove users from a group', operationId: 'removeUsersFromGroup', ...tag('Group'), params: S.withParams('groupRef'), body: S.RefList, response: { 200: S.Group, ...errors } },
  }, async (req) =>
    p.group(
      await core.groups.removeGroupMembers(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef), req.body.map((u) => ref('user', u))),
    ));
}
