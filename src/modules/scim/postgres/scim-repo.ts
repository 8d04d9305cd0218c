// The SCIM tables (migration 0032_scim.sql; ../core/ports.ts ScimRepo), plain SQL on one executor.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { ScimRepo, ScimTokenRecord, ScimUserView } from '../core/ports.ts';

const USER_VIEW = `SELECT u.id, u.email, coalesce(s.user_name, u.email) AS "userName", u.first_name AS "firstName", u.last_name AS "lastName", u.title,
    u.created_at AS "createdAt", greatest(u.updated_at, s.updated_at) AS "updatedAt",
    (m.user_id IS NOT NULL OR a.owner_id = u.id) AS member, s.external_id AS "externalId"
  FROM accounts a
  JOIN users u ON u.id = a.owner_id
    OR u.id IN (SELECT user_id FROM account_members WHERE account_id = a.id)
    OR u.id IN (SELECT user_id FROM scim_users WHERE account_id = a.id)
  LEFT JOIN account_members m ON m.account_id = a.id AND m.user_id = u.id
  LEFT JOIN scim_users s ON s.account_id = a.id AND s.user_id = u.id
  WHERE a.id = $1`;

export function scimRepo(sql: Sql): ScimRepo {
  return {
    async token(accountId) {
      const [row] = await sql.query<ScimTokenRecord>(
        `SELECT account_id AS "accountId", token_hash AS "tokenHash", created_by AS "createdBy", created_at AS "createdAt" FROM scim_tokens WHERE account_id = $1`,
        [accountId],
      );
      return row ?? null;
    },
    async accountOfToken(tokenHash) {
      const [row] = await sql.query<{ accountId: string }>('SELECT account_id AS "accountId" FROM scim_tokens WHERE token_hash = $1', [tokenHash]);
      return row?.accountId ?? null;
    },
    async putToken(t) {
      await sql.query(
        `INSERT INTO scim_tokens (account_id, token_hash, created_by, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id) DO UPDATE SET token_hash = $2, created_by = $3, created_at = $4`,
        [t.accountId, t.tokenHash, t.createdBy, t.createdAt],
      );
    },
    async removeToken(accountId) {
      return (await sql.query('DELETE FROM scim_tokens WHERE account_id = $1 RETURNING 1', [accountId])).length > 0;
    },

    users: (accountId) => sql.query<ScimUserView>(`${USER_VIEW} ORDER BY u.email, u.id`, [accountId]),
    async user(accountId, userId) {
      const [row] = await sql.query<ScimUserView>(`${USER_VIEW} AND u.id = $2`, [accountId, userId]);
      return row ?? null;
    },
    async userNamed(accountId, userName) {
      const [row] = await sql.query<ScimUserView>(`${USER_VIEW} AND lower(coalesce(s.user_name, u.email)) = lower($2)`, [accountId, userName]);
      return row ?? null;
    },
    async putUser(p, now) {
      await sql.query(
        `INSERT INTO scim_users (account_id, user_id, external_id, active, created_at, updated_at, user_name) VALUES ($1, $2, $3, $4, $5, $5, $6)
         ON CONFLICT (account_id, user_id) DO UPDATE SET external_id = $3, active = $4, updated_at = $5, user_name = $6`,
        [p.accountId, p.userId, p.externalId, p.active, now, p.userName],
      );
    },
    async removeUser(accountId, userId) {
      await sql.query('DELETE FROM scim_users WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
    },

    async groupExternalIds(accountId) {
      const rows = await sql.query<{ groupId: string; externalId: string }>(
        'SELECT group_id AS "groupId", external_id AS "externalId" FROM scim_groups WHERE account_id = $1 AND external_id IS NOT NULL',
        [accountId],
      );
      return new Map(rows.map((r) => [r.groupId, r.externalId]));
    },
    async putGroupExternalId(accountId, groupId, externalId) {
      await sql.query(
        `INSERT INTO scim_groups (group_id, account_id, external_id) VALUES ($1, $2, $3)
         ON CONFLICT (group_id) DO UPDATE SET external_id = $3`,
        [groupId, accountId, externalId],
      );
    },
  };
}
