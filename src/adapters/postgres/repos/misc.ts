// Small repositories: web sessions, login throttling, outbox, settings, reset.
import type {
  AdminRepo, OutboxRepo, SettingsRepo, ThrottleRecord, ThrottleRepo, WebSessionRecord, WebSessionsRepo,
} from '../../../core/ports/repositories.ts';
import type { Sql } from '../sql.ts';

export function webSessionsRepo(sql: Sql): WebSessionsRepo {
  return {
    async insert(s, now) {
      await sql.query(
        'INSERT INTO web_sessions (id_hash, user_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [s.idHash, s.userId, s.csrf, now, s.expiresAt],
      );
    },
    async byIdHash(idHash, now) {
      const rows = await sql.query<WebSessionRecord>(
        `SELECT id_hash AS "idHash", user_id AS "userId", csrf, expires_at AS "expiresAt"
         FROM web_sessions WHERE id_hash = $1 AND expires_at > $2`,
        [idHash, now],
      );
      return rows[0] ?? null;
    },
    async remove(idHash) {
      await sql.query('DELETE FROM web_sessions WHERE id_hash = $1', [idHash]);
    },
  };
}

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
  };
}

export function outboxRepo(sql: Sql): OutboxRepo {
  return {
    // "Newest first" must hold for mails sent in the same millisecond (one transaction
    // inviting several users): sent_at is kept strictly increasing, one microsecond past
    // the latest when the clock has not moved (invisible at the millisecond precision shown).
    async insert(id, m, now) {
      await sql.query(
        `INSERT INTO outbox (id, to_email, subject, body, links, sent_at)
         VALUES ($1, $2, $3, $4, $5, GREATEST($6::timestamptz, (SELECT max(sent_at) + interval '1 microsecond' FROM outbox)))`,
        [id, m.to, m.subject, m.text, JSON.stringify(m.links), now],
      );
    },
    list: (limit) =>
      sql.query(
        `SELECT id, to_email AS "to", subject, body AS "text", links, sent_at AS "sentAt"
         FROM outbox ORDER BY sent_at DESC, id DESC LIMIT $1`,
        [limit],
      ),
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
  };
}

/** Tables that survive a reset; every other table of the schema is emptied. */
const KEPT = new Set(['schema_migrations', 'signing_keys', 'settings']);

export function adminRepo(sql: Sql): AdminRepo {
  return {
    async deleteAllData() {
      const tables = await sql.query<{ t: string }>(
        `SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
      );
      const names = tables.map((r) => r.t).filter((t) => !KEPT.has(t));
      if (names.length) await sql.exec(`TRUNCATE ${names.map((n) => `"${n}"`).join(', ')} CASCADE`);
    },
  };
}
