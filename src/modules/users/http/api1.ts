// API 1: the users of an account, the users module, over the same use cases as API 2.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import { AccountParams, Api1Error, withParams } from '../../../http/api1/schemas.ts';
import type { AccountUsers } from '../core/account-users.ts';
import { api1User } from './presenters.ts';
import * as S from './api1-schemas.ts';

export function userRoutes(root: FastifyInstance, core: { accountUsers: AccountUsers }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': Api1Error };

  app.get('/accounts/:accountId/users', {
    schema: { summary: 'List users', operationId: 'listUsers', tags: ['users'], params: AccountParams, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.accountUsers.listUsers(actor(req), ref('account', req.params.accountId))).map(api1User));

  app.get('/accounts/:accountId/users/:userId', {
    schema: { summary: 'Get user', operationId: 'getUser', tags: ['users'], params: withParams('userId'), response: { 200: S.User, ...errors } },
  }, async (req) => api1User(await core.accountUsers.getUser(actor(req), ref('account', req.params.accountId), ref('user', req.params.userId))));
}
