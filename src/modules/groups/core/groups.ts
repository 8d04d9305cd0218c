// Groups of an account (vendor "Group"; CONTRACT §6): a name unique per account
// (case-insensitive, 409), members who must belong to the account.
import { eventOf, subjectOf, type DomainEventData } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { UniqueViolation, type Repos, type UserRecord } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer, type ForbiddenCode } from '../../../core/permissions/authorizer.ts';
import { findByRef } from '../../../core/ids/refs.ts';
import type { GroupRecord, GroupsRepos } from './ports.ts';
import type { MembersRepos } from '../../members/index.ts';
import type { GroupEventType } from './events.ts';
import './errors.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export interface GroupInput {
  name?: string | null;
  description?: string | null;
  color?: string | null;
}

const duplicate = (name: string) =>
  new DomainError('conflict', 'group-already-exists', `Group name '${name}' already exists`, { name });


/** The users the references name, each a member of the account (404 user-not-found otherwise). */
async function resolveAccountUsers(repos: Pick<Repos & AccountsRepos, 'accounts' | 'users'>, accountId: string, refs: EntityRef[]): Promise<UserRecord[]> {
  const out = new Map<string, UserRecord>();
  for (const ref of refs) {
    const user = await findByRef(repos.users, ref);
    const member = user && (await repos.accounts.member(accountId, user.id));
    if (!user || !member) throw notFound('user', refValue(ref));
    out.set(user.id, user);
  }
  return [...out.values()];
}

function groupFields(input: GroupInput) {
  const name = input.name?.trim();
  if (!name) throw invalidInput('name is required', { field: 'name' });
  return { name, description: input.description ?? '', color: input.color ?? null };
}

/** The user groups of an account (spec "Group"). */
export interface Groups {
  /** The groups of the account. */
  listGroups(actor: Actor, accountRef: EntityRef): Promise<GroupRecord[]>;
  /** One group of the account. */
  getGroup(actor: Actor, accountRef: EntityRef, groupRef: EntityRef): Promise<GroupRecord>;
  /** Creates a group of users of the account. */
  createGroup(actor: Actor, accountRef: EntityRef, input: GroupInput): Promise<GroupRecord>;
  /** PUT overwrites: a missing description or colour is erased. */
  updateGroup(actor: Actor, accountRef: EntityRef, groupRef: EntityRef, input: GroupInput): Promise<GroupRecord>;
  /** Deletes a group; its members lose the access it gave them. */
  deleteGroup(actor: Actor, accountRef: EntityRef, groupRef: EntityRef): Promise<void>;
  /** Adds users of the account to the group. */
  addGroupMembers(actor: Actor, accountRef: EntityRef, groupRef: EntityRef, userRefs: EntityRef[]): Promise<GroupRecord>;
  /** Removes users from the group. */
  removeGroupMembers(actor: Actor, accountRef: EntityRef, groupRef: EntityRef, userRefs: EntityRef[]): Promise<GroupRecord>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const GROUPS_STORE = storeUseOf<Repos & AccountsRepos & MembersRepos & GroupsRepos>()({ reads: ['groups'], writes: ['accounts', 'events', 'groups', 'members', 'users'] });

export function createGroups(deps: { store: SliceOf<typeof GROUPS_STORE, Repos & AccountsRepos & MembersRepos & GroupsRepos>; clock: Clock; ids: Ids; authorizer: Authorizer }): Groups {
  const { clock, ids, authorizer } = deps;
  const store = sliceOf(deps.store, GROUPS_STORE);

  async function groupIn(repos: GroupsRepos, accountId: string, ref: EntityRef): Promise<GroupRecord> {
    const g = await repos.groups.byRef(accountId, ref);
    if (!g) throw notFound('group', refValue(ref));
    return g;
  }

  const publish = <K extends GroupEventType>(repos: Pick<Repos, 'events'>, scope: AccountScope, type: K, data: DomainEventData[K]) =>
    repos.events.publish(eventOf(type, scope.account.id, subjectOf('group', data.groupId), data), clock.now());

  async function writeScope(actor: Actor, accountRef: EntityRef, code: ForbiddenCode): Promise<AccountScope> {
    const scope = await authorizer.account(actor, accountRef);
    requirePermission(scope.permissions, 'account:groups:write', code);
    return scope;
  }

  /** Runs a group change, which publishes its event; a unique-name clash answers 409. */
  async function change<T>(name: string, fn: (repos: Pick<Repos & AccountsRepos & MembersRepos & GroupsRepos, 'accounts' | 'events' | 'groups' | 'members' | 'users'>) => Promise<T>): Promise<T> {
    try {
      return await store.transaction(fn);
    } catch (e) {
      if (e instanceof UniqueViolation) throw duplicate(name);
      throw e;
    }
  }

  return {
    async listGroups(actor: Actor, accountRef: EntityRef): Promise<GroupRecord[]> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:groups:read', 'list-groups-forbidden');
      return store.repos.groups.listByAccount(scope.account.id);
    },

    async getGroup(actor: Actor, accountRef: EntityRef, groupRef: EntityRef): Promise<GroupRecord> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:groups:read', 'view-group-forbidden');
      return groupIn(store.repos, scope.account.id, groupRef);
    },

    async createGroup(actor: Actor, accountRef: EntityRef, input: GroupInput): Promise<GroupRecord> {
      const scope = await writeScope(actor, accountRef, 'create-group-forbidden');
      const fields = groupFields(input);
      return change(fields.name, async (repos) => {
        if (await repos.groups.byName(scope.account.id, fields.name)) throw duplicate(fields.name);
        const now = clock.now();
        const group = await repos.groups.insert(
          { id: ids.uuid(), accountId: scope.account.id, ...fields, createdBy: actor.userId },
          now,
        );
        await publish(repos, scope, 'group.created', { groupId: group.id });
        return group;
      });
    },

    /** PUT overwrites: a missing description or colour is erased. */
    async updateGroup(actor: Actor, accountRef: EntityRef, groupRef: EntityRef, input: GroupInput): Promise<GroupRecord> {
      const scope = await writeScope(actor, accountRef, 'update-group-forbidden');
      const fields = groupFields(input);
      return change(fields.name, async (repos) => {
        const g = await groupIn(repos, scope.account.id, groupRef);
        const clash = await repos.groups.byName(scope.account.id, fields.name);
        if (clash && clash.id !== g.id) throw duplicate(fields.name);
        await repos.groups.update(g.id, fields, clock.now());
        await publish(repos, scope, 'group.updated', { groupId: g.id });
        return (await repos.groups.byRef(scope.account.id, { uuid: g.id }))!;
      });
    },

    async deleteGroup(actor: Actor, accountRef: EntityRef, groupRef: EntityRef): Promise<void> {
      const scope = await writeScope(actor, accountRef, 'delete-group-forbidden');
      await change('', async (repos) => {
        const g = await groupIn(repos, scope.account.id, groupRef);
        await repos.members.removeGroupEverywhere(g.id);
        await repos.groups.remove(g.id);
        await publish(repos, scope, 'group.deleted', { groupId: g.id });
      });
    },

    async addGroupMembers(actor: Actor, accountRef: EntityRef, groupRef: EntityRef, userRefs: EntityRef[]) {
      const scope = await writeScope(actor, accountRef, 'update-group-forbidden');
      return change('', async (repos) => {
        const g = await groupIn(repos, scope.account.id, groupRef);
        const users = await resolveAccountUsers(repos, scope.account.id, userRefs);
        await repos.groups.addMembers(g.id, users.map((u) => u.id), clock.now());
        await repos.groups.touch(g.id, clock.now());
        for (const u of users.filter((x) => !g.userIds.includes(x.id))) await publish(repos, scope, 'group.member-added', { groupId: g.id, userId: u.id });
        return (await repos.groups.byRef(scope.account.id, { uuid: g.id }))!;
      });
    },

    async removeGroupMembers(actor: Actor, accountRef: EntityRef, groupRef: EntityRef, userRefs: EntityRef[]) {
      const scope = await writeScope(actor, accountRef, 'update-group-forbidden');
      return change('', async (repos) => {
        const g = await groupIn(repos, scope.account.id, groupRef);
        const users = await resolveAccountUsers(repos, scope.account.id, userRefs);
        // Vendor removeGroupMembers: naming a user who is not in the group refuses the whole call.
        const missing = users.filter((u) => !g.userIds.includes(u.id));
        if (missing.length) {
          throw new DomainError('invalid', 'users-not-in-groups', 'Some of the users are not in the group', {
            users: missing.map((u) => u.id).join(','),
          });
        }
        await repos.groups.removeMembers(g.id, users.map((u) => u.id));
        await repos.groups.touch(g.id, clock.now());
        for (const u of users) await publish(repos, scope, 'group.member-removed', { groupId: g.id, userId: u.id });
        return (await repos.groups.byRef(scope.account.id, { uuid: g.id }))!;
      });
    },
  };
}
