// Last-access dates for API 1's reports: a project's date moves when it or any of its
// resources is read or written, a user's when he makes any API call. Writes are
// coalesced: at most one per project or user per day per node, so reads stay reads.
//
// A report read after a call's response includes that call: the day's first write is
// returned to the caller, which answers only once it is done (the request that made it
// and any request of the same subject arriving meanwhile). Later calls of the day find
// the date written and cost a Map lookup (a named LRU per kind, ACTIVITY_CACHE_ENTRIES ids
// each, the oldest written out first: an id evicted is written again at its next call). A reset (the '*' change, on every node) forgets
// what was written, so no node believes it already wrote today into an emptied table.
import type { Clock } from '../../../core/ports/clock.ts';
import { readsOf, storeReadsOf, type ReadsOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { cacheScope, onInvalidation } from '../../../core/events/invalidation.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import type { Lru } from '../../../core/cache/lru.ts';
import type { ReportsRepo } from '../../reports/index.ts';
import type { ProjectsRepos } from '../../projects/index.ts';
import type { Activity } from './activity-use.ts';

/** `caches`: the node's registry (GET /metrics); `maxEntries`: ACTIVITY_CACHE_ENTRIES, ids remembered per kind. */
/** What it reads of the store (src/core/ports/store-slices.ts): the projects (a deleted one is not recorded), and the reports module's repository it writes the dates to. */
export const ACTIVITY_READS = storeReadsOf<Repos & ProjectsRepos & { reports: ReportsRepo }>()(['projects', 'reports']);

export function createActivity(deps: {
  store: ReadsOf<typeof ACTIVITY_READS, Repos & ProjectsRepos & { reports: ReportsRepo }> & StoreEvents; clock: Clock; onError: (e: unknown) => void;
  caches?: CacheRegistry; maxEntries?: number;
}): Activity {
  const { clock } = deps;
  const store = readsOf(deps.store, ACTIVITY_READS);
  // The UTC day, recomputed only when the clock passes midnight (this runs on every request).
  let day = '';
  let dayEnds = 0;
  const today = (ms: number) => {
    if (ms >= dayEnds || ms < dayEnds - 86_400_000) {
      day = new Date(ms).toISOString().slice(0, 10);
      dayEnds = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
    }
    return day;
  };

  /**
   * Per kind of subject: its write, the date written per id, and the day's first write per
   * id while it runs (no closure or key string is made on the common path).
   */
  interface Kind {
    write(id: string, date: string): Promise<void>;
    seen: Lru<string>;
    inflight: Map<string, Promise<void>>;
  }
  const caches = deps.caches ?? new CacheRegistry();
  const kind = (name: string, write: Kind['write']): Kind => ({
    write, seen: caches.lru<string>({ name, maxWeight: deps.maxEntries ?? 100_000, touchOnRead: false }), inflight: new Map(),
  });
  const projects = kind('activity-projects', (id, date) => store.repos.projects.touchAccessed(id, date));
  const users = kind('activity-users', (id, date) => store.repos.reports.touchUserActivity(id, date));

  function record({ write, seen, inflight }: Kind, id: string, nowMs: number): Promise<void> | undefined {
    const date = today(nowMs);
    // The common case, on every request: today is written and nothing runs.
    if (seen.get(id) === date) return inflight.size === 0 ? undefined : inflight.get(id);
    seen.set(id, date);
    const done = write(id, date).then(
      () => {
        inflight.delete(id);
      },
      (e: unknown) => {
        inflight.delete(id);
        if (seen.peek(id) === date) seen.delete(id); // try again on the next request
        deps.onError(e);
      },
    );
    inflight.set(id, done);
    return done;
  }

  const clear = () => {
    projects.seen.clear();
    users.seen.clear();
  };
  onInvalidation(deps.store, (scope) => {
    if (scope === cacheScope.all) clear();
  });

  return {
    projectAccessed: (projectId) => record(projects, projectId, clock.nowMs()),
    userActive: (userId, nowMs = clock.nowMs()) => record(users, userId, nowMs),
    clear,
  };
}
