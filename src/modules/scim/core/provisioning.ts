// SCIM provisioning of one account (docs/identity.md "SCIM provisioning"): its users (the
// owner and members; those the IdP deactivated) and its groups, as Okta and Entra ID create,
// read, filter, update and deactivate them. The caller is the account's SCIM token (checked by
// the surface before any of this runs), so every call is about `accountId` alone.
//
// Deactivating a user (active=false, or DELETE) takes every access he has through the account
// at once: his browser sessions, refresh tokens and codes end and his access tokens are refused
// from the next request on every node (the oauth module's revocation point, endEverySession,
// and the `user:<id>` event every node's bearer cache listens to); he leaves the account, its
// groups and its projects in the same transaction (as the account's "remove member" does).
// Reactivating him makes him a member again, with no account role: his access comes back
// through the groups the IdP puts him in.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { GroupRecord } from '../../groups/index.ts';
import { endEverySession } from '../../oauth/index.ts';
import { domainOfEmail } from '../../sso/index.ts';
import { matches, parseFilter } from './filter.ts';
import { groupChanges, patchOperations, scimBoolean, scimString, TEXT_MAX, userChanges, type UserChanges } from './patch.ts';
import type { ScimUserView, ScimRepos } from './ports.ts';
import { groupResource, listResponse, pageOf, userResource, type Resource } from './resources.ts';
import { scimInvalid, scimNotFound, ScimError } from './scim-error.ts';

/** The repositories provisioning uses, outside transactions and in them (the same helpers serve both). */
type Tx = Pick<ScimRepos, 'accounts' | 'events' | 'groups' | 'locks' | 'members' | 'oauth' | 'projects' | 'scim' | 'sso' | 'users'>;

export interface ListQuery {
  filter?: string;
  startIndex?: number;
  count?: number;
  /** `members` left out of groups (Entra ID asks excludedAttributes=members). */
  excludeMembers?: boolean;
}

export interface ScimProvisioning {
  listUsers(accountId: string, q: ListQuery): Promise<Resource>;
  getUser(accountId: string, id: string): Promise<Resource>;
  createUser(accountId: string, body: unknown): Promise<Resource>;
  replaceUser(accountId: string, id: string, body: unknown): Promise<Resource>;
  patchUser(accountId: string, id: string, body: unknown): Promise<Resource>;
  deleteUser(accountId: string, id: string): Promise<void>;
  listGroups(accountId: string, q: ListQuery): Promise<Resource>;
  getGroup(accountId: string, id: string, excludeMembers?: boolean): Promise<Resource>;
  createGroup(accountId: string, body: unknown): Promise<Resource>;
  replaceGroup(accountId: string, id: string, body: unknown): Promise<Resource>;
  patchGroup(accountId: string, id: string, body: unknown): Promise<Resource>;
  deleteGroup(accountId: string, id: string): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const objectBody = (body: unknown): Record<string, unknown> => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw scimInvalid('the body must be a JSON object', 'invalidSyntax');
  return body as Record<string, unknown>;
};

const optionalString = (name: string, v: unknown): string | undefined => (v === undefined || v === null ? undefined : scimString(name, v, TEXT_MAX));

/** The e-mail address of a new user: userName when it is one (Entra ID's UPN, Okta's login), else the primary e-mail. */
function emailOf(body: Record<string, unknown>, userName: string): string {
  if (EMAIL.test(userName)) return userName.toLowerCase();
  const emails = Array.isArray(body.emails) ? (body.emails as Record<string, unknown>[]) : [];
  const chosen = emails.find((e) => e?.primary === true || e?.primary === 'True') ?? emails[0];
  if (chosen && typeof chosen.value === 'string' && EMAIL.test(chosen.value)) return chosen.value.toLowerCase();
  throw scimInvalid('userName or a primary e-mail must be an e-mail address');
}

/** A user's fields as a full representation (POST, PUT) gives them. */
function userFields(body: Record<string, unknown>): UserChanges & { userName: string } {
  const userName = scimString('userName', body.userName, 320);
  if (!userName) throw scimInvalid('userName is required');
  const name = body.name && typeof body.name === 'object' ? (body.name as Record<string, unknown>) : {};
  return {
    userName,
    givenName: optionalString('name.givenName', name.givenName) ?? '',
    familyName: optionalString('name.familyName', name.familyName) ?? '',
    title: optionalString('title', body.title) ?? '',
    externalId: optionalString('externalId', body.externalId) ?? null,
    active: body.active === undefined ? true : scimBoolean('active', body.active),
  };
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SCIM_PROVISIONING_STORE = storeUseOf<ScimRepos>()({ reads: ['accounts', 'events', 'groups', 'locks', 'members', 'oauth', 'projects', 'scim', 'sso', 'users'], writes: ['accounts', 'events', 'groups', 'locks', 'members', 'oauth', 'projects', 'scim', 'sso', 'users'] });

export function createScimProvisioning(deps: { store: SliceOf<typeof SCIM_PROVISIONING_STORE, ScimRepos>; clock: Clock; ids: Ids; baseUrl: string }): ScimProvisioning {
  const { clock, ids, baseUrl } = deps;
  const store = sliceOf(deps.store, SCIM_PROVISIONING_STORE);

  async function userIn(repos: Tx, accountId: string, id: string): Promise<ScimUserView> {
    const u = UUID.test(id) ? await repos.scim.user(accountId, id) : null;
    if (!u) throw scimNotFound('User', id);
    return u;
  }

  async function groupIn(repos: Tx, accountId: string, id: string): Promise<GroupRecord> {
    const g = UUID.test(id) ? await repos.groups.byRef(accountId, { uuid: id }) : null;
    if (!g) throw scimNotFound('Group', id);
    return g;
  }

  /** Takes the user's access through the account, and every session of his, at once. */
  async function deactivate(repos: Tx, accountId: string, userId: string, now: Date): Promise<void> {
    const account = await repos.accounts.byId(accountId);
    if (account?.ownerId === userId) throw scimInvalid('The account owner cannot be deactivated: transfer the account first', 'mutability');
    const owned = await repos.projects.ownedBy(userId, accountId);
    if (owned.length) throw scimInvalid(`The user owns projects of the account (${owned.join(', ')}): transfer them first`, 'mutability');
    // The lock every token issuance takes: no pair is half-issued across the revocation.
    await repos.users.lock(userId);
    await endEverySession(repos, userId, now);
    await repos.events.publish(eventOf('user.signed-out-everywhere', null, subjectOf('user', userId), { userId }), now);
    for (const g of await repos.groups.listByAccount(accountId)) {
      if (!g.userIds.includes(userId)) continue;
      await repos.groups.removeMembers(g.id, [userId]);
      await repos.groups.touch(g.id, now);
      await repos.events.publish(eventOf('group.member-removed', accountId, subjectOf('group', g.id), { groupId: g.id, userId }), now);
    }
    await repos.members.removeUserFromAccountProjects(accountId, userId);
    await repos.accounts.removeMember(accountId, userId);
    await repos.events.publish(eventOf('user.removed', accountId, subjectOf('user', userId), { userId }), now);
  }

  async function activate(repos: Tx, accountId: string, userId: string, now: Date): Promise<void> {
    await repos.accounts.upsertMember({ accountId, userId, roles: [], invitedBy: null, invitedAt: null });
    await repos.events.publish(eventOf('user.added', accountId, subjectOf('user', userId), { userId, invitedBy: userId, roles: [] }), now);
  }

  /** Applies a user's changes in the caller's transaction; answers him as he is after them. */
  async function applyUser(repos: Tx, accountId: string, user: ScimUserView, c: UserChanges): Promise<Resource> {
    const now = clock.now();
    const userName = c.userName ?? user.userName;
    if (userName.toLowerCase() !== user.userName.toLowerCase() && (await repos.scim.userNamed(accountId, userName))) {
      throw new ScimError(409, `A user with userName ${userName} exists in the account`, 'uniqueness');
    }
    const names: { firstName?: string; lastName?: string; title?: string } = {};
    if (c.givenName !== undefined && c.givenName !== user.firstName) names.firstName = c.givenName;
    if (c.familyName !== undefined && c.familyName !== user.lastName) names.lastName = c.familyName;
    if (c.title !== undefined && c.title !== user.title) names.title = c.title;
    if (Object.keys(names).length) await repos.users.update(user.id, names, now);
    const active = c.active ?? user.member;
    if (!active && user.member) await deactivate(repos, accountId, user.id, now);
    if (active && !user.member) await activate(repos, accountId, user.id, now);
    await repos.scim.putUser({
      accountId, userId: user.id, userName: userName.toLowerCase() === user.email.toLowerCase() ? null : userName,
      externalId: c.externalId === undefined ? user.externalId : c.externalId, active,
    }, now);
    return userResource((await repos.scim.user(accountId, user.id))!, baseUrl);
  }

  const list = (all: Resource[], q: ListQuery): Resource => {
    const filter = q.filter ? parseFilter(q.filter) : null;
    return listResponse(filter ? all.filter((r) => matches(r, filter)) : all, pageOf(q.startIndex, q.count));
  };

  async function groupView(repos: Tx, accountId: string, g: GroupRecord, withMembers = true): Promise<Resource> {
    const [external, users] = await Promise.all([repos.scim.groupExternalIds(accountId), withMembers ? repos.scim.users(accountId) : []]);
    return groupResource(g, external.get(g.id) ?? null, new Map(users.map((u) => [u.id, u.email])), baseUrl, withMembers);
  }

  /** The users a group change names must be active users of the account. */
  async function activeMembers(repos: Tx, accountId: string, userIds: string[]): Promise<string[]> {
    const unique = [...new Set(userIds)];
    const members = new Set((await repos.scim.users(accountId)).filter((u) => u.member).map((u) => u.id));
    const unknown = unique.filter((id) => !members.has(id));
    if (unknown.length) throw scimInvalid(`Not active users of the account: ${unknown.slice(0, 10).join(', ')}`);
    return unique;
  }

  async function setMembers(repos: Tx, accountId: string, g: GroupRecord, add: string[], remove: string[], now: Date): Promise<void> {
    const adding = (await activeMembers(repos, accountId, add)).filter((id) => !g.userIds.includes(id));
    const removing = [...new Set(remove)].filter((id) => g.userIds.includes(id) && !adding.includes(id));
    if (!adding.length && !removing.length) return;
    if (adding.length) await repos.groups.addMembers(g.id, adding, now);
    if (removing.length) await repos.groups.removeMembers(g.id, removing);
    await repos.groups.touch(g.id, now);
    for (const userId of adding) await repos.events.publish(eventOf('group.member-added', accountId, subjectOf('group', g.id), { groupId: g.id, userId }), now);
    for (const userId of removing) await repos.events.publish(eventOf('group.member-removed', accountId, subjectOf('group', g.id), { groupId: g.id, userId }), now);
  }

  async function rename(repos: Tx, accountId: string, g: GroupRecord, name: string, now: Date): Promise<void> {
    if (!name) throw scimInvalid('displayName is required');
    if (name === g.name) return;
    const clash = await repos.groups.byName(accountId, name);
    if (clash && clash.id !== g.id) throw new ScimError(409, `A group named ${name} exists already`, 'uniqueness');
    await repos.groups.update(g.id, { name, description: g.description, color: g.color }, now);
    await repos.events.publish(eventOf('group.updated', accountId, subjectOf('group', g.id), { groupId: g.id }), now);
  }

  const reread = async (repos: Tx, accountId: string, id: string) => (await repos.groups.byRef(accountId, { uuid: id }))!;

  return {
    async listUsers(accountId, q) {
      return list((await store.repos.scim.users(accountId)).map((u) => userResource(u, baseUrl)), q);
    },

    async getUser(accountId, id) {
      return userResource(await userIn(store.repos, accountId, id), baseUrl);
    },

    async createUser(accountId, body) {
      const b = objectBody(body);
      const fields = userFields(b);
      const email = emailOf(b, fields.userName);
      return store.transaction(async (repos) => {
        await repos.locks.exclusive([`scim-user:${accountId}`]);
        const now = clock.now();
        if (await repos.scim.userNamed(accountId, fields.userName)) throw new ScimError(409, `A user with userName ${fields.userName} exists in the account`, 'uniqueness');
        let user = await repos.users.byEmail(email);
        if (user) {
          if (await repos.scim.user(accountId, user.id)) throw new ScimError(409, `A user with the e-mail address ${email} exists in the account`, 'uniqueness');
          // Someone else's user joins the account only when the account holds his e-mail domain.
          const claim = await repos.sso.verifiedDomain(domainOfEmail(email) ?? '');
          if (claim?.accountId !== accountId) {
            throw new ScimError(409, `${email} is a Scanbase user outside this account: invite him, or verify the domain ${domainOfEmail(email)} for single sign-on`, 'uniqueness');
          }
        } else {
          user = await repos.users.insert({
            id: ids.uuid(), email, passwordHash: null, invitedBy: null, invitedAt: null,
            firstName: fields.givenName ?? '', lastName: fields.familyName ?? '', company: '', title: fields.title ?? '',
          }, now);
        }
        if (fields.active) await activate(repos, accountId, user.id, now);
        const userName = fields.userName.toLowerCase() === email ? null : fields.userName;
        await repos.scim.putUser({ accountId, userId: user.id, userName, externalId: fields.externalId ?? null, active: fields.active ?? true }, now);
        const view = (await repos.scim.user(accountId, user.id))!;
        return applyUser(repos, accountId, view, { givenName: fields.givenName, familyName: fields.familyName, title: fields.title });
      });
    },

    async replaceUser(accountId, id, body) {
      const fields = userFields(objectBody(body));
      return store.transaction(async (repos) => applyUser(repos, accountId, await userIn(repos, accountId, id), fields));
    },

    async patchUser(accountId, id, body) {
      const changes = userChanges(patchOperations(body));
      return store.transaction(async (repos) => applyUser(repos, accountId, await userIn(repos, accountId, id), changes));
    },

    async deleteUser(accountId, id) {
      await store.transaction(async (repos) => {
        const user = await userIn(repos, accountId, id);
        if (user.member) await deactivate(repos, accountId, user.id, clock.now());
        await repos.scim.removeUser(accountId, user.id);
      });
    },

    async listGroups(accountId, q) {
      const [groups, external, users] = await Promise.all([
        store.repos.groups.listByAccount(accountId), store.repos.scim.groupExternalIds(accountId), store.repos.scim.users(accountId),
      ]);
      const emails = new Map(users.map((u) => [u.id, u.email]));
      // Filtering sees members even when the answer leaves them out.
      const filter = q.filter ? parseFilter(q.filter) : null;
      const kept = groups.filter((g) => !filter || matches(groupResource(g, external.get(g.id) ?? null, emails, baseUrl), filter));
      return listResponse(kept.map((g) => groupResource(g, external.get(g.id) ?? null, emails, baseUrl, !q.excludeMembers)), pageOf(q.startIndex, q.count));
    },

    async getGroup(accountId, id, excludeMembers = false) {
      return groupView(store.repos, accountId, await groupIn(store.repos, accountId, id), !excludeMembers);
    },

    async createGroup(accountId, body) {
      const b = objectBody(body);
      const name = scimString('displayName', b.displayName, TEXT_MAX);
      if (!name) throw scimInvalid('displayName is required');
      const externalId = optionalString('externalId', b.externalId) ?? null;
      const members = b.members === undefined || b.members === null ? [] : groupChanges([{ op: 'add', path: 'members', value: b.members }]).addMembers;
      return store.transaction(async (repos) => {
        await repos.locks.exclusive([`scim-group:${accountId}:${name.toLowerCase()}`]);
        if (await repos.groups.byName(accountId, name)) throw new ScimError(409, `A group named ${name} exists already`, 'uniqueness');
        const now = clock.now();
        const g = await repos.groups.insert({ id: ids.uuid(), accountId, name, description: '', color: null, createdBy: null }, now);
        await repos.events.publish(eventOf('group.created', accountId, subjectOf('group', g.id), { groupId: g.id }), now);
        if (externalId !== null) await repos.scim.putGroupExternalId(accountId, g.id, externalId);
        await setMembers(repos, accountId, g, members, [], now);
        return groupView(repos, accountId, await reread(repos, accountId, g.id));
      });
    },

    async replaceGroup(accountId, id, body) {
      const b = objectBody(body);
      const name = scimString('displayName', b.displayName, TEXT_MAX);
      const externalId = optionalString('externalId', b.externalId) ?? null;
      const members = b.members === undefined || b.members === null ? [] : groupChanges([{ op: 'add', path: 'members', value: b.members }]).addMembers;
      return store.transaction(async (repos) => {
        const g = await groupIn(repos, accountId, id);
        const now = clock.now();
        await rename(repos, accountId, g, name, now);
        await repos.scim.putGroupExternalId(accountId, g.id, externalId);
        await setMembers(repos, accountId, g, members, g.userIds.filter((u) => !members.includes(u)), now);
        return groupView(repos, accountId, await reread(repos, accountId, g.id));
      });
    },

    async patchGroup(accountId, id, body) {
      const c = groupChanges(patchOperations(body));
      return store.transaction(async (repos) => {
        const g = await groupIn(repos, accountId, id);
        const now = clock.now();
        if (c.displayName !== undefined) await rename(repos, accountId, g, c.displayName, now);
        if (c.externalId !== undefined) await repos.scim.putGroupExternalId(accountId, g.id, c.externalId);
        const base = c.replaceMembers ?? g.userIds;
        const target = new Set([...base.filter((u) => !c.removeMembers.includes(u)), ...c.addMembers]);
        await setMembers(repos, accountId, g, [...target], g.userIds.filter((u) => !target.has(u)), now);
        return groupView(repos, accountId, await reread(repos, accountId, g.id));
      });
    },

    async deleteGroup(accountId, id) {
      await store.transaction(async (repos) => {
        const g = await groupIn(repos, accountId, id);
        await repos.members.removeGroupEverywhere(g.id);
        await repos.groups.remove(g.id);
        await repos.events.publish(eventOf('group.deleted', accountId, subjectOf('group', g.id), { groupId: g.id }), clock.now());
      });
    },
  };
}
