// The project scope every project, work-zone and member use case opens with: resolves
// the project in its account, loads the caller's grants (cached per user and project,
// invalidated when the project, its account, the user or a role held changes), and
// evaluates project- and work-zone-level permissions (membership rules 1–8).
import { DomainError, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refKey } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { readsOf, storeReadsOf, type ReadsOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import type { ProjectRecord, ProjectsRepos } from './ports.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { AccessCache, ACCESS_TTL_MS } from '../../../core/permissions/access-cache.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import { cacheScope, dropOnInvalidation } from '../../../core/events/invalidation.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { condition } from '../../../core/permissions/refusal-conditions.ts';
import { describeHeld, projectGrantOf } from '../../../core/permissions/decisions.ts';
import {
  isProjectMember, projectPermissions, workzonePermissions, type ProjectFacts, type WorkzoneGrant,
} from '../../../core/permissions/evaluate.ts';
import type { Activity } from '../../activity/index.ts';
import type { MembersRepos } from '../../members/index.ts';

export interface ProjectScope {
  actor: Actor;
  account: AccountScope;
  project: ProjectRecord;
  facts: ProjectFacts;
  /** Project-level permissions of the caller. */
  permissions: ReadonlySet<Permission>;
  isMember: boolean;
  workzone(workzoneId: string): ReadonlySet<Permission>;
}



/**
 * Serialises, per project, the transactions that change its membership or its tree: the
 * materialised access (a grant written for a subtree, a new zone copying its parent's rows,
 * one role per member) is only right when each sees the others' committed rows.
 */
export const lockProjectMembership = (repos: Pick<Repos, 'locks'>, projectId: string): Promise<void> =>
  repos.locks.exclusive([`project-members:${projectId}`]);

const NOT_MEMBER = 'You are not a member of this project';

/**
 * Member-only reads (work zones, members, files, crops, tag lists, connect jobs; API 1's
 * member data): seeing a project listed (rule 6, project:project:list through
 * account:projects:list) makes no member, so such a caller gets 403 not-member-of-project
 * like one who does not see the project at all. Account roles' rights on every zone
 * (account:users:write ⇒ workzone:members:write) are writes, and stay.
 */
export function requireMember(scope: ProjectScope): void {
  requirePermission(condition('project-member', scope.isMember), 'project:workzones:list', 'not-member-of-project', NOT_MEMBER); // rule 5: marks a member
}

export const deletedProject = (project: ProjectRecord) =>
  new DomainError('forbidden', 'deleted-project', 'Access forbidden because the project is deleted', { projectId: project.id });

interface Loaded {
  project: ProjectRecord;
  grants: WorkzoneGrant[];
}

/** The project scope every project-level use case opens with: the caller's access facts on one project. */
export interface ProjectAccess {
  /** The per-node cache of project access facts, invalidated through the change feed. */
  cache: AccessCache<Loaded | null>;
  /**
   * The caller's scope in a project: 404 when there is no such project, 403
   * not-member-of-project when the caller may not see it, 403 deleted-project when it
   * is deleted (unless the operation works on deleted projects).
   */
  project(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, opts?: { allowDeleted?: boolean; record?: boolean }): Promise<ProjectScope>;
  /**
   * The caller's scopes in projects of the account already read (`projects`, in their
   * order): a listing (API 1's find), so no last-access date moves. One statement for any
   * number of projects (the caller's grants in them with every zone each reaches), read
   * fresh rather than through the per-project cache. Each project is refused as `project`
   * refuses it, the first refusal in that order thrown.
   */
  projects(actor: Actor, accountRef: EntityRef, projects: ProjectRecord[], opts?: { allowDeleted?: boolean }): Promise<ProjectScope[]>;
  /** The project scope from already-loaded facts (pure: no query, no activity date). */
  scopeOf(actor: Actor, account: AccountScope, loaded: Loaded): ProjectScope;
}

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const PROJECT_ACCESS_READS = storeReadsOf<Repos & ProjectsRepos & MembersRepos>()(['members', 'projects']);

/** `caches`: the node's registry (GET /metrics); `maxEntries`: PROJECT_ACCESS_CACHE_ENTRIES, the callers' project grants kept. */
export function createProjectAccess(deps: {
  store: ReadsOf<typeof PROJECT_ACCESS_READS, Repos & ProjectsRepos & MembersRepos> & StoreEvents; clock: Clock; authorizer: Authorizer; activity: Activity; caches?: CacheRegistry; maxEntries?: number;
}): ProjectAccess {
  const { clock, authorizer, activity } = deps;
  const store = readsOf(deps.store, PROJECT_ACCESS_READS);
  const cache = new AccessCache((deps.caches ?? new CacheRegistry()).lru<Loaded | null>({
    name: 'project-access', maxWeight: deps.maxEntries ?? 50_000, ttlMs: ACCESS_TTL_MS,
  }));
  dropOnInvalidation(deps.store, cache);

  /** The refusals of a project scope: one the caller may not see, one deleted (unless allowed). */
  function checkVisible(scope: ProjectScope, allowDeleted: boolean | undefined): void {
    requirePermission(
      condition('project-member-or-lister', scope.isMember || scope.permissions.has('project:project:list')),
      'project:project:list', 'not-member-of-project', NOT_MEMBER,
    );
    if (scope.project.deletedAt && !allowDeleted) throw deletedProject(scope.project);
  }

  function scopeOf(actor: Actor, account: AccountScope, loaded: Loaded): ProjectScope {
    const now = clock.now();
    const facts: ProjectFacts = {
      projectId: loaded.project.id,
      ownerId: loaded.project.ownerId,
      rootWorkzoneId: loaded.project.rootWorkzoneId,
      grants: loaded.grants,
    };
    const zoneCache = new Map<string, ReadonlySet<Permission>>();
    return {
      actor,
      account,
      project: loaded.project,
      facts,
      permissions: describeHeld(projectPermissions(actor.userId, account.facts, facts, now), {
        accountId: account.account.id, grantOf: (perm) => projectGrantOf(actor.userId, account.facts, facts, perm, now),
      }),
      isMember: isProjectMember(facts, now) || loaded.project.ownerId === actor.userId,
      workzone(id) {
        let p = zoneCache.get(id);
        if (!p) {
          p = describeHeld(workzonePermissions(actor.userId, account.facts, facts, id, now), {
            accountId: account.account.id, grantOf: (perm) => projectGrantOf(actor.userId, account.facts, facts, perm, now, id),
          });
          zoneCache.set(id, p);
        }
        return p;
      },
    };
  }

  return {
    cache,
    /**
     * The caller's scope in a project: 404 when there is no such project, 403
     * not-member-of-project when the caller may not see it, 403 deleted-project when it
     * is deleted (unless the operation works on deleted projects).
     */
    async project(
      actor: Actor,
      accountRef: EntityRef,
      projectRef: EntityRef,
      opts: { allowDeleted?: boolean; /** false: a listing, which does not move the last-access date */ record?: boolean } = {},
    ): Promise<ProjectScope> {
      const account = await authorizer.account(actor, accountRef);
      const key = `${actor.userId}|${account.account.id}|${refKey(projectRef)}`;
      const loaded = await cache.get(
        key,
        async () => {
          const project = await store.repos.projects.byRef(account.account.id, projectRef);
          if (!project) return null;
          return { project, grants: await store.repos.members.grantsOf(project.id, actor.userId) };
        },
        (v) => [
          cacheScope.account(account.account.id),
          cacheScope.user(actor.userId),
          ...(v ? [cacheScope.project(v.project.id), ...v.grants.map((g) => cacheScope.role(g.roleId))] : []),
        ],
      );
      if (!loaded) throw notFound('project', refValue(projectRef));
      const scope = scopeOf(actor, account, loaded);
      checkVisible(scope, opts.allowDeleted);
      if (opts.record !== false) {
        const writing = activity.projectAccessed(loaded.project.id);
        if (writing !== undefined) await writing;
      }
      return scope;
    },

    async projects(actor: Actor, accountRef: EntityRef, projects: ProjectRecord[], opts: { allowDeleted?: boolean } = {}): Promise<ProjectScope[]> {
      const account = await authorizer.account(actor, accountRef);
      const grants = await store.repos.members.grantsWithZonesIn(projects.map((p) => p.id), actor.userId);
      return projects.map((project) => {
        const scope = scopeOf(actor, account, { project, grants: grants.get(project.id) ?? [] });
        checkVisible(scope, opts.allowDeleted);
        return scope;
      });
    },

    scopeOf,
  };
}
