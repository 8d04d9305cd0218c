// Work zones (vendor "Workzone"; membership rule 2): a tree under the project's root
// zone, with its ancestry in a closure table; a new zone inherits its parent's members.
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { TagsRepos } from '../../tags/index.ts';
import type { MembersRepos } from '../../members/index.ts';
import type { WorkzoneRecord, WorkzonesRepos } from './ports.ts';
import './events.ts';
import './errors.ts';
import { sliceOf, storeUseOf, type SliceOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { lockProjectMembership, type ProjectAccess, type ProjectScope, requiredName, requireMember } from '../../projects/index.ts';
import { createZoneViews } from './zone-views.ts';
import type { CacheRegistry } from '../../../core/cache/registry.ts';

export interface WorkzoneView {
  workzone: WorkzoneRecord;
  rootWorkzoneId: string;
  roleIds: string[];
  /** Registered scans in the zone itself. */
  scans: { scanCount: number; scanSize: number };
  /** Live tags in the zone's own tag lists. */
  tagCount: number;
  /** The caller's permissions in this zone (ours: one zone's get, create and update answer them; lists do not). */
  permissions?: string[];
}


/** The work-zone use cases (spec "Workzone"). */
export interface Workzones {
  /** The zones of the project the caller may read. */
  listWorkzones(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<WorkzoneView[]>;
  /** One work zone of the project, as the caller may see it. */
  getWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<WorkzoneView>;
  /** Creates a work zone under a parent zone of the project. */
  createWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: { name: string; description?: string | null; parentRef: EntityRef }): Promise<WorkzoneView>;
  /** PUT overwrites name and description. */
  updateWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, input: { name: string; description?: string | null }): Promise<WorkzoneView>;
  /** Deletes the zone with its subtree; members left with no zone are members no more. */
  deleteWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const WORKZONES_STORE = storeUseOf<Repos & FilesRepos & WorkzonesRepos & MembersRepos & TagsRepos>()({ reads: ['files', 'tags', 'workzones'], writes: ['events', 'locks', 'members', 'workzones'] });

export function createWorkzones(deps: {
  store: SliceOf<typeof WORKZONES_STORE, Repos & FilesRepos & WorkzonesRepos & MembersRepos & TagsRepos> & StoreEvents; clock: Clock; ids: Ids; access: ProjectAccess;
  /** WORKZONE_CACHE_ENTRIES: zones whose read model this node keeps (0: none). */
  viewCacheEntries: number;
  /** The node's registry of caches (GET /metrics). */
  caches?: CacheRegistry;
}): Workzones {
  const { clock, ids, access } = deps;
  const store = sliceOf(deps.store, WORKZONES_STORE);
  const zoneViews = createZoneViews({ store: { repos: store.repos, onEvent: deps.store.onEvent.bind(deps.store) }, maxEntries: deps.viewCacheEntries, caches: deps.caches });

  async function zoneIn(repos: WorkzonesRepos, scope: ProjectScope, ref: EntityRef): Promise<WorkzoneRecord> {
    const w = await repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w;
  }

  /** The views of many zones: three queries for the whole project, whatever its number of zones. */
  async function views(scope: ProjectScope, zones: WorkzoneRecord[]): Promise<WorkzoneView[]> {
    if (!zones.length) return [];
    const [roles, scans, tags] = await Promise.all([
      store.repos.workzones.roleIdsByZone(scope.project.id),
      store.repos.files.scanStatsByZone(scope.project.id),
      store.repos.tags.tagCountByZone(scope.project.id),
    ]);
    return zones.map((w) => ({
      workzone: w, rootWorkzoneId: scope.project.rootWorkzoneId, roleIds: roles.get(w.id) ?? [],
      scans: scans.get(w.id) ?? { scanCount: 0, scanSize: 0 },
      tagCount: tags.get(w.id) ?? 0,
    }));
  }

  /**
   * One zone with its view: its read model, kept per node until an event changes it, else one
   * query (its own roles only: a project may have thousands of zones); the caller's rights.
   */
  async function viewOf(scope: ProjectScope, ref: { uuid: string } | { api1Id: string }): Promise<WorkzoneView | null> {
    const found = await zoneViews.read(scope.project, ref);
    if (!found) return null;
    const { roleIds, scanCount, scanSize, tagCount, ...workzone } = found;
    return {
      workzone, rootWorkzoneId: scope.project.rootWorkzoneId, roleIds, scans: { scanCount, scanSize }, tagCount,
      permissions: [...scope.workzone(workzone.id)].sort(),
    };
  }

  const open = (actor: Actor, a: EntityRef, p: EntityRef) => access.project(actor, a, p);

  return {
    /** The zones of the project the caller may read. */
    async listWorkzones(actor: Actor, accountRef: EntityRef, projectRef: EntityRef): Promise<WorkzoneView[]> {
      const scope = await open(actor, accountRef, projectRef);
      requireMember(scope);
      requirePermission(scope.permissions, 'project:workzones:list', 'list-workzones-forbidden');
      const zones = await store.repos.workzones.listByProject(scope.project.id);
      return views(scope, zones.filter((w) => scope.workzone(w.id).has('workzone:workzones:read')));
    },

    async getWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<WorkzoneView> {
      const scope = await open(actor, accountRef, projectRef);
      requireMember(scope);
      const view = await viewOf(scope, ref);
      if (!view) throw notFound('workzone', refValue(ref));
      requirePermission(scope.workzone(view.workzone.id), 'workzone:workzones:read', 'view-workzone-forbidden');
      return view;
    },

    async createWorkzone(
      actor: Actor,
      accountRef: EntityRef,
      projectRef: EntityRef,
      input: { name: string; description?: string | null; parentRef: EntityRef },
    ): Promise<WorkzoneView> {
      const scope = await open(actor, accountRef, projectRef);
      const parent = await zoneIn(store.repos, scope, input.parentRef);
      requirePermission(scope.workzone(parent.id), 'workzone:workzones:write', 'create-workzone-forbidden');
      const name = requiredName(input.name);
      const id = ids.uuid();
      await store.transaction(async (repos) => {
        await lockProjectMembership(repos, scope.project.id); // rule 2 must see members added concurrently
        // The parent may have been deleted since it was read (a concurrent DELETE of its subtree).
        if (!(await repos.workzones.byRef(scope.project.id, { uuid: parent.id }))) throw notFound('workzone', refValue(input.parentRef));
        await repos.workzones.insert({
          id, projectId: scope.project.id, parentId: parent.id, name, description: input.description ?? '',
          coverBlobName: null, createdAt: clock.now(), createdBy: actor.userId,
        });
        await repos.members.inheritAccess(scope.project.id, parent.id, id); // rule 2
        await repos.events.publish(projectEventOf('workzone.created', scope.project, subjectOf('workzone', id), { workzoneId: id, parentId: parent.id }), clock.now());
      });
      const created = await viewOf(scope, { uuid: id });
      if (!created) throw notFound('workzone', id); // its parent was deleted right after
      return created;
    },

    /** PUT overwrites name and description. */
    async updateWorkzone(
      actor: Actor,
      accountRef: EntityRef,
      projectRef: EntityRef,
      ref: EntityRef,
      input: { name: string; description?: string | null },
    ): Promise<WorkzoneView> {
      const scope = await open(actor, accountRef, projectRef);
      const w = await zoneIn(store.repos, scope, ref);
      requirePermission(scope.workzone(w.id), 'workzone:workzones:write', 'update-workzone-forbidden');
      const name = requiredName(input.name);
      await store.transaction(async (repos) => {
        await repos.workzones.update(w.id, { name, description: input.description ?? '' }, actor.userId, clock.now());
        await repos.events.publish(projectEventOf('workzone.updated', scope.project, subjectOf('workzone', w.id), { workzoneId: w.id }), clock.now());
      });
      const updated = await viewOf(scope, { uuid: w.id });
      if (!updated) throw notFound('workzone', refValue(ref)); // deleted meanwhile
      return updated;
    },

    /** Deletes the zone with its subtree; members left with no zone are members no more. */
    async deleteWorkzone(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<void> {
      const scope = await open(actor, accountRef, projectRef);
      const w = await zoneIn(store.repos, scope, ref);
      requirePermission(scope.workzone(w.id), 'workzone:workzones:write', 'delete-workzone-forbidden');
      if (w.id === scope.project.rootWorkzoneId) {
        throw new DomainError('invalid', 'cannot-delete-root-workzone', "The project's root work zone can't be deleted", { workzoneId: w.id });
      }
      await store.transaction(async (repos) => {
        await lockProjectMembership(repos, scope.project.id);
        await repos.workzones.removeSubtree(w.id);
        await repos.members.dropMembersWithoutAccess(scope.project.id);
        await repos.events.publish(projectEventOf('workzone.deleted', scope.project, subjectOf('workzone', w.id), { workzoneId: w.id }), clock.now());
      });
    },
  };
}
