// What GET /metrics reads from the database at each scrape: the job queue, the outbox and the webhook lag.
// Not a Repos member: only the metrics adapter reads it, never a use case.
import type { Sql } from '../sql.ts';

export function opsStats(sql: Sql) {
  return {
    /** Jobs waiting or running, by kind and state. */
    jobs: () =>
      sql.query<{ kind: string; state: string; count: number }>(
        `SELECT kind, state, count(*)::int AS count FROM jobs WHERE state IN ('queued', 'running') GROUP BY kind, state`,
      ),
    /**
     * Per account, how long its oldest due webhook delivery has waited (now − its due time),
     * over enabled endpoints: the delivery lag (paused endpoints' deliveries count: they wait).
     */
    webhookLag: () =>
      sql.query<{ accountId: string; seconds: number }>(
        `SELECT e.account_id AS "accountId", EXTRACT(EPOCH FROM now() - min(d.next_at))::float8 AS seconds
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.state = 'pending' AND d.next_at <= now() AND e.enabled
         GROUP BY e.account_id`,
      ),
    /** Mails in the outbox by relay state (migration 0016). */
    outbox: () =>
      sql.query<{ state: string; count: number }>('SELECT relay_state AS state, count(*)::int AS count FROM outbox GROUP BY relay_state'),
  };
}
