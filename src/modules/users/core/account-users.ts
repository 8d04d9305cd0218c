// The users of an account (spec "User", "Invite users", "Remove users", "Update the
// account roles of a user"): listing with accountRoles visibility, invitations (pending
// until the user accepts: account-invitations.ts), removal, and account-role changes, each
// write all-or-nothing.
import type { GroupsRepos } from '../../groups/index.ts';
import type { MembersRepos } from '../../members/index.ts';
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { AccountRole, Repos, UserRecord } from '../../../core/ports/repositories.ts';
import type { AccountInvitationRecord, UsersRepos } from './ports.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { condition } from '../../../core/permissions/refusal-conditions.ts';
import { ACCOUNT_ROLES, ROLE_READ_PERMISSION, ROLE_WRITE_PERMISSION } from '../../../core/permissions/account-roles.ts';
import type { AnyPermission } from '../../../core/permissions/catalog.ts';
import { membersWriteSomewhere } from '../../../core/permissions/evaluate.ts';
import { refusalValues } from '../../../core/permissions/granted-by.ts';
import { resolveUser } from './resolve-users.ts';
import { inviteToAccount, type InviteDeps, pendingView, withdrawInvitation } from './account-invitations.ts';
import type { AccountMemberRecord, AccountsRepos } from '../../accounts/index.ts';
import type { ProjectsRepos } from '../../projects/index.ts';
import type { MailRepos } from '../../mail/index.ts';

/** A user as seen in one account: membership details, and only the account roles the caller may read. */
export interface AccountUserView {
  /** For a pending invitee, only what the inviter wrote (account-invitations.ts `pendingView`). */
  user: UserRecord;
  invitedBy: string | null;
  invitedAt: Date | null;
  accountRoles?: AccountRole[];
  accountIds: string[];
  /** Invited, and not (yet) accepted: no member. */
  pending: boolean;
}

export interface InviteEntry {
  email: string;
  roles?: AccountRole[];
}

function visibleRoles(scope: AccountScope, roles: AccountRole[]): AccountRole[] | undefined {
  const readable = ACCOUNT_ROLES.filter((r) => scope.permissions.has(ROLE_READ_PERMISSION[r]));
  if (!readable.length) return undefined;
  return roles.filter((r) => readable.includes(r));
}

/** The users of an account: list, read, invite, remove, account roles. */
export interface AccountUsers {
  /** The users of an account, with the fields the caller may see. */
  listUsers(actor: Actor, accountRef: EntityRef): Promise<AccountUserView[]>;
  /** One user of the account, with the fields the caller may see. */
  getUser(actor: Actor, accountRef: EntityRef, userRef: EntityRef): Promise<AccountUserView>;
  /**
   * Invites users (idempotent: applies the requested state, granting roles not yet held).
   * Every role asked for needs its write permission, and a user without account role needs
   * workzone:members:write; if any entry is not allowed, nothing changes and nothing is sent.
   * A user who is not a member gets a pending invitation, and the answer shows of him only
   * what the caller sent (`pending`). At most INVITE_MAX_PER_REQUEST addresses (400), and
   * INVITE_MAX_PER_ACCOUNT_DAY new invitations a day (429, nothing changed).
   */
  inviteUsers(actor: Actor, accountRef: EntityRef, entries: InviteEntry[]): Promise<AccountUserView[]>;
  /** Removes users from the account (a pending invitee: withdraws his invitation); the owner and project owners stay (403), all or nothing. */
  removeUsers(actor: Actor, accountRef: EntityRef, userRefs: EntityRef[]): Promise<void>;
  /** Sets a member's (or a pending invitation's) account roles; granting or revoking each role needs its write permission. */
  updateAccountRoles(actor: Actor, accountRef: EntityRef, userRef: EntityRef, roles: AccountRole[]): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const ACCOUNT_USERS_STORE = storeUseOf<Repos & ProjectsRepos & AccountsRepos & MembersRepos & GroupsRepos & MailRepos & UsersRepos>()({ reads: ['accountInvitations', 'accounts', 'members', 'users'], writes: ['accountInvitations', 'accounts', 'counters', 'events', 'groups', 'invitations', 'members', 'outbox', 'projects', 'users'] });

export function createAccountUsers(deps: InviteDeps & {
  store: SliceOf<typeof ACCOUNT_USERS_STORE, Repos & ProjectsRepos & AccountsRepos & MembersRepos & GroupsRepos & MailRepos & UsersRepos>;
  authorizer: Authorizer;
  /** Names the projects of the account the user owns (projects module); the owner of one cannot be removed. */
  ownedProjects?: (repos: ProjectsRepos, userId: string, accountId: string) => Promise<string[]>;
}): AccountUsers {
  const { clock, authorizer } = deps;
  const store = sliceOf(deps.store, ACCOUNT_USERS_STORE);

  /** workzone:members:write on some work zone of the account: one read of the caller's zone holds. */
  const managesMembersSomewhere = async (scope: AccountScope, userId: string): Promise<boolean> =>
    scope.permissions.has('account:users:write') ||
    membersWriteSomewhere(scope.facts, await store.repos.members.zoneHoldsInAccount(scope.account.id, userId, clock.now()));

  async function view(repos: Pick<Repos, 'users'>, scope: AccountScope, m: AccountMemberRecord, user?: UserRecord): Promise<AccountUserView> {
    const u = user ?? (await repos.users.byId(m.userId));
    if (!u) throw notFound('user', m.userId);
    return {
      user: u,
      invitedBy: m.invitedBy,
      invitedAt: m.invitedAt,
      accountRoles: visibleRoles(scope, m.roles),
      accountIds: [scope.account.id],
      pending: false,
    };
  }

  /** A pending invitee as the account sees him: only what the inviter wrote. */
  const pendingOf = (scope: AccountScope, user: UserRecord, inv: AccountInvitationRecord): AccountUserView => ({
    user: pendingView(user, inv),
    invitedBy: inv.invitedBy,
    invitedAt: inv.invitedAt,
    accountRoles: visibleRoles(scope, inv.roles),
    accountIds: [scope.account.id],
    pending: true,
  });

  /** The user as this account knows him: a member, or a pending invitee; null otherwise (unknown, or another tenant's). */
  async function inAccount(repos: Pick<UsersRepos & AccountsRepos, 'accountInvitations' | 'accounts'>, accountId: string, user: UserRecord | null) {
    if (!user) return null;
    const member = await repos.accounts.member(accountId, user.id);
    if (member) return { user, member, invitation: null };
    const invitation = await repos.accountInvitations.get(accountId, user.id);
    return invitation ? { user, member: null, invitation } : null;
  }

  return {
    async listUsers(actor: Actor, accountRef: EntityRef): Promise<AccountUserView[]> {
      const scope = await authorizer.account(actor, accountRef);
      // Vendor getUsers: account:users:read, or workzone:members:write on any work zone of
      // the account (who adds members must find them); accountRoles stay per visibility.
      const mayList = scope.permissions.has('account:users:read') || (await managesMembersSomewhere(scope, actor.userId));
      requirePermission(condition('members-write-somewhere', mayList), 'account:users:read', 'list-users-forbidden');
      const members = await store.repos.accounts.members(scope.account.id);
      const out: AccountUserView[] = [];
      for (const m of members) out.push(await view(store.repos, scope, m));
      const memberIds = new Set(members.map((m) => m.userId));
      for (const inv of await store.repos.accountInvitations.listForAccount(scope.account.id)) {
        // A seed or the administration command may have made him a member meanwhile: listed once, as a member.
        if (memberIds.has(inv.userId)) continue;
        const user = await store.repos.users.byId(inv.userId);
        if (user) out.push(pendingOf(scope, user, inv));
      }
      return out;
    },

    async getUser(actor: Actor, accountRef: EntityRef, userRef: EntityRef): Promise<AccountUserView> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:users:read', 'view-user-forbidden');
      const found = await inAccount(store.repos, scope.account.id, await resolveUser(store.repos, userRef));
      if (!found) throw notFound('user', refValue(userRef));
      return found.member ? view(store.repos, scope, found.member, found.user) : pendingOf(scope, found.user, found.invitation);
    },

    /**
     * Invites users (idempotent: applies the requested state, granting roles not yet held).
     * Every role asked for needs its write permission, and a user without account role needs
     * workzone:members:write; if any entry is not allowed, nothing changes and nothing is sent.
     */
    async inviteUsers(actor: Actor, accountRef: EntityRef, entries: InviteEntry[]): Promise<AccountUserView[]> {
      const scope = await authorizer.account(actor, accountRef);
      const needed = new Set<AnyPermission>();
      for (const e of entries) {
        for (const r of e.roles ?? []) needed.add(ROLE_WRITE_PERMISSION[r]);
      }
      requirePermission(scope.permissions, [...needed], 'create-user-forbidden');
      if (entries.some((e) => !e.roles?.length) && !scope.permissions.has('account:users:write')) {
        requirePermission(condition('members-write-somewhere', await managesMembersSomewhere(scope, actor.userId)), 'workzone:members:write', 'create-user-forbidden');
      }
      const max = deps.limits.maxPerRequest;
      if (entries.length > max) {
        throw invalidInput(`At most ${max} addresses per request (INVITE_MAX_PER_REQUEST); send the others in further requests`, { field: 'body', max });
      }

      // One entry per address; roles asked for twice are merged.
      const byEmail = new Map<string, { email: string; roles: Set<AccountRole> }>();
      for (const e of entries) {
        const key = e.email.trim().toLowerCase();
        const cur = byEmail.get(key) ?? { email: e.email.trim(), roles: new Set<AccountRole>() };
        for (const r of e.roles ?? []) cur.roles.add(r);
        byEmail.set(key, cur);
      }

      return store.transaction(async (repos) => {
        const out: AccountUserView[] = [];
        for (const { email, roles } of byEmail.values()) {
          const invited = await inviteToAccount(repos, deps, scope.account, actor.userId, email, [...roles]);
          out.push(invited.pending ? pendingOf(scope, invited.user, invited.invitation) : await view(repos, scope, invited.member, invited.user));
        }
        return out;
      });
    },

    /** Removes users from the account; the owner and project owners stay (403), all or nothing. */
    async removeUsers(actor: Actor, accountRef: EntityRef, userRefs: EntityRef[]): Promise<void> {
      const scope = await authorizer.account(actor, accountRef);
      const accountId = scope.account.id;
      requirePermission(scope.permissions, 'account:users:write', 'remove-user-from-account-forbidden');
      await store.transaction(async (repos) => {
        const done = new Set<string>();
        for (const ref of userRefs) {
          const named = await resolveUser(repos, ref);
          // The same user named twice (URN and API 1 id) is removed once, not refused as a non-member.
          if (named && done.has(named.id)) continue;
          const found = await inAccount(repos, accountId, named);
          if (!found) throw notFound('user', refValue(ref));
          const user = found.user;
          done.add(user.id);
          if (found.invitation) {
            // Withdrawing an invitation revokes the roles it would give: each needs its write permission.
            requirePermission(scope.permissions, ['account:users:write', ...found.invitation.roles.map((r) => ROLE_WRITE_PERMISSION[r])],
              'remove-user-from-account-forbidden', `Withdrawing the invitation of ${found.invitation.email} revokes account roles the caller may not revoke`);
            await withdrawInvitation(repos, accountId, user.id, clock.now());
            continue;
          }
          const m = found.member;
          if (user.id === scope.account.ownerId) {
            throw new DomainError(
              'forbidden',
              'delete-account-owner-forbidden',
              'The account owner cannot be removed from the account: an account always has an owner',
              { user: user.id, ...refusalValues(['account:account:update-owner']) },
            );
          }
          // Removal revokes every account role the user holds: each needs its write permission,
          // as PUT members/{u}/roles would (a project manager cannot remove an administrator).
          const revoking: AnyPermission[] = ['account:users:write', ...m.roles.map((r) => ROLE_WRITE_PERMISSION[r])];
          requirePermission(scope.permissions, revoking, 'remove-user-from-account-forbidden', `Removing ${user.email} revokes account roles the caller may not revoke`);
          const owned = deps.ownedProjects ? await deps.ownedProjects(repos, user.id, accountId) : [];
          if (owned.length) {
            throw new DomainError(
              'forbidden',
              'remove-user-from-account-forbidden',
              `The user owns projects of the account (${owned.join(', ')}); transfer them first`,
              { user: user.id, projectIds: owned.join(', '), ...refusalValues(['account:users:write']) },
            );
          }
          await repos.groups.removeUserFromAccountGroups(accountId, user.id);
          await repos.members.removeUserFromAccountProjects(accountId, user.id);
          await repos.accounts.removeMember(accountId, user.id);
          await repos.events.publish(eventOf('user.removed', accountId, subjectOf('user', user.id), { userId: user.id }), clock.now());
        }
      });
    },

    /** Sets a member's account roles; granting or revoking each role needs its write permission. */
    async updateAccountRoles(actor: Actor, accountRef: EntityRef, userRef: EntityRef, roles: AccountRole[]): Promise<void> {
      const scope = await authorizer.account(actor, accountRef);
      const accountId = scope.account.id;
      const requested = ACCOUNT_ROLES.filter((r) => roles.includes(r));
      // Callers who could change none of the asked roles learn nothing about the target.
      const upfront: AnyPermission[] = ['account:users:write', ...requested.map((r) => ROLE_WRITE_PERMISSION[r])];
      requirePermission(condition('users-write-before-target', scope.permissions.has('account:users:write')), upfront, 'update-user-account-roles-forbidden');
      await store.transaction(async (repos) => {
        const found = await inAccount(repos, accountId, await resolveUser(repos, userRef));
        if (!found) throw notFound('user', refValue(userRef));
        const user = found.user;
        const held = found.member?.roles ?? found.invitation!.roles;
        const target = new Set(roles);
        const changed = ACCOUNT_ROLES.filter((r) => target.has(r) !== held.includes(r));
        const needed: AnyPermission[] = ['account:users:write', ...changed.map((r) => ROLE_WRITE_PERMISSION[r])];
        requirePermission(scope.permissions, needed, 'update-user-account-roles-forbidden');
        if (!changed.length) return;
        const next = ACCOUNT_ROLES.filter((r) => target.has(r));
        // A pending invitation's roles are what accepting it will give.
        if (found.member) await repos.accounts.upsertMember({ ...found.member, roles: next });
        else await repos.accountInvitations.put({ ...found.invitation!, roles: next });
        await repos.events.publish(eventOf('user.roles-changed', accountId, subjectOf('user', user.id), { userId: user.id, roles: next }), clock.now());
      });
    },
  };
}
