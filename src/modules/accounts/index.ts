// The accounts module's public face (spec "Account", "Subscription"): accounts and their
// subscriptions as the caller may see them, and the account's notices. What other modules
// read of it is its repositories, in their own use cases (AccountsRepos: projects, users,
// work zones, tags, members, groups, roles, SSO, SCIM, webhooks, files' capacities and the
// seeder read or write accounts, their members and subscriptions); its use cases (Accounts)
// reach the HTTP face through its contract (module.ts). This face exports only files that
// import nothing back: the kernel's modules that read its repositories import this face, and
// a re-export of its contract here would close an import loop (npm run lint:cycles).
export type { AccountMemberRecord, AccountsRepo, AccountsRepos, SubscriptionRecord, SubscriptionsRepo } from './core/ports.ts';
export type { AccountEventType } from './core/events.ts';
