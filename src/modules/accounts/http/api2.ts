// API 2: accounts and their subscriptions, the accounts module (spec "API 2 operations", CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { AccountParams, withParams } from '../../../http/api2/schemas.ts';
import type { Accounts } from '../core/accounts.ts';
import { accountPresenters } from './presenters.ts';
import * as S from './schemas.ts';

export function accountRoutes(root: FastifyInstance, core: KitCore & { accounts: Accounts }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, urn, errors, tag } = api2Kit(core);
  const p = accountPresenters(core);

  // Accounts
  app.get('/accounts', {
    schema: { summary: "The caller's accounts", operationId: 'getAccounts', ...tag('Account'), response: { 200: Type.Array(S.Account), ...errors } },
  }, async (req) => (await core.accounts.listAccounts(actor(req))).map(p.account));

  app.get('/accounts/:accountRef', {
    schema: { summary: 'An account', operationId: 'getAccount', ...tag('Account'), params: AccountParams, response: { 200: S.Account, ...errors } },
  }, async (req) => p.account(await core.accounts.getAccount(actor(req), ref('account', req.params.accountRef))));

  // Our extension (docs/decisions.md "The first hour"): what the deployment's settings mean
  // for the account's people (no e-mail without SMTP), each shown by the console as a banner.
  app.get('/accounts/:accountRef/notices', {
    schema: {
      summary: 'Notices about the service for this account (ours): e.g. that no e-mail is sent', operationId: 'getAccountNotices', ...tag('Account'),
      params: AccountParams, response: { 200: Type.Array(S.AccountNotice), ...errors },
    },
  }, async (req) => core.accounts.notices(actor(req), ref('account', req.params.accountRef)));

  // Subscriptions
  app.get('/accounts/:accountRef/subscriptions', {
    schema: { summary: 'Subscriptions of an account', operationId: 'getSubscriptions', ...tag('Subscription'), params: AccountParams, response: { 200: Type.Array(S.Subscription), ...errors } },
  }, async (req) => (await core.accounts.listSubscriptions(actor(req), ref('account', req.params.accountRef))).map(p.subscription));

  app.get('/accounts/:accountRef/subscriptions/:subscriptionRef', {
    schema: { summary: 'A subscription', operationId: 'getSubscription', ...tag('Subscription'), params: withParams('subscriptionRef'), response: { 200: S.Subscription, ...errors } },
  }, async (req) =>
    p.subscription(
      await core.accounts.getSubscription(actor(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef)),
    ));

  // Our extension (docs/decisions.md "Subscription usage"): what the capacities hold now.
  app.get('/accounts/:accountRef/subscriptions/:subscriptionRef/usage', {
    schema: {
      summary: 'What a subscription uses of its capacities and storage quota', operationId: 'getSubscriptionUsage', ...tag('Subscription'),
      params: withParams('subscriptionRef'), response: { 200: S.SubscriptionUsage, ...errors },
    },
  }, async (req) => {
    const u = await core.accounts.subscriptionUsage(actor(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef));
    return {
      subscriptionId: urn('subscription', u.subscription.id),
      scans: { used: u.scans, allowed: u.subscription.scanCapacity },
      geoImages: { used: u.geoImages, allowed: u.subscription.geoImageCapacity },
      tags: { used: u.tags, allowed: u.subscription.tagCapacity },
      storageBytes: { used: u.bytes, allowed: u.quotaBytes },
    };
  });

  app.patch('/accounts/:accountRef/subscriptions/:subscriptionRef', {
    schema: { summary: 'Rename a subscription, or (account owner) set inviteAccountOwnerInNewProjects', operationId: 'updateSubscription', ...tag('Subscription'), params: withParams('subscriptionRef'), body: S.SubscriptionPatch, response: { 200: S.Subscription, ...errors } },
  }, async (req) =>
    p.subscription(
      await core.accounts.updateSubscription(actor(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef), req.body),
    ));
}
