// The accounts module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { TagsRepos } from '../../modules/tags/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import { createAccounts, type Accounts } from './accounts.ts';
import type { MailDelivery } from './notices.ts';

export interface AccountsNeeds {
  /** The tags module's repository too: a subscription's usage counts its live tags. */
  store: Store<Repos & TagsRepos>;
  clock: Clock;
  authorizer: Authorizer;
  config: { storageQuotaBytes: number; mail: { delivery: MailDelivery } };
}

export const accountsModule: FeatureModule<AccountsNeeds, { accounts: Accounts }> = {
  name: 'accounts',
  create: ({ store, clock, authorizer, config }) => ({
    offers: { accounts: createAccounts({ store, clock, authorizer, storageQuotaBytes: config.storageQuotaBytes, mailDelivery: config.mail.delivery }) },
  }),
};
