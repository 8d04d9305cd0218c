// API 1: the groups of an account, the groups module, over the same use cases as API 2.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Groups } from '../index.ts';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import * as S from '../../../http/api1/schemas.ts';
import { api1Group } from './presenters.ts';

export function groupRoutes(root: FastifyInstance, core: { groups: Groups }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };

  app.get('/accounts/:accountId/groups', {
    schema: { summary: 'List groups', operationId: 'listGroups', tags: ['groups'], params: S.AccountParams, response: { 200: Type.Array(S.Group), ...errors } },
  }, async (req) => (await core.groups.listGroups(actor(req), ref('account', req.params.accountId))).map(api1Group));

  app.get('/accounts/:accountId/groups/:groupId', {
    schema: { summary: 'Get group', operationId: 'getGroup', tags: ['groups'], params: S.withParams('groupId'), response: { 200: S.Group, ...errors } },
  }, async (req) => api1Group(await core.groups.getGroup(actor(req), ref('account', req.params.accountId), ref('group', req.params.groupId))));
}
