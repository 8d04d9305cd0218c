// A work zone's read model (its row, the roles present on it, its scan and tag counts), the
// same for every caller, kept per node and dropped by the domain events that change it
// (core/events/invalidation.ts): the project's scope (members, zones, copies, deletion), its
// contents scope (the zone's fields, files, tag lists) and the account's (a user or a group
// leaving the account leaves its projects). The caller's rights are not in it: they come from
// the project scope, evaluated per request. docs/performance.md, "One zone of 1,000".
import { readsOf, storeReadsOf, type ReadsOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import type { Ref } from '../../../core/ports/project-repositories.ts';
import type { WorkzonesRepos, WorkzoneWithStats } from './ports.ts';
import { AccessCache, ACCESS_TTL_MS } from '../../../core/permissions/access-cache.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import { cacheScope, dropOnInvalidation } from '../../../core/events/invalidation.ts';
import { refKey } from '../../../core/ids/refs.ts';

export interface ZoneViews {
  /** The zone of the project named by `ref`, with its roles and counts; null when the project has no such zone. */
  read(project: { id: string; accountId: string }, ref: Ref): Promise<WorkzoneWithStats | null>;
}

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const ZONE_VIEWS_READS = storeReadsOf<WorkzonesRepos>()(['workzones']);

/**
 * `maxEntries` bounds the cache (least recently read out first; WORKZONE_CACHE_ENTRIES);
 * 0 turns it off: every read goes to the database.
 */
export function createZoneViews(deps: { store: ReadsOf<typeof ZONE_VIEWS_READS, WorkzonesRepos> & StoreEvents; maxEntries: number; caches?: CacheRegistry }): ZoneViews {
  const { maxEntries } = deps;
  const store = readsOf(deps.store, ZONE_VIEWS_READS);
  const fromDatabase = (projectId: string, ref: Ref) => store.repos.workzones.withStatsByRef(projectId, ref);
  if (maxEntries === 0) return { read: (project, ref) => fromDatabase(project.id, ref) };

  const cache = new AccessCache((deps.caches ?? new CacheRegistry()).lru<WorkzoneWithStats | null>({
    name: 'workzone-views', maxWeight: maxEntries, ttlMs: ACCESS_TTL_MS,
  }));
  dropOnInvalidation(deps.store, cache);
  return {
    read(project, ref) {
      return cache.get(
        `${project.id}|${refKey(ref)}`,
        () => fromDatabase(project.id, ref),
        () => [cacheScope.project(project.id), cacheScope.contents(project.id), cacheScope.account(project.accountId)],
      );
    },
  };
}
