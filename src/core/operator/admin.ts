// The administration command's use cases (`npm run admin`, docs/operations.md): what an
// operator of a self-hosted deployment does before anyone can sign in, or when nobody
// can. They run with the database's full authority (no actor, no permission check):
// whoever runs them can already read the configuration and the database.
//
// Accounts, owners, subscriptions and account roles are written as seed documents, so they
// follow the seed's validation and are idempotent; a user without a password gets a
// one-time set-password link (the invitation link, valid 7 days), printed, never mailed.
import { eventOf, subjectOf } from '../events/domain-events.ts';
import { DomainError, invalidInput } from '../errors.ts';
import { sha256Hex } from '../crypto/digest.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { AccountRecord, OutboxEntry, Repos, SubscriptionRecord, UserRecord } from '../ports/repositories.ts';
import type { StoreSlice } from '../ports/store-slices.ts';
import type { SeedDocument, SeedResult, SeedSubscription } from './seed.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../users/index.ts';
import { endEverySession } from '../oauth/index.ts';

/** The invitation link's lifetime (account-users.ts sends the same link by mail). */
const LINK_SECONDS = 7 * 24 * 3600;

export const ADMIN_ACCOUNT_ROLES = {
  administrator: 'administrators',
  'project-manager': 'projectManagers',
  'project-lister': 'projectListers',
  member: 'members',
} as const;
export type AdminAccountRole = keyof typeof ADMIN_ACCOUNT_ROLES;

export interface AdminUse {
  createAccount(input: { name: string; ownerEmail: string; password?: string }): Promise<{ account: SeedResult['accounts'][number]; ownerId: string; setPasswordLink: string | null }>;
  createSubscription(accountRef: string, s: SeedSubscription): Promise<SubscriptionRecord[]>;
  listSubscriptions(accountRef: string): Promise<SubscriptionRecord[]>;
  addAccountRole(accountRef: string, email: string, role: AdminAccountRole): Promise<{ setPasswordLink: string | null }>;
  /** Forgets the password, ends every session of the user (browser, refresh and access tokens), and answers a one-time set-password link. */
  resetPassword(email: string): Promise<{ setPasswordLink: string }>;
  listUsers(limit: number): Promise<UserRecord[]>;
  /** The newest mails with their relay state (attempts, last error): a failed relay shows here. */
  outbox(limit: number, state?: OutboxEntry['relay']['state']): Promise<OutboxEntry[]>;
}

export function createAdmin(deps: {
  store: StoreSlice<'accounts' | 'outbox' | 'subscriptions' | 'users'>;
  clock: Clock;
  ids: Ids;
  publicUrl: string;
  applySeed: (doc: SeedDocument) => Promise<SeedResult>;
}): AdminUse {
  const { store, clock, ids, publicUrl, applySeed } = deps;

  async function accountOf(repos: Pick<Repos, 'accounts'>, ref: string): Promise<AccountRecord> {
    const account = /^[0-9a-f-]{36}$/i.test(ref) ? await repos.accounts.byId(ref.toLowerCase()) : await repos.accounts.byName(ref);
    if (!account) throw new DomainError('not-found', 'account-not-found', `No account ${ref} (give its name or id)`, { account: ref });
    return account;
  }

  async function ownerEmail(repos: Pick<Repos, 'users'>, account: AccountRecord): Promise<string> {
    return (await repos.users.byId(account.ownerId))!.email;
  }

  /** A set-password link for a user without a password; null when he has one. */
  async function linkIfPasswordless(repos: Repos, userId: string, accountId: string | null): Promise<string | null> {
    const user = await repos.users.byId(userId);
    if (!user || user.passwordHash) return null;
    const token = ids.secret(32);
    const now = clock.now();
    await repos.invitations.insert({ tokenHash: sha256Hex(token), userId, accountId, expiresAt: new Date(now.getTime() + LINK_SECONDS * 1000) }, now);
    return `${publicUrl}/invitations/${token}`;
  }

  return {
    async createAccount({ name, ownerEmail: email, password }) {
      if (password !== undefined && (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)) {
        throw invalidInput(`The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, { field: 'password' });
      }
      const result = await applySeed({ users: [{ email, ...(password !== undefined ? { password } : {}) }], accounts: [{ name, owner: email }] });
      const ownerId = result.users[0]!.id;
      const account = result.accounts[0]!;
      const setPasswordLink = await store.transaction((repos) => linkIfPasswordless(repos, ownerId, account.id));
      return { account, ownerId, setPasswordLink };
    },

    async createSubscription(accountRef, s) {
      const account = await accountOf(store.repos, accountRef);
      await applySeed({ accounts: [{ name: account.name, owner: await ownerEmail(store.repos, account), subscriptions: [s] }] });
      return store.repos.subscriptions.listByAccount(account.id);
    },

    async listSubscriptions(accountRef) {
      return store.repos.subscriptions.listByAccount((await accountOf(store.repos, accountRef)).id);
    },

    async addAccountRole(accountRef, email, role) {
      const account = await accountOf(store.repos, accountRef);
      const field = ADMIN_ACCOUNT_ROLES[role];
      await applySeed({
        users: (await store.repos.users.byEmail(email)) ? [] : [{ email }],
        accounts: [{ name: account.name, owner: await ownerEmail(store.repos, account), [field]: [email] }],
      });
      const user = (await store.repos.users.byEmail(email))!;
      return { setPasswordLink: await store.transaction((repos) => linkIfPasswordless(repos, user.id, account.id)) };
    },

    async resetPassword(email) {
      return store.transaction(async (repos) => {
        const user = await repos.users.byEmail(email);
        if (!user) throw new DomainError('not-found', 'user-email-not-found', `No user with e-mail ${email}`, { email });
        await repos.users.lock(user.id);
        const now = clock.now();
        await repos.users.update(user.id, { passwordHash: null }, now);
        await endEverySession(repos, user.id, now);
        await repos.events.publish(eventOf('user.password-cleared', null, subjectOf('user', user.id), { userId: user.id }), now);
        return { setPasswordLink: (await linkIfPasswordless(repos, user.id, null))! };
      });
    },

    listUsers: (limit) => store.repos.users.list(limit),
    outbox: (limit, state) => store.repos.outbox.list(limit, state),
  };
}
