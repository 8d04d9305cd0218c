// API 1: the users of an account, the users module, over the same use cases as API 2.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.ts';
import { actorOf } from '../auth.ts';
import { api1RefParser as ref } from '../refs.ts';
import { api1 } from './presenters.ts';
import * as S from './schemas.ts';

export function userRoutes(root: FastifyInstance, core: Pick<Services, 'accountUsers'>): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };

  app.get('/accounts/:accountId/users', {
    schema: { summary: 'List users', operationId: 'listUsers', tags: ['users'], params: S.AccountParams, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.accountUsers.listUsers(actor(req), ref('account', req.params.accountId))).map(api1.user));

  app.get('/accounts/:accountId/users/:userId', {
    schema: { summary: 'Get user', operationId: 'getUser', tags: ['users'], params: S.withParams('userId'), response: { 200: S.User, ...errors } },
  }, async (req) => api1.user(await core.accountUsers.getUser(actor(req), ref('account', req.params.accountId), ref('user', req.params.userId))));
}
