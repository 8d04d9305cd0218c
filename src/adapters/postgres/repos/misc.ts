// Small repositories: login throttling, settings, reset, housekeeping (the windowed counters:
// src/modules/users/postgres/counters-repo.ts; the oauth module's web sessions:
// src/modules/oauth/postgres/web-sessions-repo.ts).
import type {
  AdminRepo, PurgeCounts, SettingsRepo, ThrottleRecord, ThrottleRepo, ThrottleReservation,
} from '../../../core/ports/repositories.ts';
import type { Sql } from '../sql.ts';
import { SWEEPER_LOCK } from './files.ts';

/**
 * A throttle row whose window is over: its lock has ended, or it has no lock and its window
 * started at or before the cutoff. A reservation restarts such a window; housekeeping deletes it.
 */
const windowOver = (now: string, cutoff: string) =>
  `((t.locked_until IS NOT NULL AND t.locked_until <= ${now}) OR (t.locked_until IS NULL AND t.window_start <= ${cutoff}))`;
const FRESH = windowOver('$2', '$3');

export function throttleRepo(sql: Sql): ThrottleRepo {
  return {
    async get(key) {
      const rows = await sql.query<ThrottleRecord>(
        `SELECT key, failures, window_start AS "windowStart", locked_until AS "lockedUntil" FROM login_throttle WHERE key = $1`,
        [key],
      );
      return rows[0] ?? null;
    },
    async put(r) {
      await sql.query(
        `INSERT INTO login_throttle (key, failures, window_start, locked_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET failures = EXCLUDED.failures, window_start = EXCLUDED.window_start,
           locked_until = EXCLUDED.locked_until`,
        [r.key, r.failures, r.windowStart, r.lockedUntil],
      );
    },
    async clear(key) {
      await sql.query('DELETE FROM login_throttle WHERE key = $1', [key]);
    },
    // One statement: ON CONFLICT DO UPDATE locks the row, so concurrent reservations on
    // every node are applied one after the other and each sees the previous count.
    async reserve(key, p) {
      const rows = await sql.query<ThrottleReservation>(
        `INSERT INTO login_throttle AS t (key, failures, window_start, locked_until)
         VALUES ($1, 1, $2, CASE WHEN 1 >= $4::int THEN $5::timestamptz END)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN ${FRESH} THEN 1 ELSE t.failures + 1 END,
           window_start = CASE WHEN ${FRESH} THEN $2 ELSE t.window_start END,
           locked_until = CASE
             WHEN ${FRESH} THEN CASE WHEN 1 >= $4::int THEN $5::timestamptz END
             WHEN t.locked_until > $2 THEN t.locked_until
             WHEN t.failures + 1 >= $4::int THEN $5::timestamptz
             ELSE NULL END
         RETURNING failures, window_start AS "windowStart", locked_until AS "lockedUntil"`,
        [key, p.now, p.windowCutoff, p.max, p.lockedUntil],
      );
      return rows[0]!;
    },
    async refund(key, windowStart, max) {
      await sql.query(
        `UPDATE login_throttle SET failures = failures - 1,
           locked_until = CASE WHEN failures - 1 < $3::int THEN NULL ELSE locked_until END
         WHERE key = $1 AND window_start = $2 AND failures > 0`,
        [key, windowStart, max],
      );
    },
  };
}

export function settingsRepo(sql: Sql): SettingsRepo {
  return {
    async get<T>(key: string) {
      const rows = await sql.query<{ value: T }>('SELECT value FROM settings WHERE key = $1', [key]);
      return rows[0]?.value ?? null;
    },
    async set(key, value) {
      await sql.query(
        'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
        [key, JSON.stringify(value)],
      );
    },
    async keepFirst(key, candidate) {
      await sql.query('INSERT INTO settings (key, value) VALUES ($1, to_jsonb($2::text)) ON CONFLICT (key) DO NOTHING', [key, candidate]);
      const rows = await sql.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
      return rows[0]!.value;
    },
  };
}

/** Held by the node running a housekeeping pass (migrations hold 727274001, key creation 727274002). */
export const MAINTENANCE_LOCK = 727_274_003;

/** Tables that survive a reset; every other table of the schema is emptied. */
const KEPT = new Set(['schema_migrations', 'signing_keys', 'settings']);

export function adminRepo(sql: Sql): AdminRepo {
  return {
    async deleteAllData() {
      // Housekeeping and sweeper passes hold these locks while they work (others skip):
      // waiting for both first, a reset never takes table locks in between a pass's and
      // cannot deadlock with one (seen as a 500 from /_operator/reset right after a start).
      await sql.query('SELECT pg_advisory_xact_lock($1), pg_advisory_xact_lock($2)', [MAINTENANCE_LOCK, SWEEPER_LOCK]);
      const tables = await sql.query<{ t: string }>(
        `SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
      );
      const names = tables.map((r) => r.t).filter((t) => !KEPT.has(t));
      if (names.length) await sql.exec(`TRUNCATE ${names.map((n) => `"${n}"`).join(', ')} CASCADE`);
    },
    async refreshStatistics() {
      // ANALYZE samples at most 30,000 rows a table: a few hundred milliseconds for millions of rows.
      if (sql.engine === 'pglite') await sql.exec('ANALYZE');
    },
    async tryMaintenanceLock() {
      const rows = await sql.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [MAINTENANCE_LOCK]);
      return rows[0]!.locked;
    },
    async purge(c) {
      const count = async (del: string, params: unknown[]) =>
        (await sql.query<{ n: number }>(`WITH d AS (${del} RETURNING 1) SELECT count(*)::int AS n FROM d`, params))[0]!.n;
      /** Deletes at most c.batch rows of `table` (keyed by `key`) matching `where`. */
      const batch = (table: string, key: string, where: string, params: unknown[]) =>
        count(
          `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} t WHERE ${where} LIMIT $${params.length + 1})`,
          [...params, c.batch],
        );
      const counts: PurgeCounts = {
        webSessions: await batch('web_sessions', 'id_hash', 't.expires_at <= $1', [c.sessionsExpiredBy]),
        authorizationCodes: await batch('authorization_codes', 'code_hash', 't.expires_at < $1 OR t.used_at < $1', [c.spentBefore]),
        // A spent token goes once its family has no valid token left: presenting it again
        // while one is valid is what reuse detection revokes the family for (docs/tokens.md).
        refreshTokens: await batch(
          'refresh_tokens',
          'id',
          `(t.expires_at < $1 OR t.consumed_at < $1 OR t.revoked_at < $1)
           AND NOT EXISTS (SELECT 1 FROM refresh_tokens v WHERE v.family_id = t.family_id
             AND v.consumed_at IS NULL AND v.revoked_at IS NULL AND v.expires_at > $2)`,
          [c.spentBefore, c.now],
        ),
        loginThrottle: await count(
          `DELETE FROM login_throttle t WHERE ${windowOver('$1', '$2')}`,
          [c.now, c.throttleWindowCutoff],
        ),
        windowedCounters: await count('DELETE FROM windowed_counters WHERE window_end <= $1', [c.now]),
        invitations: await count('DELETE FROM invitations WHERE expires_at < $1 OR used_at < $1', [c.spentBefore]),
        jobs: await batch('jobs', 'id', `t.state IN ('done', 'failed') AND t.updated_at < $1`, [c.retainedBefore]),
        outbox: await batch('outbox', 'id', 't.sent_at < $1', [c.retainedBefore]),
        domainEvents: await batch('domain_events', 'seq', 't.occurred_at < $1', [c.retainedBefore]),
      };
      return counts;
    },
  };
}
