// Last-access dates for API 1's reports: a project's date moves when it or any of its
// resources is read or written, a user's when he makes any API call. Writes are
// coalesced: at most one per project or user per day per node, so reads stay reads.
import type { Clock } from '../ports/clock.ts';
import type { Store } from '../ports/repositories.ts';

export function createActivity(deps: { store: Store; clock: Clock; onError?: (e: unknown) => void }) {
  const { store, clock } = deps;
  const projects = new Map<string, string>();
  const users = new Map<string, string>();
  // The UTC day, recomputed only when the clock passes midnight (this runs on every request).
  let day = '';
  let dayEnds = 0;
  const today = () => {
    const ms = clock.nowMs();
    if (ms >= dayEnds || ms < dayEnds - 86_400_000) {
      day = new Date(ms).toISOString().slice(0, 10);
      dayEnds = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
    }
    return day;
  };

  function record(seen: Map<string, string>, id: string, write: (date: string) => Promise<void>): void {
    const date = today();
    if (seen.get(id) === date) return;
    if (seen.size > 100_000) seen.clear();
    seen.set(id, date);
    write(date).catch((e) => {
      seen.delete(id); // try again on the next request
      deps.onError?.(e);
    });
  }

  return {
    projectAccessed(projectId: string): void {
      record(projects, projectId, (d) => store.repos.projects.touchAccessed(projectId, d));
    },
    userActive(userId: string): void {
      record(users, userId, (d) => store.repos.reports.touchUserActivity(userId, d));
    },
    /** Forgets what was written (after a reset). */
    clear(): void {
      projects.clear();
      users.clear();
    },
  };
}

export type Activity = ReturnType<typeof createActivity>;
