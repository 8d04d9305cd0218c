// The accounts module's contract (src/modules/contract.ts): accounts and their subscriptions
// as the caller may see them, the account's notices, its repositories (accounts with their
// members' account roles, subscriptions), the routes of both APIs, their operation docs, its
// event (with the caches it makes stale) and error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { TagsRepos } from '../tags/index.ts';
import { createAccounts, type Accounts } from './core/accounts.ts';
import type { MailDelivery } from './core/notices.ts';
import type { AccountsRepos } from './core/ports.ts';
import type { AccountEventType } from './core/events.ts';
import { ACCOUNT_ERROR_CODES } from './core/errors.ts';
import { accountsRepo } from './postgres/accounts-repo.ts';
import { subscriptionsRepo } from './postgres/subscriptions-repo.ts';
import { accountRoutes as api1Routes } from './http/api1.ts';
import { accountRoutes as api2Routes } from './http/api2.ts';
import { ACCOUNT_API1_OPERATIONS, ACCOUNT_API2_OPERATIONS } from './http/operations.ts';

export interface AccountsNeeds {
  /** The tags module's repository too: a subscription's usage counts its live tags. */
  store: Store<Repos & FilesRepos & AccountsRepos & TagsRepos>;
  clock: Clock;
  authorizer: Authorizer;
  config: { storageQuotaBytes: number; mail: { delivery: MailDelivery } };
}

const { account } = invalidationRules;

export const accountsModule = defineModule<AccountsNeeds, { accounts: Accounts }, AccountsRepos, AccountEventType, keyof typeof ACCOUNT_ERROR_CODES>({
  name: 'accounts',
  feature: {
    name: 'accounts',
    create: ({ store, clock, authorizer, config }) => ({
      offers: { accounts: createAccounts({ store, clock, authorizer, storageQuotaBytes: config.storageQuotaBytes, mailDelivery: config.mail.delivery }) },
    }),
  },
  repositories: { accounts: accountsRepo, subscriptions: subscriptionsRepo },
  routes: { api1: api1Routes, api2: api2Routes },
  operations: { api1: ACCOUNT_API1_OPERATIONS, api2: ACCOUNT_API2_OPERATIONS },
  invalidation: {
    // A list shows a project's subscriptionId only, never the subscription's fields.
    'subscription.updated': account,
  },
  errorCodes: ACCOUNT_ERROR_CODES,
});
