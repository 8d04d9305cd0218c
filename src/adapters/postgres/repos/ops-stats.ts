// What GET /metrics reads from the database at each scrape: the job queue and the outbox.
// Not a Repos member: only the metrics adapter reads it, never a use case.
import type { Sql } from '../sql.ts';

export function opsStats(sql: Sql) {
  return {
    /** Jobs waiting or running, by kind and state. */
    jobs: () =>
      sql.query<{ kind: string; state: string; count: number }>(
        `SELECT kind, state, count(*)::int AS count FROM jobs WHERE state IN ('queued', 'running') GROUP BY kind, state`,
      ),
    /** Mails in the outbox by relay state (migration 0016). */
    outbox: () =>
      sql.query<{ state: string; count: number }>('SELECT relay_state AS state, count(*)::int AS count FROM outbox GROUP BY relay_state'),
  };
}
