// Projects (vendor "Project"; spec "States and transitions"): list, create with a root
// work zone, get, overwrite or patch, soft delete then permanent delete, restore.
// Owner and subscription changes only by the account owner, an administrator or the
// project owner, and only to a project manager.
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { findByRef } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { Location, ProjectFields, ProjectRecord, ProjectStats, ProjectsRepos, SpatialReference } from './ports.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { projectPermissions, workzonePermissions } from '../../../core/permissions/evaluate.ts';
import { refusalValues } from '../../../core/permissions/granted-by.ts';
import { lockProjectMembership, type ProjectAccess, type ProjectScope } from './project-access.ts';
import { earliestExpiry, type BuiltList, type ProjectLists, type ProjectView, type StatsWanted } from './project-lists.ts';
import type { AccountsRepos, SubscriptionRecord } from '../../accounts/index.ts';
export type { ProjectView, StatsWanted };
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { RolesRepos } from '../../roles/index.ts';
import type { MembersRepos } from '../../members/index.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

export interface ProjectInput {
  name?: string;
  description?: string | null;
  subscriptionRef?: EntityRef;
  ownerRef?: EntityRef;
  location?: Location | null;
  spatialReference?: SpatialReference | null;
  coverBlobName?: string | null;
}


/** A name as stored: trimmed, and not blank (a name of spaces only is 400 invalid-input). */
export function requiredName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidInput(`${field} must not be blank`, { field });
  return trimmed;
}

function pickStats(s: ProjectStats | undefined, want: StatsWanted): Partial<ProjectStats> | null {
  if (!want.scans && !want.tags && !want.workzones) return null;
  const v = s ?? { workzoneCount: 0, scanCount: 0, scanSize: 0, tagCount: 0 };
  return {
    ...(want.scans ? { scanCount: v.scanCount, scanSize: v.scanSize } : {}),
    ...(want.tags ? { tagCount: v.tagCount } : {}),
    ...(want.workzones ? { workzoneCount: v.workzoneCount } : {}),
  };
}

export async function managerRoleId(repos: Pick<Repos & RolesRepos, 'roles'>, accountId: string): Promise<string> {
  // The roles module's repository (a project's manager role is the account's base role).
  const { roles } = repos;
  const manager = (await roles.listByAccount(accountId)).find((r) => r.isBase && r.name === 'Manager');
  if (!manager) throw new DomainError('conflict', 'role-not-found', 'The account has no Manager base role');
  return manager.id;
}

/**
 * Writes a new project with its root work zone in the caller's transaction. The owner
 * and, when the subscription says so, the account owner join as managers of the root.
 */
export async function insertProjectRows(
  repos: Pick<Repos & ProjectsRepos & MembersRepos & RolesRepos & WorkzonesRepos, 'events' | 'members' | 'projects' | 'roles' | 'workzones'>,
  p: {
    id: string; rootId: string; accountId: string; accountOwnerId: string; subscription: SubscriptionRecord; ownerId: string;
    name: string; description: string; location: Location | null; spatialReference: SpatialReference | null; now: Date;
  },
): Promise<void> {
  await repos.projects.insert({
    id: p.id, accountId: p.accountId, subscriptionId: p.subscription.id, name: p.name, description: p.description,
    ownerId: p.ownerId, location: p.location, spatialReference: p.spatialReference, region: 'default', isDemo: false,
    rootWorkzoneId: p.rootId, coverBlobName: null, createdAt: p.now, createdBy: p.ownerId,
  });
  await repos.workzones.insert({
    id: p.rootId, projectId: p.id, parentId: null, name: p.name, description: '', coverBlobName: null, createdAt: p.now, createdBy: p.ownerId,
  });
  const manager = await managerRoleId(repos, p.accountId);
  const joiners = new Set([p.ownerId]);
  if (p.subscription.inviteAccountOwnerInNewProjects) joiners.add(p.accountOwnerId);
  for (const userId of joiners) {
    await repos.members.upsertMember({ projectId: p.id, memberType: 'user', memberId: userId, roleId: manager, expiresAt: null }, p.ownerId, p.now);
    await repos.members.grantAccess(p.id, 'user', userId, [p.rootId]);
  }
  await repos.events.publish(projectEventOf('project.created', { id: p.id, accountId: p.accountId }, subjectOf('project', p.id), {
    subscriptionId: p.subscription.id, ownerId: p.ownerId, rootWorkzoneId: p.rootId,
  }), p.now);
}

export const subscriptionNotActive = (s: SubscriptionRecord) =>
  new DomainError('invalid', 'subscription-not-active', 'The subscription is not active', { subscriptionId: s.id });

/** The project use cases of both API generations (spec "Project"). */
export interface Projects {
  /**
   * The projects of an account the caller may see (members: theirs; listers: all). While the
   * caller's list is cached (project-lists.ts) every call answers the same array: treat it as
   * read-only.
   */
  listProjects(actor: Actor, accountRef: EntityRef, want: StatsWanted): Promise<ProjectView[]>;
  /**
   * The projects a caller sees; with a work zone, only the project owning it when the
   * caller sees that project (a find never answers 403 for a project it filters out).
   */
  visibleProjects(actor: Actor, accountRef: EntityRef, workzoneRef?: EntityRef): Promise<ProjectRecord[]>;
  /** Creates a project in a subscription; the caller becomes its owner. */
  createProject(actor: Actor, accountRef: EntityRef, input: Required<Pick<ProjectInput, 'name' | 'subscriptionRef'>> & ProjectInput): Promise<ProjectView>;
  /** One project as the caller may see it. */
  getProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, want: StatsWanted): Promise<ProjectView>;
  /** PUT (every field; a missing one is erased) or PATCH (only the given fields). */
  updateProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: ProjectInput, mode: 'put' | 'patch', want: StatsWanted): Promise<ProjectView>;
  /** Soft delete; `permanent` removes a deleted project for good. */
  deleteProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, permanent: boolean): Promise<void>;
  /** Restores a deleted (not permanently deleted) project. */
  restoreProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, want: StatsWanted): Promise<ProjectView>;
}

/** The spatial references a project may name (the values module's list, src/modules/values). */
export interface SpatialReferenceCheck {
  findSpatialReference(authName: string, code: string): object | undefined;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const PROJECTS_STORE = storeUseOf<Repos & ProjectsRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos>()({ reads: ['members', 'projects'], writes: ['accounts', 'events', 'locks', 'members', 'projects', 'roles', 'subscriptions', 'users', 'workzones'] });

export function createProjects(deps: {
  store: SliceOf<typeof PROJECTS_STORE, Repos & ProjectsRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  access: ProjectAccess;
  lists: ProjectLists;
  spatialReferences: SpatialReferenceCheck;
}): Projects {
  const { clock, ids, authorizer, access, lists, spatialReferences } = deps;
  const store = sliceOf(deps.store, PROJECTS_STORE);

  async function subscriptionOf(repos: Pick<Repos & AccountsRepos, 'subscriptions'>, accountId: string, ref: EntityRef): Promise<SubscriptionRecord> {
    const s = await findByRef(repos.subscriptions, ref);
    if (!s || s.accountId !== accountId) throw notFound('subscription', refValue(ref));
    return s;
  }

  function checkSpatialReference(sr: SpatialReference | null | undefined): void {
    if (sr && !spatialReferences.findSpatialReference(sr.authName, sr.code)) {
      throw invalidInput(`Unknown spatial reference ${sr.authName}:${sr.code}`, { field: 'spatialReference' });
    }
  }

  async function view(scope: ProjectScope, want: StatsWanted): Promise<ProjectView> {
    const stats = (await store.repos.projects.stats([scope.project.id])).get(scope.project.id);
    return {
      project: scope.project,
      permissions: [...scope.permissions],
      stats: pickStats(stats, want),
      bimOnRootWz: scope.workzone(scope.project.rootWorkzoneId).has('workzone:cad-model:read'),
    };
  }

  async function reload(actor: Actor, scope: ProjectScope, want: StatsWanted): Promise<ProjectView> {
    const fresh = await access.project(actor, { type: 'account', uuid: scope.account.account.id }, { type: 'project', uuid: scope.project.id }, { allowDeleted: true });
    return view(fresh, want);
  }

  /** The rows of the projects the caller sees: every project of the account (`all`: a lister), else those he is an unexpired member of. */
  function visibleRows(actor: Actor, accountId: string, all: boolean, now: Date): Promise<ProjectRecord[]> {
    return store.repos.projects.list(accountId, all ? { all: true } : { memberUserId: actor.userId, now });
  }

  /** The caller's list as built from the database (the rights evaluated at `now`). */
  async function buildList(actor: Actor, account: AccountScope, all: boolean, want: StatsWanted): Promise<BuiltList> {
    const now = clock.now();
    const projects = await visibleRows(actor, account.account.id, all, now);
    // A fixed number of queries for any number of projects: the list, the caller's grants
    // in all of them, and (when asked) their counts.
    const ids = projects.map((p) => p.id);
    const [stats, grantsByProject] = await Promise.all([
      want.scans || want.tags || want.workzones ? store.repos.projects.stats(ids) : new Map<string, ProjectStats>(),
      store.repos.members.grantsIn(ids, actor.userId),
    ]);
    // Projects whose facts differ only in their ids are evaluated alike: the rights are
    // evaluated once per distinct (owner or not, each grant's role, expiry and reach of
    // the root zone), a few for a thousand projects, and their answers shared.
    const evaluated = new Map<string, Pick<ProjectView, 'permissions' | 'bimOnRootWz'>>();
    const out: ProjectView[] = [];
    for (const p of projects) {
      const grants = grantsByProject.get(p.id) ?? [];
      const key = `${p.ownerId === actor.userId}|${grants.map((g) => `${g.roleId} ${g.expiresAt?.getTime()} ${g.workzoneIds.has(p.rootWorkzoneId)}`).join('|')}`;
      let rights = evaluated.get(key);
      if (!rights) {
        const facts = { projectId: p.id, ownerId: p.ownerId, rootWorkzoneId: p.rootWorkzoneId, grants };
        rights = {
          permissions: [...projectPermissions(actor.userId, account.facts, facts, now)],
          bimOnRootWz: workzonePermissions(actor.userId, account.facts, facts, p.rootWorkzoneId, now).has('workzone:cad-model:read'),
        };
        evaluated.set(key, rights);
      }
      out.push({ project: p, permissions: rights.permissions, stats: pickStats(stats.get(p.id), want), bimOnRootWz: rights.bimOnRootWz });
    }
    // An expiring membership ends the list as built (the project leaves it, or its rights change).
    return { views: out, validUntil: earliestExpiry(grantsByProject.values(), now) };
  }

  return {
    async listProjects(actor: Actor, accountRef: EntityRef, want: StatsWanted): Promise<ProjectView[]> {
      const account = await authorizer.account(actor, accountRef);
      requirePermission(account.permissions, 'account:account:read', 'list-projects-forbidden');
      const all = account.permissions.has('account:projects:list');
      return lists.read({ accountId: account.account.id, userId: actor.userId, all, want }, () => buildList(actor, account, all, want));
    },

    /**
     * The projects a caller sees; with a work zone, only the project owning it when the
     * caller sees that project (a find never answers 403 for a project it filters out).
     */
    async visibleProjects(actor: Actor, accountRef: EntityRef, workzoneRef?: EntityRef): Promise<ProjectRecord[]> {
      const account = await authorizer.account(actor, accountRef);
      requirePermission(account.permissions, 'account:account:read', 'list-projects-forbidden');
      const owning = workzoneRef ? await store.repos.projects.byWorkzone(account.account.id, workzoneRef) : null;
      if (workzoneRef && !owning) throw notFound('workzone', refValue(workzoneRef));
      const rows = await visibleRows(actor, account.account.id, account.permissions.has('account:projects:list'), clock.now());
      if (owning) return rows.some((p) => p.id === owning.id) || owning.ownerId === actor.userId ? [owning] : [];
      return rows;
    },

    async createProject(
      actor: Actor,
      accountRef: EntityRef,
      input: Required<Pick<ProjectInput, 'name' | 'subscriptionRef'>> & ProjectInput,
    ): Promise<ProjectView> {
      const account = await authorizer.account(actor, accountRef);
      requirePermission(account.permissions, 'account:projects:create', 'create-project-forbidden');
      checkSpatialReference(input.spatialReference);
      const name = requiredName(input.name);
      const accountId = account.account.id;
      const id = ids.uuid();
      const rootId = ids.uuid();
      const now = clock.now();
      await store.transaction(async (repos) => {
        const sub = await subscriptionOf(repos, accountId, input.subscriptionRef);
        if (!sub.isActive) throw subscriptionNotActive(sub);
        await insertProjectRows(repos, {
          id, rootId, accountId, accountOwnerId: account.account.ownerId, subscription: sub, ownerId: actor.userId,
          name, description: input.description ?? '', location: input.location ?? null,
          spatialReference: input.spatialReference ?? null, now,
        });
      });
      const scope = await access.project(actor, accountRef, { type: 'project', uuid: id });
      return view(scope, { scans: true, tags: true, workzones: true });
    },

    async getProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, want: StatsWanted): Promise<ProjectView> {
      const scope = await access.project(actor, accountRef, projectRef, { allowDeleted: true });
      return view(scope, want);
    },

    /** PUT (every field; a missing one is erased) or PATCH (only the given fields). */
    async updateProject(
      actor: Actor,
      accountRef: EntityRef,
      projectRef: EntityRef,
      input: ProjectInput,
      mode: 'put' | 'patch',
      want: StatsWanted,
    ): Promise<ProjectView> {
      const scope = await access.project(actor, accountRef, projectRef);
      const p = scope.project;
      const accountId = scope.account.account.id;
      checkSpatialReference(input.spatialReference);
      const put = mode === 'put';
      const next: ProjectFields = {
        name: input.name !== undefined ? requiredName(input.name) : p.name,
        description: input.description !== undefined ? (input.description ?? '') : put ? '' : p.description,
        location: input.location !== undefined ? input.location : put ? null : p.location,
        spatialReference: input.spatialReference !== undefined ? input.spatialReference : put ? null : p.spatialReference,
        coverBlobName: input.coverBlobName !== undefined ? input.coverBlobName : put ? null : p.coverBlobName,
        subscriptionId: p.subscriptionId,
        ownerId: p.ownerId,
      };
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      const detailsChanged = (['name', 'description', 'location', 'spatialReference', 'coverBlobName'] as const).some(
        (k) => !same(next[k], p[k]),
      );
      if (detailsChanged) requirePermission(scope.permissions, 'project:project:update-details', 'update-project-forbidden');
      // A cover is set only from a cover upload of this project (PUT …/cover, which checks
      // the image): here coverBlobName may stay as it is or be cleared, never name another
      // blob (a file's object would become a "cover" that the next cover replacement deletes).
      if (next.coverBlobName !== null && next.coverBlobName !== p.coverBlobName) {
        throw invalidInput('coverBlobName must be the project\'s current cover or null: a new cover is signed with POST …/cover and set with PUT …/cover', {
          field: 'coverBlobName',
        });
      }
      await store.transaction(async (repos) => {
        if (input.subscriptionRef) next.subscriptionId = (await subscriptionOf(repos, accountId, input.subscriptionRef)).id;
        if (input.ownerRef) {
          const owner = await findByRef(repos.users, input.ownerRef);
          if (!owner) throw notFound('user', refValue(input.ownerRef));
          next.ownerId = owner.id;
        }
        const ownershipChanged = next.ownerId !== p.ownerId || next.subscriptionId !== p.subscriptionId;
        if (ownershipChanged) {
          const needed: Permission[] = ['project:project:update-owner', 'project:project:update-subscription'];
          requirePermission(scope.permissions, needed, 'update-project-ownership-or-subscription-forbidden');
        }
        if (next.subscriptionId !== p.subscriptionId) {
          const sub = (await repos.subscriptions.byId(next.subscriptionId))!;
          if (!sub.isActive) throw subscriptionNotActive(sub);
        }
        if (next.ownerId !== p.ownerId) {
          const account = await repos.accounts.byId(accountId);
          const m = await repos.accounts.member(accountId, next.ownerId);
          if (!m || (!m.roles.includes('projectManager') && account?.ownerId !== next.ownerId)) {
            throw new DomainError('forbidden', 'new-project-owner-not-manager', 'The new owner of a project must be a project manager of the account', {
              userId: next.ownerId,
              ...refusalValues(['account:projects:create']),
            });
          }
          await lockProjectMembership(repos, p.id);
          if (!(await repos.members.member(p.id, 'user', next.ownerId))) {
            await repos.members.upsertMember(
              { projectId: p.id, memberType: 'user', memberId: next.ownerId, roleId: await managerRoleId(repos, accountId), expiresAt: null },
              actor.userId,
              clock.now(),
            );
            await repos.members.grantAccess(p.id, 'user', next.ownerId, [p.rootWorkzoneId]);
          }
        }
        await repos.projects.update(p.id, next, actor.userId, clock.now());
        const fields = (Object.keys(next) as (keyof ProjectFields)[]).filter((k) => !same(next[k], p[k]));
        await repos.events.publish(projectEventOf('project.updated', p, subjectOf('project', p.id), {
          fields, ownerId: next.ownerId, subscriptionId: next.subscriptionId,
        }), clock.now());
      });
      return reload(actor, scope, want);
    },

    /** Soft delete; `permanent` removes a deleted project for good. */
    async deleteProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, permanent: boolean): Promise<void> {
      const scope = await access.project(actor, accountRef, projectRef, { allowDeleted: true });
      const p = scope.project;
      requirePermission(scope.permissions, 'project:project:delete', 'delete-project-forbidden');
      await store.transaction(async (repos) => {
        if (permanent) {
          if (!p.deletedAt) {
            throw new DomainError('invalid', 'project-not-deleted', 'The project is not deleted yet: delete it first', { projectId: p.id });
          }
          await repos.projects.remove(p.id);
        } else {
          if (p.deletedAt) {
            throw new DomainError('invalid', 'project-deleted', 'The project is already deleted; add permanent=true to remove it', { projectId: p.id });
          }
          await repos.projects.setDeleted(p.id, { at: clock.now(), by: actor.userId }, clock.now());
        }
        await repos.events.publish(projectEventOf('project.deleted', p, subjectOf('project', p.id), { permanent }), clock.now());
      });
    },

    async restoreProject(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, want: StatsWanted): Promise<ProjectView> {
      const scope = await access.project(actor, accountRef, projectRef, { allowDeleted: true });
      const p = scope.project;
      requirePermission(scope.permissions, 'project:project:delete', 'restore-project-forbidden');
      if (!p.deletedAt) throw new DomainError('invalid', 'project-active', 'The project is not deleted', { projectId: p.id });
      await store.transaction(async (repos) => {
        const sub = (await repos.subscriptions.byId(p.subscriptionId))!;
        if (!sub.isActive) throw subscriptionNotActive(sub);
        await repos.projects.setDeleted(p.id, null, clock.now());
        await repos.events.publish(projectEventOf('project.restored', p, subjectOf('project', p.id), {}), clock.now());
      });
      return reload(actor, scope, want);
    },
  };
}

/** The projects of the account the user owns, in the caller's transaction (the users module refuses to remove their owner). */
export const ownedProjects = (repos: ProjectsRepos, userId: string, accountId: string): Promise<string[]> =>
  repos.projects.ownedBy(userId, accountId);
