// API 1: accounts and the people of an account, over the same use cases as API 2.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { actorOf } from '../auth.ts';
import { api1RefParser as ref } from '../refs.ts';
import { api1 } from './presenters.ts';
import * as S from './schemas.ts';

export function accountRoutes(root: FastifyInstance, core: Core): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };

  app.get('/accounts', {
    schema: { summary: 'List accounts', operationId: 'listAccounts', tags: ['accounts'], response: { 200: Type.Array(S.Account), ...errors } },
  }, async (req) => (await core.accounts.listAccounts(actor(req))).map(api1.account));

  app.get('/accounts/:accountId', {
    schema: { summary: 'Get account', operationId: 'getAccount', tags: ['accounts'], params: S.AccountParams, response: { 200: S.Account, ...errors } },
  }, async (req) => api1.account(await core.accounts.getAccount(actor(req), ref('account', req.params.accountId))));

  app.get('/accounts/:accountId/subscriptions', {
    schema: { summary: 'List subscriptions', operationId: 'listSubscriptions', tags: ['subscriptions'], params: S.AccountParams, response: { 200: Type.Array(S.Subscription), ...errors } },
  }, async (req) => (await core.accounts.listSubscriptions(actor(req), ref('account', req.params.accountId))).map(api1.subscription));

  app.get('/accounts/:accountId/roles', {
    schema: { summary: 'List roles', operationId: 'listRoles', tags: ['roles'], params: S.AccountParams, response: { 200: Type.Array(S.Role), ...errors } },
  }, async (req) => (await core.roles.listRoles(actor(req), ref('account', req.params.accountId))).map(api1.role));

  app.get('/accounts/:accountId/roles/:roleId', {
    schema: { summary: 'Get role', operationId: 'getRole', tags: ['roles'], params: S.withParams('roleId'), response: { 200: S.Role, ...errors } },
  }, async (req) => api1.role(await core.roles.getRole(actor(req), ref('account', req.params.accountId), ref('role', req.params.roleId))));

  app.get('/accounts/:accountId/groups', {
    schema: { summary: 'List groups', operationId: 'listGroups', tags: ['groups'], params: S.AccountParams, response: { 200: Type.Array(S.Group), ...errors } },
  }, async (req) => (await core.groups.listGroups(actor(req), ref('account', req.params.accountId))).map(api1.group));

  app.get('/accounts/:accountId/groups/:groupId', {
    schema: { summary: 'Get group', operationId: 'getGroup', tags: ['groups'], params: S.withParams('groupId'), response: { 200: S.Group, ...errors } },
  }, async (req) => api1.group(await core.groups.getGroup(actor(req), ref('account', req.params.accountId), ref('group', req.params.groupId))));

  app.get('/accounts/:accountId/users', {
    schema: { summary: 'List users', operationId: 'listUsers', tags: ['users'], params: S.AccountParams, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.accountUsers.listUsers(actor(req), ref('account', req.params.accountId))).map(api1.user));

  app.get('/accounts/:accountId/users/:userId', {
    schema: { summary: 'Get user', operationId: 'getUser', tags: ['users'], params: S.withParams('userId'), response: { 200: S.User, ...errors } },
  }, async (req) => api1.user(await core.accountUsers.getUser(actor(req), ref('account', req.params.accountId), ref('user', req.params.userId))));
}
