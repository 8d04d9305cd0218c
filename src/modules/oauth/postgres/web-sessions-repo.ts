// The oauth module's SQL of the sign-in pages' browser sessions (its port: ../core/ports.ts WebSessionsRepo).
import type { WebSessionRecord, WebSessionsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

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
    // Kept in settings, which survive a reset (like the signing keys).
    async csrfKey(candidate) {
      await sql.query(
        `INSERT INTO settings (key, value) VALUES ('web_sessions.csrf_key', to_jsonb($1::text)) ON CONFLICT (key) DO NOTHING`,
        [candidate],
      );
      const rows = await sql.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'web_sessions.csrf_key'`);
      return rows[0]!.value;
    },
  };
}
