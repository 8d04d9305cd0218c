// Project membership (spec "Membership rules"; vendor addProjectMembers and the remove
// operations): one role and one expiration date per member per project, granted on work
// zones and their subtrees, materialised per work zone in the same transaction.
import type { GroupsRepos } from '../../groups/index.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Repos, UserRecord } from '../../../core/ports/repositories.ts';
import type { MemberAccess, MembersRepos, MemberType } from './ports.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { effectiveRolePermissions } from '../../../core/permissions/role-rules.ts';
import { requirePermission, type Actor, type ForbiddenCode } from '../../../core/permissions/authorizer.ts';
import { lockProjectMembership, type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import { inviteToAccount, type InviteDeps, pendingView, resolveUser, type UsersRepos } from '../../users/index.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { RolesRepos } from '../../roles/index.ts';
import './events.ts';
import './errors.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';
import type { MailRepos } from '../../mail/index.ts';

export interface AddMembersInput {
  workzoneRefs?: EntityRef[] | null;
  users?: { email: string; roleRef: EntityRef; expirationDate?: Date | null }[];
  groups?: { groupRef: EntityRef; roleRef: EntityRef; expirationDate?: Date | null }[];
}

export interface MemberAccessView {
  member: { type: 'user'; id: string; email: string } | { type: 'group'; id: string; name: string };
  roleId: string;
  expirationDate: Date | null;
  workzoneIds: string[];
}


/** Project members and their access (spec "Member"). */
export interface Members {
  /**
   * Adds users (by e-mail; unknown addresses are invited to the account) and groups with
   * a role on work zones (default: the root). The caller needs workzone:members:write on
   * every zone and every permission he hands out (account managers hand out any role).
   */
  addMembers(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: AddMembersInput): Promise<void>;
  /** Removes users and groups from the whole project (ignoring non-members). */
  removeMembers(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: { userRefs?: EntityRef[]; groupRefs?: EntityRef[] }): Promise<void>;
  /**
   * Removes a user from a work zone and everything below it; when he is also a member of
   * parent zones, those too, but only with allowRemoveOnParents (rule 3). Anyone may remove himself.
   */
  removeFromWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, workzoneRef: EntityRef, userRef: EntityRef, allowRemoveOnParents: boolean): Promise<void>;
  /** The project's users: direct members and the users of member groups. */
  listMembers(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<UserRecord[]>;
  /** Every member with every work zone it reaches (rule 4). */
  listAccess(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<MemberAccessView[]>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const MEMBERS_STORE = storeUseOf<Repos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos & GroupsRepos & MailRepos & UsersRepos>()({ reads: ['accountInvitations', 'accounts', 'groups', 'members', 'users'], writes: ['accountInvitations', 'accounts', 'counters', 'events', 'groups', 'invitations', 'locks', 'members', 'outbox', 'roles', 'users', 'workzones'] });

export function createMembers(deps: InviteDeps & {
  store: SliceOf<typeof MEMBERS_STORE, Repos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos & GroupsRepos & MailRepos & UsersRepos>;
  access: ProjectAccess;
}): Members {
  const { clock, access } = deps;
  const store = sliceOf(deps.store, MEMBERS_STORE);

  /** A project's users as the caller may see them: one whose invitation to the account is pending shows only what the inviter wrote. */
  async function usersAsSeen(repos: Pick<Repos & UsersRepos & AccountsRepos, 'accountInvitations' | 'accounts' | 'users'>, accountId: string, ids: Iterable<string>): Promise<Map<string, UserRecord>> {
    const invitations = await repos.accountInvitations.listForAccount(accountId);
    // A seed or the administration command may have made an invitee a member meanwhile: a member shows as one.
    const members = invitations.length ? new Set((await repos.accounts.members(accountId)).map((m) => m.userId)) : new Set<string>();
    const pending = new Map(invitations.filter((i) => !members.has(i.userId)).map((i) => [i.userId, i]));
    const out = new Map<string, UserRecord>();
    for (const id of ids) {
      const u = await repos.users.byId(id);
      if (!u) continue;
      const inv = pending.get(id);
      out.set(id, inv ? pendingView(u, inv) : u);
    }
    return out;
  }

  /** Work-zone writes need workzone:members:write on the zone (root for project-wide removal). */
  const requireMembersWrite = (scope: ProjectScope, zoneId: string, code: ForbiddenCode) =>
    requirePermission(scope.workzone(zoneId), 'workzone:members:write', code);

  async function removeWholeMember(repos: Pick<Repos & MembersRepos, 'events' | 'members'>, scope: ProjectScope, type: MemberType, id: string): Promise<void> {
    if (type === 'user' && id === scope.project.ownerId) {
      throw new DomainError('invalid', 'cannot-remove-project-owner', 'The project owner cannot be removed from the project', { userId: id });
    }
    if (!(await repos.members.member(scope.project.id, type, id))) return; // not a member: nothing changes
    await repos.members.removeMember(scope.project.id, type, id);
    await repos.events.publish(projectEventOf('member.removed', scope.project, subjectOf('project', scope.project.id), { memberType: type, memberId: id }), clock.now());
  }

  return {
    /**
     * Adds users (by e-mail; unknown addresses are invited to the account) and groups with
     * a role on work zones (default: the root). The caller needs workzone:members:write on
     * every zone and every permission he hands out (account managers hand out any role).
     */
    async addMembers(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: AddMembersInput): Promise<void> {
      const scope = await access.project(actor, accountRef, projectRef);
      const projectId = scope.project.id;
      const accountId = scope.account.account.id;
      const now = clock.now();
      const users = input.users ?? [];
      const groups = input.groups ?? [];
      if (!users.length && !groups.length) throw invalidInput('members must name at least one user or group', { field: 'members' });
      const max = deps.limits.maxPerRequest;
      if (users.length > max) {
        throw invalidInput(`At most ${max} users per request (INVITE_MAX_PER_REQUEST); send the others in further requests`, { field: 'members.users', max });
      }
      // Absent or null means the root (the whole project); an empty list must not silently mean that too.
      if (input.workzoneRefs && !input.workzoneRefs.length) {
        throw invalidInput('workzones, when given, must name at least one work zone (omit it or send null for the whole project)', { field: 'workzones' });
      }
      for (const m of [...users, ...groups]) {
        if (m.expirationDate && m.expirationDate.getTime() <= now.getTime()) {
          throw new DomainError('invalid', 'expiration-date-in-past', 'An expiration date is in the past', {
            expirationDate: m.expirationDate.toISOString(),
          });
        }
      }
      const emails = users.map((u) => u.email.trim().toLowerCase());
      if (new Set(emails).size !== emails.length) throw invalidInput('Each user may appear once', { field: 'members.users' });
      const groupKeys = groups.map((g) => refValue(g.groupRef));
      if (new Set(groupKeys).size !== groupKeys.length) throw invalidInput('Each group may appear once', { field: 'members.groups' });

      await store.transaction(async (repos) => {
        // One membership change per project at a time: two concurrent requests giving one
        // member two roles would both see "no role yet" and the second would overwrite the first.
        await lockProjectMembership(repos, projectId);
        const zones: string[] = [];
        for (const ref of input.workzoneRefs ?? [{ type: 'workzone' as const, uuid: scope.project.rootWorkzoneId }]) {
          const w = await repos.workzones.byRef(projectId, ref);
          if (!w) throw notFound('workzone', refValue(ref));
          zones.push(w.id);
        }
        const accountManager = scope.account.permissions.has('account:users:write') || scope.project.ownerId === actor.userId;
        const roleCache = new Map<string, { id: string; permissions: Set<Permission> }>();
        const roleOf = async (ref: EntityRef) => {
          const key = refValue(ref);
          let r = roleCache.get(key);
          if (!r) {
            // The roles module's repository (a member's role is one of the account's roles).
            const rec = await repos.roles.byRef(accountId, ref);
            if (!rec) throw notFound('role', key);
            roleCache.set(key, (r = { id: rec.id, permissions: effectiveRolePermissions(rec.permissions) }));
          }
          return r;
        };
        const checkZones = (role: { permissions: Set<Permission> }) => {
          for (const z of zones) {
            // A role's project-level permissions (create_project) are held at project level, not per zone.
            const held = new Set([...scope.workzone(z), ...scope.permissions]);
            const needed = [...new Set<Permission>(['workzone:members:write', ...(accountManager ? [] : role.permissions)])];
            requirePermission(held, needed, 'add-project-members-forbidden', (missing) => `Requires ${missing.join(', ')} on every work zone`);
          }
        };
        const subtrees = new Set<string>();
        for (const z of zones) for (const id of await repos.workzones.subtree(z)) subtrees.add(id);

        const place = async (type: MemberType, memberId: string, roleId: string, expiresAt: Date | null) => {
          const current = await repos.members.member(projectId, type, memberId);
          if (current && current.roleId !== roleId) {
            throw new DomainError('invalid', 'member-has-another-role', 'The member already has another role in this project', {
              memberId, roleId: current.roleId,
            });
          }
          // Same role: extended to the zones, expiration overridden project-wide. The date is
          // one per member, so changing it changes his access on every zone he already holds:
          // the caller must manage members on each of them, not only on the zones named.
          if (current && current.expiresAt?.getTime() !== expiresAt?.getTime()) {
            for (const z of current.workzoneIds) {
              requirePermission(scope.workzone(z), 'workzone:members:write', 'add-project-members-forbidden',
                'Changing a member\'s expiration date changes it on every work zone he holds; requires workzone:members:write on all of them');
            }
          }
          await repos.members.upsertMember({ projectId, memberType: type, memberId, roleId, expiresAt }, actor.userId, now);
          await repos.members.grantAccess(projectId, type, memberId, [...subtrees]);
          await repos.events.publish(projectEventOf('member.added', scope.project, subjectOf('project', projectId), {
            memberType: type, memberId, roleId, expiresAt: expiresAt?.toISOString() ?? null,
          }), now);
        };

        for (const u of users) {
          const role = await roleOf(u.roleRef);
          checkZones(role);
          // A user who is not a member is invited to the account: his grants wait until he accepts.
          const { user } = await inviteToAccount(repos, deps, scope.account.account, actor.userId, u.email.trim(), []);
          await place('user', user.id, role.id, u.expirationDate ?? null);
        }
        for (const g of groups) {
          const role = await roleOf(g.roleRef);
          checkZones(role);
          const group = await repos.groups.byRef(accountId, g.groupRef);
          if (!group) throw notFound('group', refValue(g.groupRef));
          await place('group', group.id, role.id, g.expirationDate ?? null);
        }
      });
    },

    /** Removes users and groups from the whole project (ignoring non-members). */
    async removeMembers(
      actor: Actor,
      accountRef: EntityRef,
      projectRef: EntityRef,
      input: { userRefs?: EntityRef[]; groupRefs?: EntityRef[] },
    ): Promise<void> {
      const scope = await access.project(actor, accountRef, projectRef);
      const onlySelf =
        !(input.groupRefs?.length) && input.userRefs?.length === 1 && 'uuid' in input.userRefs[0]! && input.userRefs[0].uuid === actor.userId;
      if (!onlySelf) requireMembersWrite(scope, scope.project.rootWorkzoneId, 'remove-contributor-forbidden');
      await store.transaction(async (repos) => {
        await lockProjectMembership(repos, scope.project.id);
        for (const ref of input.userRefs ?? []) {
          const user = await resolveUser(repos, ref);
          if (user) await removeWholeMember(repos, scope, 'user', user.id);
        }
        for (const ref of input.groupRefs ?? []) {
          const group = await repos.groups.byRef(scope.account.account.id, ref);
          if (group) await removeWholeMember(repos, scope, 'group', group.id);
        }
      });
    },

    /**
     * Removes a user from a work zone and everything below it; when he is also a member of
     * parent zones, those too, but only with allowRemoveOnParents (rule 3). Anyone may remove himself.
     */
    async removeFromWorkzone(
      actor: Actor,
      accountRef: EntityRef,
      projectRef: EntityRef,
      workzoneRef: EntityRef,
      userRef: EntityRef,
      allowRemoveOnParents: boolean,
    ): Promise<void> {
      const scope = await access.project(actor, accountRef, projectRef);
      const projectId = scope.project.id;
      await store.transaction(async (repos) => {
        await lockProjectMembership(repos, projectId);
        const w = await repos.workzones.byRef(projectId, workzoneRef);
        if (!w) throw notFound('workzone', refValue(workzoneRef));
        const user = await resolveUser(repos, userRef);
        // A user of another tenant answers as an unknown one (docs/security.md "Existence across tenants");
        // one whose invitation to the account is pending is in it, with his grants waiting.
        const accountId = scope.account.account.id;
        const inAccount = user && ((await repos.accounts.member(accountId, user.id)) || (await repos.accountInvitations.get(accountId, user.id)));
        if (!user || !inAccount) throw notFound('user', refValue(userRef));
        const self = user.id === actor.userId;
        if (!self) requireMembersWrite(scope, w.id, 'remove-contributor-from-work-zone-forbidden');
        const mine = (await repos.members.accessList(projectId)).find((m) => m.memberType === 'user' && m.memberId === user.id);
        if (!mine) return;
        const zones = new Set(mine.workzoneIds);
        const parents = (await repos.workzones.ancestors(w.id)).filter((z) => zones.has(z));
        if (parents.length && !allowRemoveOnParents) {
          throw invalidInput(
            "Invalid parameter allowRemoveOnParents: the user is a member of a parent work zone and 'allowRemoveOnParents' is false",
            { field: 'allowRemoveOnParents', workzoneIds: parents },
          );
        }
        if (!self) for (const z of parents) requireMembersWrite(scope, z, 'remove-contributor-from-work-zone-forbidden');
        await repos.members.revokeAccess(projectId, 'user', user.id, [...(await repos.workzones.subtree(w.id)), ...parents]);
        await repos.members.dropMembersWithoutAccess(projectId);
        await repos.events.publish(projectEventOf('member.access-removed', scope.project, subjectOf('project', projectId), {
          memberType: 'user', memberId: user.id, workzoneId: w.id,
        }), clock.now());
      });
    },

    /** The project's users: direct members and the users of member groups. */
    async listMembers(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<UserRecord[]> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      requirePermission(scope.permissions, 'project:members:list', 'list-project-members-forbidden');
      const ids = new Set<string>();
      for (const m of await store.repos.members.accessList(scope.project.id)) {
        const userIds =
          m.memberType === 'user' ? [m.memberId] : ((await store.repos.groups.byRef(scope.account.account.id, { uuid: m.memberId }))?.userIds ?? []);
        for (const id of userIds) ids.add(id);
      }
      return [...(await usersAsSeen(store.repos, scope.account.account.id, ids)).values()];
    },

    /** Every member with every work zone it reaches (rule 4). */
    async listAccess(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<MemberAccessView[]> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      requirePermission(scope.permissions, 'project:members:list', 'list-project-members-forbidden');
      const out: MemberAccessView[] = [];
      const list = (await store.repos.members.accessList(scope.project.id)) as MemberAccess[];
      const users = await usersAsSeen(store.repos, scope.account.account.id, list.filter((m) => m.memberType === 'user').map((m) => m.memberId));
      for (const m of list) {
        if (m.memberType === 'user') {
          const u = users.get(m.memberId);
          if (!u) continue;
          out.push({ member: { type: 'user', id: u.id, email: u.email }, roleId: m.roleId, expirationDate: m.expiresAt, workzoneIds: m.workzoneIds });
        } else {
          const g = await store.repos.groups.byRef(scope.account.account.id, { uuid: m.memberId });
          if (!g) continue;
          out.push({ member: { type: 'group', id: g.id, name: g.name }, roleId: m.roleId, expirationDate: m.expiresAt, workzoneIds: m.workzoneIds });
        }
      }
      return out;
    },
  };
}
