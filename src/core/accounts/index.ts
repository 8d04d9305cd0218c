// The accounts module: accounts and their subscriptions as the caller may see them.
// Offers: Accounts. Needs: the store, the clock, the authorizer.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createAccounts, flagsOf, subscriptionView } from './accounts.ts';
export type { Accounts, AccountFlags, AccountView, SubscriptionPatch, SubscriptionUsage, SubscriptionView } from './accounts.ts';
export { accountNotices, MAIL_NOTICE_PERMISSION } from './notices.ts';
export type { AccountNotice, MailDelivery } from './notices.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { accountsModule } from './module.ts';
