// Housekeeping: deletes the rows no rule needs any more (expired web sessions; spent
// authorization codes, refresh tokens and invitations a day after they stopped working,
// kept that long for forensics, a refresh token of a family that still has a valid one
// kept until the family has none (reuse detection needs it); sign-in throttle rows whose
// window is over; done and failed jobs, outbox rows and domain events after the retention
// period, RETENTION_DAYS). Each kind is deleted in batches of at most RETENTION_BATCH rows a pass. Then, on
// PGlite (no autovacuum), the planner's statistics are refreshed (ANALYZE). One node of
// the cluster does each pass, under an advisory lock; nodes that find it held skip.
import type { Clock } from '../../../core/ports/clock.ts';
import type { PurgeCounts, PurgeCutoffs } from '../../../core/ports/repositories.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import { THROTTLE } from '../../users/index.ts';
import { sliceOf, storeUse, type SliceOf } from '../../../core/ports/store-slices.ts';

export const JANITOR = {
  /** How often each node offers to run a pass. */
  intervalSeconds: 10 * 60,
  /** Spent codes, refresh tokens and invitations are kept this long after they stopped working. */
  forensicsSeconds: 24 * 3600,
};

/** Records the last pass, so nodes whose timers fire soon after another node's pass skip theirs. */
const LAST_PASS = 'maintenance.lastPassAt';

export interface Retention {
  /** Days done and failed jobs, outbox rows and domain events are kept. */
  days: number;
  /** The most rows of each kind one pass deletes. */
  batch: number;
}

export const DEFAULT_RETENTION: Retention = { days: 30, batch: 10_000 };

/** What a pass at `now` deletes (pure: the times only). */
export function purgeCutoffs(now: Date, retention: Retention = DEFAULT_RETENTION): PurgeCutoffs {
  return {
    now,
    retainedBefore: new Date(now.getTime() - retention.days * 86_400 * 1000),
    batch: retention.batch,
    sessionsExpiredBy: now,
    spentBefore: new Date(now.getTime() - JANITOR.forensicsSeconds * 1000),
    throttleWindowCutoff: new Date(now.getTime() - THROTTLE.windowSeconds * 1000),
  };
}

export type JanitorResult = { ran: true; at: Date; deleted: PurgeCounts } | { ran: false; reason: 'busy' | 'not-due' };

/** Housekeeping: old jobs, outbox rows and throttle rows deleted in batches, one node per pass. */
export interface Janitor {
  /**
   * One pass, in one transaction holding the cluster-wide maintenance lock; `busy` when
   * another node holds it. With `ifDue` (the timer), also skips when any node completed a
   * pass less than half an interval ago.
   */
  run(opts?: { ifDue?: boolean }): Promise<JanitorResult>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const JANITOR_STORE = storeUse({ reads: [], writes: ['admin', 'settings'] });

export function createJanitor(deps: { store: SliceOf<typeof JANITOR_STORE>; clock: Clock; retention?: Retention }): Janitor {
  const { clock } = deps;
  const store = sliceOf(deps.store, JANITOR_STORE);
  const retention = deps.retention ?? DEFAULT_RETENTION;
  return {
    /**
     * One pass, in one transaction holding the cluster-wide maintenance lock; `busy` when
     * another node holds it. With `ifDue` (the timer), also skips when any node completed a
     * pass less than half an interval ago.
     */
    run(opts: { ifDue?: boolean } = {}): Promise<JanitorResult> {
      return store.transaction(async (repos): Promise<JanitorResult> => {
        if (!(await repos.admin.tryMaintenanceLock())) return { ran: false, reason: 'busy' };
        const now = clock.now();
        if (opts.ifDue) {
          const last = await repos.settings.get<string>(LAST_PASS);
          const since = last ? now.getTime() - Date.parse(last) : Infinity;
          if (since >= 0 && since < (JANITOR.intervalSeconds * 1000) / 2) return { ran: false, reason: 'not-due' };
        }
        const deleted = await repos.admin.purge(purgeCutoffs(now, retention));
        // After the deletes, so the statistics count what stays (PGlite: the only analyser it has).
        await repos.admin.refreshStatistics();
        await repos.settings.set(LAST_PASS, now.toISOString());
        return { ran: true, at: now, deleted };
      });
    },
  };
}

/** Housekeeping once at start, then every 10 minutes on every node; one node of the cluster does each pass. */
export function housekeeping(janitor: Janitor): PeriodicTask {
  return {
    name: 'janitor', everySeconds: JANITOR.intervalSeconds, atStart: true, run: () => janitor.run({ ifDue: true }),
    failure: { level: 'error', message: 'janitor pass failed; next pass in 10 minutes' },
  };
}
