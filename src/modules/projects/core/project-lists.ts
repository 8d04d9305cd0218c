// A caller's project list (listProjects), kept per node as the very array built for it, so
// that the HTTP layer can keep its serialised and compressed body beside it (keyed by the
// array: src/http/encoded-bodies.ts). docs/performance.md, "Project list".
//
// What a list shows depends on every project of the account (a project the caller is not
// yet in may join his list), so an entry is dropped by any change to the account's projects,
// members, zones, counts, roles, groups or account roles: the scope project-lists:<a>, which
// core/events/invalidation.ts names for each such event. A membership may also end with no
// event (its expiry): an entry ends at the earliest future expiry among the grants it was
// built from. Modelled on the zone read models (workzones/zone-views.ts).
import type { Clock } from '../../../core/ports/clock.ts';
import type { StoreEvents } from '../../../core/ports/store-slices.ts';
import type { WorkzoneGrant } from '../../../core/permissions/evaluate.ts';
import { AccessCache, ACCESS_TTL_MS } from '../../../core/permissions/access-cache.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import { cacheScope, dropOnInvalidation } from '../../../core/events/invalidation.ts';
import type { ProjectRecord, ProjectStats } from './ports.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';

/** A project as a list shows it: its record, the caller's permissions in it, the stats asked for. */
export interface ProjectView {
  project: ProjectRecord;
  permissions: Permission[];
  stats: Partial<ProjectStats> | null;
  bimOnRootWz: boolean;
}

export interface StatsWanted {
  scans: boolean;
  tags: boolean;
  workzones: boolean;
}

/** Whose list, and how it is shown: one entry each. */
export interface ProjectListKey {
  accountId: string;
  userId: string;
  /** The caller lists every project of the account (account:projects:list), not only his. */
  all: boolean;
  want: StatsWanted;
}

/** A list as built, and the time it stops holding by itself (a grant's expiry), or null. */
export interface BuiltList {
  views: ProjectView[];
  validUntil: Date | null;
}

export interface ProjectLists {
  /** The list under `key`: the cached array while it holds, else `build`'s (kept when the cache is on). */
  read(key: ProjectListKey, build: () => Promise<BuiltList>): Promise<ProjectView[]>;
}

/**
 * The earliest expiry after `now` among the grants (a list built at `now` stops holding then:
 * the project leaves a member's list, or its rights change), or null when none expires.
 */
export function earliestExpiry(grants: Iterable<readonly WorkzoneGrant[]>, now: Date): Date | null {
  let earliest: number | null = null;
  for (const list of grants) {
    for (const g of list) {
      const t = g.expiresAt?.getTime();
      if (t !== undefined && t > now.getTime() && (earliest === null || t < earliest)) earliest = t;
    }
  }
  return earliest === null ? null : new Date(earliest);
}

/**
 * `maxProjects` bounds the projects across the kept lists (PROJECT_LIST_CACHE_PROJECTS; a list
 * counts its projects, an empty one 1; least recently read out first): lists range from none
 * to thousands of projects (~2.5 kB each with the HTTP layer's body), so a bound on their
 * number would not bound memory. 0 turns it off: every read builds the list. Entries also end
 * after a minute (AccessCache's TTL), on the service's clock (the sandbox clock moves expiries
 * and entries together).
 */
export function createProjectLists(deps: { store: StoreEvents; clock: Clock; maxProjects: number; caches?: CacheRegistry }): ProjectLists {
  const { store, clock, maxProjects } = deps;
  if (maxProjects === 0) return { read: async (_key, build) => (await build()).views };

  const cache = new AccessCache((deps.caches ?? new CacheRegistry()).lru<BuiltList>({
    name: 'project-lists', maxWeight: maxProjects, ttlMs: ACCESS_TTL_MS, nowMs: () => clock.nowMs(), weightOf: (v) => v.views.length,
  }));
  // Reads of one list that miss together (a client's burst after a change) share one build.
  // Any invalidation forgets the builds in flight, so a read that comes after it never joins
  // a build that started before it.
  const building = new Map<string, Promise<BuiltList>>();
  dropOnInvalidation(store, {
    clear: () => {
      building.clear();
      cache.clear();
    },
    invalidate: (scope) => {
      building.clear();
      cache.invalidate(scope);
    },
  });
  const shared = (key: string, build: () => Promise<BuiltList>): Promise<BuiltList> => {
    let pending = building.get(key);
    if (!pending) {
      const started = build().finally(() => {
        if (building.get(key) === started) building.delete(key);
      });
      building.set(key, (pending = started));
    }
    return pending;
  };
  return {
    async read(key, build) {
      const { scans, tags, workzones } = key.want;
      const cacheKey = `${key.accountId}|${key.userId}|${key.all ? 'all' : 'member'}|${+scans}${+tags}${+workzones}`;
      const built = await cache.get(
        cacheKey,
        () => shared(cacheKey, build),
        () => [cacheScope.projectLists(key.accountId)],
        (v) => v.validUntil?.getTime() ?? null,
      );
      return built.views;
    },
  };
}
