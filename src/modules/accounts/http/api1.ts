// API 1: accounts and their subscriptions, the accounts module, over the same use cases as API 2.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import { AccountParams, Api1Error } from '../../../http/api1/schemas.ts';
import type { Accounts } from '../core/accounts.ts';
import { api1AccountPresenters as api1 } from './presenters.ts';
import * as S from './api1-schemas.ts';

export function accountRoutes(root: FastifyInstance, core: { accounts: Accounts }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': Api1Error };

  app.get('/accounts', {
    schema: { summary: 'List accounts', operationId: 'listAccounts', tags: ['accounts'], response: { 200: Type.Array(S.Account), ...errors } },
  }, async (req) => (await core.accounts.listAccounts(actor(req))).map(api1.account));

  app.get('/accounts/:accountId', {
    schema: { summary: 'Get account', operationId: 'getAccount', tags: ['accounts'], params: AccountParams, response: { 200: S.Account, ...errors } },
  }, async (req) => api1.account(await core.accounts.getAccount(actor(req), ref('account', req.params.accountId))));

  app.get('/accounts/:accountId/subscriptions', {
    schema: { summary: 'List subscriptions', operationId: 'listSubscriptions', tags: ['subscriptions'], params: AccountParams, response: { 200: Type.Array(S.Subscription), ...errors } },
  }, async (req) => (await core.accounts.listSubscriptions(actor(req), ref('account', req.params.accountId))).map(api1.subscription));
}
