// Invitation and password-reset links (the users module's; its port: ../core/ports.ts InvitationsRepo): one row per link, its token's hash.
import type { InvitationRecord, InvitationsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

const INV_COLS = `token_hash AS "tokenHash", user_id AS "userId", account_id AS "accountId", expires_at AS "expiresAt", used_at AS "usedAt", purpose`;

export function invitationsRepo(sql: Sql): InvitationsRepo {
  return {
    async insert(i, now) {
      await sql.query(
        'INSERT INTO invitations (token_hash, user_id, account_id, created_at, expires_at, purpose) VALUES ($1, $2, $3, $4, $5, $6)',
        [i.tokenHash, i.userId, i.accountId, now, i.expiresAt, i.purpose ?? 'set-password'],
      );
    },
    async byTokenHash(tokenHash) {
      const rows = await sql.query<InvitationRecord>(`SELECT ${INV_COLS} FROM invitations WHERE token_hash = $1`, [tokenHash]);
      return rows[0] ?? null;
    },
    async consume(tokenHash, now) {
      const rows = await sql.query<InvitationRecord>(
        `UPDATE invitations SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING ${INV_COLS}`,
        [tokenHash, now],
      );
      return rows[0] ?? null;
    },
    async spendUnused(userId, purpose, now) {
      await sql.query('UPDATE invitations SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [
        userId, purpose, now,
      ]);
    },
  };
}

/** Maps PostgreSQL's unique_violation (23505) to the core's UniqueViolation. */
