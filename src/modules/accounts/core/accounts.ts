// Accounts and their subscriptions (spec "Account", "Subscription"): what the caller
// may see of them is decided here, so both API generations show the same thing.
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { findByRef } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { AccountRecord, Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { AccountsRepos, SubscriptionRecord } from './ports.ts';
import type { TagsRepos } from '../../tags/index.ts';
import { accountPermissions, type AccountFacts } from '../../../core/permissions/evaluate.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { condition } from '../../../core/permissions/refusal-conditions.ts';
import type { AnyPermission } from '../../../core/permissions/catalog.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { accountNotices, type AccountNotice, type MailDelivery } from './notices.ts';

export interface AccountFlags {
  isOwner: boolean;
  isAdmin: boolean;
  isManager: boolean;
  isProjectLister: boolean;
  /** Sees every project of the account (`account:projects:list`). */
  listsAllProjects: boolean;
}

/** A subscription as the caller may see it: `end` and the invite flag only when allowed. */
export type SubscriptionView = Omit<SubscriptionRecord, 'end' | 'inviteAccountOwnerInNewProjects'> & {
  end?: Date | null;
  inviteAccountOwnerInNewProjects?: boolean;
};

export interface AccountView {
  account: AccountRecord;
  flags: AccountFlags;
  subscriptions: SubscriptionView[];
}

export function flagsOf(facts: AccountFacts, perms: ReadonlySet<AnyPermission>): AccountFlags {
  return {
    isOwner: facts.isOwner,
    isAdmin: facts.roles.includes('administrator'),
    isManager: facts.roles.includes('projectManager'),
    isProjectLister: facts.roles.includes('projectLister'),
    listsAllProjects: perms.has('account:projects:list'),
  };
}

export function subscriptionView(s: SubscriptionRecord, scope: AccountScope): SubscriptionView {
  const { end, inviteAccountOwnerInNewProjects, ...rest } = s;
  const view: SubscriptionView = { ...rest };
  if (scope.permissions.has('account:subscriptions:read-sensitive-infos')) view.end = end;
  if (scope.facts.isOwner) view.inviteAccountOwnerInNewProjects = inviteAccountOwnerInNewProjects;
  return view;
}

export interface SubscriptionPatch {
  name?: string;
  inviteAccountOwnerInNewProjects?: boolean;
}

/**
 * What a subscription holds against its limits, counted as the checks count (docs/files.md
 * "Capacities"): scans and geo images registered plus live pending uploads, live tags, and
 * the bytes of every registered file and live pending upload against the storage quota.
 */
export interface SubscriptionUsage {
  subscription: SubscriptionRecord;
  scans: number;
  geoImages: number;
  tags: number;
  bytes: number;
  quotaBytes: number;
}

/** Accounts and their subscriptions, as the caller may see them. */
export interface Accounts {
  /** The caller's accounts (owner or member), each with what the caller may see. */
  listAccounts(actor: Actor): Promise<AccountView[]>;
  /** One account the caller belongs to, with his flags and the subscriptions he may see. */
  getAccount(actor: Actor, ref: EntityRef): Promise<AccountView>;
  /** The account's subscriptions, with the fields the caller may see. */
  listSubscriptions(actor: Actor, ref: EntityRef): Promise<SubscriptionView[]>;
  /** One subscription of the account, with the fields the caller may see. */
  getSubscription(actor: Actor, ref: EntityRef, subRef: EntityRef): Promise<SubscriptionView>;
  /** Ours: what a subscription uses of its capacities and the storage quota; `account:subscriptions:read`. */
  subscriptionUsage(actor: Actor, ref: EntityRef, subRef: EntityRef): Promise<SubscriptionUsage>;
  /** PATCH: the name needs `account:subscriptions:update-name`; the invite flag, the account owner. */
  updateSubscription(actor: Actor, ref: EntityRef, subRef: EntityRef, patch: SubscriptionPatch): Promise<SubscriptionView>;
  /** Ours: what the deployment's settings mean for this account's people, as far as the caller is concerned (notices.ts); a member's. */
  notices(actor: Actor, ref: EntityRef): Promise<AccountNotice[]>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const ACCOUNTS_STORE = storeUseOf<Repos & FilesRepos & AccountsRepos & TagsRepos>()({ reads: ['accounts', 'subscriptions', 'files', 'tags'], writes: ['events', 'subscriptions'] });

export function createAccounts(deps: {
  store: SliceOf<typeof ACCOUNTS_STORE, Repos & FilesRepos & AccountsRepos & TagsRepos>;
  clock: Clock;
  authorizer: Authorizer;
  /** STORAGE_QUOTA_BYTES: each subscription's storage quota, reported with its usage. */
  storageQuotaBytes: number;
  /** Where the service's mail goes (SMTP_URL, MAIL_TO_LOG), for the notices. */
  mailDelivery: MailDelivery;
}): Accounts {
  const { clock, authorizer } = deps;
  const store = sliceOf(deps.store, ACCOUNTS_STORE);

  async function subscriptionIn(scope: AccountScope, ref: EntityRef): Promise<SubscriptionRecord> {
    const s = await findByRef(store.repos.subscriptions, ref);
    if (!s || s.accountId !== scope.account.id) throw notFound('subscription', refValue(ref));
    return s;
  }

  async function view(scope: AccountScope): Promise<AccountView> {
    const subscriptions = scope.permissions.has('account:subscriptions:read')
      ? (await store.repos.subscriptions.listByAccount(scope.account.id)).map((s) => subscriptionView(s, scope))
      : [];
    return { account: scope.account, flags: flagsOf(scope.facts, scope.permissions), subscriptions };
  }

  return {
    /** The caller's accounts (owner or member), each with what the caller may see. */
    async listAccounts(actor: Actor): Promise<AccountView[]> {
      const accounts = await store.repos.accounts.listForUser(actor.userId);
      const out: AccountView[] = [];
      for (const a of accounts) out.push(await view(await authorizer.account(actor, { type: 'account', uuid: a.id })));
      return out;
    },

    async getAccount(actor: Actor, ref: EntityRef): Promise<AccountView> {
      const scope = await authorizer.account(actor, ref);
      requirePermission(scope.permissions, 'account:account:read', 'view-account-forbidden');
      return view(scope);
    },

    async listSubscriptions(actor: Actor, ref: EntityRef): Promise<SubscriptionView[]> {
      const scope = await authorizer.account(actor, ref);
      requirePermission(scope.permissions, 'account:subscriptions:read', 'list-subscriptions-forbidden');
      return (await store.repos.subscriptions.listByAccount(scope.account.id)).map((s) => subscriptionView(s, scope));
    },

    async getSubscription(actor: Actor, ref: EntityRef, subRef: EntityRef): Promise<SubscriptionView> {
      const scope = await authorizer.account(actor, ref);
      requirePermission(scope.permissions, 'account:subscriptions:read', 'view-subscription-forbidden');
      return subscriptionView(await subscriptionIn(scope, subRef), scope);
    },

    /** Our extension (the vendor reports capacities, not what is used): `account:subscriptions:read`, like the subscription. */
    async subscriptionUsage(actor: Actor, ref: EntityRef, subRef: EntityRef): Promise<SubscriptionUsage> {
      const scope = await authorizer.account(actor, ref);
      requirePermission(scope.permissions, 'account:subscriptions:read', 'view-subscription-forbidden');
      const subscription = await subscriptionIn(scope, subRef);
      const now = clock.now();
      const { files, tags } = store.repos;
      const count = async (category: 'scan' | 'geoImage') => {
        const c = await files.countInSubscription(subscription.id, category, now);
        return c.registered + c.pending;
      };
      return {
        subscription,
        scans: await count('scan'),
        geoImages: await count('geoImage'),
        tags: await tags.countForSubscription(subscription.id),
        bytes: await files.bytesInSubscription(subscription.id, now),
        quotaBytes: deps.storageQuotaBytes,
      };
    },

    /** PATCH: the name needs `account:subscriptions:update-name`; the invite flag, the account owner. */
    async updateSubscription(actor: Actor, ref: EntityRef, subRef: EntityRef, patch: SubscriptionPatch) {
      const scope = await authorizer.account(actor, ref);
      if (patch.name === undefined && patch.inviteAccountOwnerInNewProjects === undefined) {
        throw invalidInput('Nothing to update: give name or inviteAccountOwnerInNewProjects');
      }
      if (patch.name !== undefined) {
        requirePermission(scope.permissions, 'account:subscriptions:update-name', 'update-subscription-forbidden');
        // Stored trimmed; spaces only would pass the schema's minLength and leave a blank name.
        const name = patch.name.trim();
        if (!name) throw invalidInput('name must not be empty', { field: 'name' });
        patch = { ...patch, name };
      }
      if (patch.inviteAccountOwnerInNewProjects !== undefined) {
        requirePermission(condition('account-owner', scope.facts.isOwner), 'account:account:update-owner', 'update-subscription-forbidden',
          'Only the account owner may change inviteAccountOwnerInNewProjects');
      }
      const sub = await subscriptionIn(scope, subRef);
      await store.transaction(async (repos) => {
        const now = clock.now();
        await repos.subscriptions.update(sub.id, patch, now);
        const fields = Object.entries(patch).filter(([, v]) => v !== undefined).map(([k]) => k);
        await repos.events.publish(eventOf('subscription.updated', scope.account.id, subjectOf('subscription', sub.id), { subscriptionId: sub.id, fields }), now);
      });
      const updated = await store.repos.subscriptions.byId(sub.id);
      if (!updated) throw new DomainError('not-found', 'subscription-not-found', 'The subscription disappeared');
      return subscriptionView(updated, scope);
    },

    async notices(actor: Actor, ref: EntityRef): Promise<AccountNotice[]> {
      const scope = await authorizer.account(actor, ref);
      requirePermission(scope.permissions, 'account:account:read', 'view-account-forbidden');
      return accountNotices(deps.mailDelivery, scope.permissions);
    },
  };
}
export { accountPermissions };
