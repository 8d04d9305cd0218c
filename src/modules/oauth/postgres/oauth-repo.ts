// The oauth module's SQL of authorization codes and refresh tokens (its port: ../core/ports.ts OAuthRepo).
import type { AuthorizationCodeRecord, OAuthRepo, RefreshTokenRecord } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

const VALID = 'consumed_at IS NULL AND revoked_at IS NULL AND expires_at > $2';

export function oauthRepo(sql: Sql): OAuthRepo {
  return {
    async insertCode(c, now) {
      await sql.query(
        `INSERT INTO authorization_codes (code_hash, user_id, redirect_uri, code_challenge, created_at, expires_at, client_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [c.codeHash, c.userId, c.redirectUri, c.codeChallenge, now, c.expiresAt, c.clientId],
      );
    },
    async consumeCode(codeHash, now) {
      const rows = await sql.query<AuthorizationCodeRecord>(
        `UPDATE authorization_codes SET used_at = $2
         WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2
         RETURNING code_hash AS "codeHash", user_id AS "userId", redirect_uri AS "redirectUri",
           code_challenge AS "codeChallenge", created_at AS "createdAt", expires_at AS "expiresAt", client_id AS "clientId"`,
        [codeHash, now],
      );
      return rows[0] ?? null;
    },
    async insertRefreshToken(t, now) {
      await sql.query(
        `INSERT INTO refresh_tokens (id, token_hash, user_id, created_at, expires_at, family_id, client_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [t.id, t.tokenHash, t.userId, now, t.expiresAt, t.familyId ?? t.id, t.clientId],
      );
    },
    async refreshTokenOwner(tokenHash) {
      const rows = await sql.query<{ userId: string }>(
        'SELECT user_id AS "userId" FROM refresh_tokens WHERE token_hash = $1',
        [tokenHash],
      );
      return rows[0]?.userId ?? null;
    },
    async consumeRefreshToken(tokenHash, now) {
      const rows = await sql.query<RefreshTokenRecord>(
        `UPDATE refresh_tokens SET consumed_at = $2 WHERE token_hash = $1 AND ${VALID}
         RETURNING id, user_id AS "userId", expires_at AS "expiresAt", family_id AS "familyId", client_id AS "clientId"`,
        [tokenHash, now],
      );
      return rows[0] ?? null;
    },
    async revokeExcessRefreshTokens(userId, keep, now) {
      const rows = await sql.query(
        `UPDATE refresh_tokens SET revoked_at = $2 WHERE id IN (
           SELECT id FROM refresh_tokens WHERE user_id = $1 AND ${VALID}
           ORDER BY created_at DESC, id DESC OFFSET $3)
         RETURNING id`,
        [userId, now, keep],
      );
      return rows.length;
    },
    async revokeRefreshToken(tokenHash, now) {
      const rows = await sql.query(
        `UPDATE refresh_tokens SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id`,
        [tokenHash, now],
      );
      return rows.length > 0;
    },
    async revokeFamilyOfConsumed(tokenHash, now) {
      const rows = await sql.query(
        `UPDATE refresh_tokens SET revoked_at = $2
         WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND consumed_at IS NOT NULL)
           AND ${VALID}
         RETURNING id`,
        [tokenHash, now],
      );
      return rows.length;
    },
    async countValidRefreshTokens(userId, now) {
      const rows = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1 AND ${VALID}`,
        [userId, now],
      );
      return rows[0]!.n;
    },
    // Data-modifying WITH clauses all run to completion, read or not: one round trip, one snapshot.
    async endUserSessions(userId, now) {
      await sql.query(
        `WITH stamp AS (
           UPDATE users SET tokens_valid_after = GREATEST(tokens_valid_after, $2::timestamptz) WHERE id = $1 RETURNING id
         ), browsers AS (
           DELETE FROM web_sessions WHERE user_id = $1 RETURNING id_hash
         ), refresh AS (
           UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND ${VALID} RETURNING id
         ), codes AS (
           UPDATE authorization_codes SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL RETURNING code_hash
         )
         SELECT (SELECT count(*) FROM stamp) AS users`,
        [userId, now],
      );
    },
  };
}
