// The users of an account (spec "User", "Invite users", "Remove users", "Update the
// account roles of a user"): listing with accountRoles visibility, invitations,
// removal, and account-role changes, each write all-or-nothing.
import { eventOf, subjectOf } from '../events/domain-events.ts';
import { DomainError, notFound } from '../errors.ts';
import { sha256Hex } from '../crypto/digest.ts';
import { type EntityRef, refValue } from '../ids/urn.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { AccountMemberRecord, AccountRecord, AccountRole, Repos, UserRecord } from '../ports/repositories.ts';
import type { StoreSlice } from '../ports/store-slices.ts';
import type { SendMail } from '../mail/index.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../permissions/authorizer.ts';
import { condition } from '../permissions/refusal-conditions.ts';
import { ACCOUNT_ROLES, ROLE_READ_PERMISSION, ROLE_WRITE_PERMISSION } from '../permissions/account-roles.ts';
import type { AnyPermission } from '../permissions/catalog.ts';
import { membersWriteSomewhere } from '../permissions/evaluate.ts';
import { refusalValues } from '../permissions/granted-by.ts';
import { resolveUser } from './resolve-users.ts';

export const INVITATION_SECONDS = 7 * 24 * 3600;

/** A user as seen in one account: membership details, and only the account roles the caller may read. */
export interface AccountUserView {
  user: UserRecord;
  invitedBy: string | null;
  invitedAt: Date | null;
  accountRoles?: AccountRole[];
  accountIds: string[];
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


/**
 * Makes the user (created and invited by e-mail when unknown) a member of the account
 * with at least the given account roles, in the caller's transaction. Idempotent: an
 * existing member gets the missing roles only, and no mail.
 */
export async function admitToAccount(
  repos: Repos,
  deps: { ids: Ids; clock: Clock; sendMail: SendMail; publicUrl: string },
  account: AccountRecord,
  inviterId: string,
  email: string,
  roles: AccountRole[],
): Promise<{ user: UserRecord; member: AccountMemberRecord; added: boolean }> {
  const { ids, clock, sendMail, publicUrl } = deps;
  const now = clock.now();
  let user = await repos.users.byEmail(email);
  if (!user) {
    user = await repos.users.insert(
      {
        id: ids.uuid(), email, firstName: '', lastName: '', company: '', title: '',
        passwordHash: null, invitedBy: inviterId, invitedAt: now,
      },
      now,
    );
  }
  const current = await repos.accounts.member(account.id, user.id);
  const next: AccountMemberRecord = {
    accountId: account.id,
    userId: user.id,
    roles: ACCOUNT_ROLES.filter((r) => roles.includes(r) || current?.roles.includes(r)),
    invitedBy: current?.invitedBy ?? inviterId,
    invitedAt: current?.invitedAt ?? now,
  };
  if (!current || next.roles.length !== current.roles.length) await repos.accounts.upsertMember(next);
  if (current && next.roles.length !== current.roles.length) {
    await repos.events.publish(eventOf('user.roles-changed', account.id, subjectOf('user', user.id), { userId: user.id, roles: next.roles }), now);
  }
  if (!current) {
    // Invited: a new user (no password yet) gets a set-password link; added: a user who can sign in already.
    const type = user.passwordHash ? 'user.added' : 'user.invited';
    await repos.events.publish(eventOf(type, account.id, subjectOf('user', user.id), { userId: user.id, invitedBy: inviterId, roles: next.roles }), now);
    const inviter = await repos.users.byId(inviterId);
    const who = inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email : 'Someone';
    if (!user.passwordHash) {
      const token = ids.secret(32);
      await repos.invitations.insert(
        { tokenHash: sha256Hex(token), userId: user.id, accountId: account.id, expiresAt: new Date(now.getTime() + INVITATION_SECONDS * 1000) },
        now,
      );
      const link = `${publicUrl}/invitations/${token}`;
      await sendMail(repos, {
        to: user.email,
        subject: `You are invited to ${account.name} on Scanbase`,
        text: `${who} invited you to the account ${account.name}.\n\nSet your password to sign in: ${link}\n\nThe link is valid for 7 days.`,
        links: [link],
        secret: token,
      });
    } else {
      await sendMail(repos, {
        to: user.email,
        subject: `You were added to ${account.name} on Scanbase`,
        text: `${who} added you to the account ${account.name}.\n\n${publicUrl}/`,
        links: [`${publicUrl}/`],
      });
    }
  }
  return { user, member: next, added: !current };
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
   */
  inviteUsers(actor: Actor, accountRef: EntityRef, entries: InviteEntry[]): Promise<AccountUserView[]>;
  /** Removes users from the account; the owner and project owners stay (403), all or nothing. */
  removeUsers(actor: Actor, accountRef: EntityRef, userRefs: EntityRef[]): Promise<void>;
  /** Sets a member's account roles; granting or revoking each role needs its write permission. */
  updateAccountRoles(actor: Actor, accountRef: EntityRef, userRef: EntityRef, roles: AccountRole[]): Promise<void>;
}

export function createAccountUsers(deps: {
  store: StoreSlice<'accounts' | 'members' | 'users'>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  sendMail: SendMail;
  publicUrl: string;
  /** Names the projects of the account the user owns (projects module); the owner of one cannot be removed. */
  ownedProjects?: (repos: Repos, userId: string, accountId: string) => Promise<string[]>;
}): AccountUsers {
  const { store, clock, ids, authorizer, sendMail, publicUrl } = deps;

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
    };
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
      return out;
    },

    async getUser(actor: Actor, accountRef: EntityRef, userRef: EntityRef): Promise<AccountUserView> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:users:read', 'view-user-forbidden');
      const user = await resolveUser(store.repos, userRef);
      const m = user && (await store.repos.accounts.member(scope.account.id, user.id));
      if (!user || !m) throw notFound('user', refValue(userRef));
      return view(store.repos, scope, m, user);
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
          const { user, member } = await admitToAccount(repos, { ids, clock, sendMail, publicUrl }, scope.account, actor.userId, email, [...roles]);
          out.push(await view(repos, scope, member, user));
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
          const user = await resolveUser(repos, ref);
          // The same user named twice (URN and API 1 id) is removed once, not refused as a non-member.
          if (user && done.has(user.id)) continue;
          const m = user && (await repos.accounts.member(accountId, user.id));
          if (!user || !m) throw notFound('user', refValue(ref));
          done.add(user.id);
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
        const user = await resolveUser(repos, userRef);
        const m = user && (await repos.accounts.member(accountId, user.id));
        if (!user || !m) throw notFound('user', refValue(userRef));
        const target = new Set(roles);
        const changed = ACCOUNT_ROLES.filter((r) => target.has(r) !== m.roles.includes(r));
        const needed: AnyPermission[] = ['account:users:write', ...changed.map((r) => ROLE_WRITE_PERMISSION[r])];
        requirePermission(scope.permissions, needed, 'update-user-account-roles-forbidden');
        if (!changed.length) return;
        const next = ACCOUNT_ROLES.filter((r) => target.has(r));
        await repos.accounts.upsertMember({ ...m, roles: next });
        await repos.events.publish(eventOf('user.roles-changed', accountId, subjectOf('user', user.id), { userId: user.id, roles: next }), clock.now());
      });
    },
  };
}
