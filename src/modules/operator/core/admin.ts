// The administration command's use cases (`npm run admin`, docs/operations.md): what an
// operator of a self-hosted deployment does before anyone can sign in, or when nobody
// can. They run with the database's full authority (no actor, no permission check):
// whoever runs them can already read the configuration and the database.
//
// Accounts, owners, subscriptions and account roles are written as seed documents, so they
// follow the seed's validation and are idempotent; a user without a password gets a
// one-time set-password link (the invitation link, valid 7 days), printed, never mailed.
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { AccountRecord, AccountRole, Repos, UserRecord } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { SeedAccount, SeedDocument, SeedResult, SeedSubscription } from './seed.ts';
import { PASSWORD_MAX, PASSWORD_MIN, type UsersRepos } from '../../users/index.ts';
import { endEverySession, type OauthRepos } from '../../oauth/index.ts';
import type { AccountsRepos, SubscriptionRecord } from '../../accounts/index.ts';
import type { MailRepos, OutboxEntry } from '../../mail/index.ts';

/** The invitation link's lifetime (account-users.ts sends the same link by mail). */
const LINK_SECONDS = 7 * 24 * 3600;

export const ADMIN_ACCOUNT_ROLES = {
  administrator: 'administrators',
  'project-manager': 'projectManagers',
  'project-lister': 'projectListers',
  member: 'members',
} as const;
export type AdminAccountRole = keyof typeof ADMIN_ACCOUNT_ROLES;

/**
 * The roles `create-account` gives the owner unless told otherwise: project manager, the
 * role that creates projects (the owner alone lacks `account:projects:create`, as on the
 * vendor's service, so a new owner could not create the first project).
 */
export const DEFAULT_OWNER_ROLES: readonly AdminAccountRole[] = ['project-manager'];

type RoleList = (typeof ADMIN_ACCOUNT_ROLES)[AdminAccountRole];
const LIST_OF_ROLE: Record<AccountRole, RoleList> = { administrator: 'administrators', projectManager: 'projectManagers', projectLister: 'projectListers' };

export interface AdminUse {
  /** Creates the account and its owner, who also gets `ownerRoles` (default DEFAULT_OWNER_ROLES; `member` alone: none). */
  createAccount(input: { name: string; ownerEmail: string; password?: string; ownerRoles?: readonly AdminAccountRole[] }): Promise<{
    account: SeedResult['accounts'][number]; ownerId: string; ownerRoles: AccountRole[]; setPasswordLink: string | null;
  }>;
  createSubscription(accountRef: string, s: SeedSubscription): Promise<SubscriptionRecord[]>;
  listSubscriptions(accountRef: string): Promise<SubscriptionRecord[]>;
  addAccountRole(accountRef: string, email: string, role: AdminAccountRole): Promise<{ setPasswordLink: string | null }>;
  /** Forgets the password, ends every session of the user (browser, refresh and access tokens), and answers a one-time set-password link. */
  resetPassword(email: string): Promise<{ setPasswordLink: string }>;
  listUsers(limit: number): Promise<UserRecord[]>;
  /** The newest mails with their relay state (attempts, last error): a failed relay shows here. */
  outbox(limit: number, state?: OutboxEntry['relay']['state']): Promise<OutboxEntry[]>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const ADMIN_STORE = storeUseOf<Repos & AccountsRepos & MailRepos & UsersRepos & OauthRepos>()({ reads: ['accounts', 'outbox', 'subscriptions', 'users'], writes: ['events', 'invitations', 'oauth', 'users'] });

export function createAdmin(deps: {
  store: SliceOf<typeof ADMIN_STORE, Repos & AccountsRepos & MailRepos & UsersRepos & OauthRepos>;
  clock: Clock;
  ids: Ids;
  publicUrl: string;
  applySeed: (doc: SeedDocument) => Promise<SeedResult>;
}): AdminUse {
  const { clock, ids, publicUrl, applySeed } = deps;
  const store = sliceOf(deps.store, ADMIN_STORE);

  async function accountOf(repos: Pick<Repos & AccountsRepos, 'accounts'>, ref: string): Promise<AccountRecord> {
    const account = /^[0-9a-f-]{36}$/i.test(ref) ? await repos.accounts.byId(ref.toLowerCase()) : await repos.accounts.byName(ref);
    if (!account) throw new DomainError('not-found', 'account-not-found', `No account ${ref} (give its name or id)`, { account: ref });
    return account;
  }

  /**
   * The account as a seed document's entry that changes nothing: its owner and each member in
   * the lists of his current roles. A seed sets a listed user's roles to the lists he is in,
   * so an entry naming only the owner would take every role away; the admin commands add
   * their change to this one.
   */
  async function unchangedEntry(repos: Pick<Repos & AccountsRepos, 'users' | 'accounts'>, account: AccountRecord): Promise<SeedAccount & Record<RoleList, string[]>> {
    const entry = {
      name: account.name,
      owner: (await repos.users.byId(account.ownerId))!.email,
      administrators: [] as string[], projectManagers: [] as string[], projectListers: [] as string[], members: [] as string[],
    };
    for (const m of await repos.accounts.members(account.id)) {
      const email = (await repos.users.byId(m.userId))?.email;
      if (!email) continue;
      entry.members.push(email);
      for (const role of m.roles) entry[LIST_OF_ROLE[role]].push(email);
    }
    return entry;
  }

  /** A set-password link for a user without a password; null when he has one. */
  async function linkIfPasswordless(repos: Pick<Repos & UsersRepos, 'invitations' | 'users'>, userId: string, accountId: string | null): Promise<string | null> {
    const user = await repos.users.byId(userId);
    if (!user || user.passwordHash) return null;
    const token = ids.secret(32);
    const now = clock.now();
    await repos.invitations.insert({ tokenHash: sha256Hex(token), userId, accountId, expiresAt: new Date(now.getTime() + LINK_SECONDS * 1000) }, now);
    return `${publicUrl}/invitations/${token}`;
  }

  return {
    async createAccount({ name, ownerEmail: email, password, ownerRoles = DEFAULT_OWNER_ROLES }) {
      if (password !== undefined && (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)) {
        throw invalidInput(`The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, { field: 'password' });
      }
      // Run again on an existing account (it is idempotent), the members keep their roles.
      const existing = await store.repos.accounts.byName(name);
      const entry: SeedAccount & Record<RoleList, string[]> = existing
        ? await unchangedEntry(store.repos, existing)
        : { name, owner: email, administrators: [], projectManagers: [], projectListers: [], members: [] };
      entry.owner = email;
      for (const role of ownerRoles) entry[ADMIN_ACCOUNT_ROLES[role]].push(email);
      const result = await applySeed({ users: [{ email, ...(password !== undefined ? { password } : {}) }], accounts: [entry] });
      const ownerId = result.users[0]!.id;
      const account = result.accounts[0]!;
      const setPasswordLink = await store.transaction((repos) => linkIfPasswordless(repos, ownerId, account.id));
      const owner = await store.repos.accounts.member(account.id, ownerId);
      return { account, ownerId, ownerRoles: owner?.roles ?? [], setPasswordLink };
    },

    async createSubscription(accountRef, s) {
      const account = await accountOf(store.repos, accountRef);
      await applySeed({ accounts: [{ ...(await unchangedEntry(store.repos, account)), subscriptions: [s] }] });
      return store.repos.subscriptions.listByAccount(account.id);
    },

    async listSubscriptions(accountRef) {
      return store.repos.subscriptions.listByAccount((await accountOf(store.repos, accountRef)).id);
    },

    async addAccountRole(accountRef, email, role) {
      const account = await accountOf(store.repos, accountRef);
      const entry = await unchangedEntry(store.repos, account);
      entry[ADMIN_ACCOUNT_ROLES[role]].push(email);
      await applySeed({ users: (await store.repos.users.byEmail(email)) ? [] : [{ email }], accounts: [entry] });
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
