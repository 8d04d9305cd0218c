// The groups module's SQL (migration 0001's groups and group_members): plain statements bound to an executor.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';
import { uniqueOr409 } from '../../../adapters/postgres/repos/unique.ts';
import type { GroupRecord, GroupsRepo } from '../core/ports.ts';

const COLS = `g.id, g.api1_id AS "api1Id", g.account_id AS "accountId", g.name, g.description, g.color,
  g.created_by AS "createdBy", g.created_at AS "createdAt", g.updated_at AS "updatedAt",
  COALESCE((SELECT array_agg(gm.user_id ORDER BY gm.added_at, gm.user_id) FROM group_members gm WHERE gm.group_id = g.id),
    '{}') AS "userIds"`;

export function groupsRepo(sql: Sql): GroupsRepo {
  return {
    async byRef(accountId, ref) {
      const [where, v] = byRefClause(ref, 'g');
      const rows = await sql.query<GroupRecord>(`SELECT ${COLS} FROM groups g WHERE g.account_id = $1 AND ${where}`, [accountId, v]);
      return rows[0] ?? null;
    },
    async byName(accountId, name) {
      const rows = await sql.query<GroupRecord>(
        `SELECT ${COLS} FROM groups g WHERE g.account_id = $1 AND lower(g.name) = lower($2)`,
        [accountId, name],
      );
      return rows[0] ?? null;
    },
    listByAccount: (accountId) =>
      sql.query<GroupRecord>(`SELECT ${COLS} FROM groups g WHERE g.account_id = $1 ORDER BY g.created_at, g.id`, [accountId]),
    async insert(g, now) {
      await uniqueOr409(
        sql.query(
          `INSERT INTO groups (id, api1_id, account_id, name, description, color, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
          [g.id, api1IdOf(g.id), g.accountId, g.name, g.description, g.color, g.createdBy, now],
        ),
      );
      return { ...g, api1Id: api1IdOf(g.id), createdAt: now, updatedAt: now, userIds: [] };
    },
    async update(id, f, now) {
      await uniqueOr409(
        sql.query('UPDATE groups SET name = $2, description = $3, color = $4, updated_at = $5 WHERE id = $1', [
          id, f.name, f.description, f.color, now,
        ]),
      );
    },
    async remove(id) {
      await sql.query('DELETE FROM groups WHERE id = $1', [id]);
    },
    async addMembers(groupId, userIds, now) {
      if (!userIds.length) return;
      await sql.query(
        `INSERT INTO group_members (group_id, user_id, added_at) SELECT $1, u, $3 FROM unnest($2::uuid[]) AS u
         ON CONFLICT DO NOTHING`,
        [groupId, userIds, now],
      );
    },
    async removeMembers(groupId, userIds) {
      await sql.query('DELETE FROM group_members WHERE group_id = $1 AND user_id = ANY($2::uuid[])', [groupId, userIds]);
    },
    async removeUserFromAccountGroups(accountId, userId) {
      await sql.query(
        'DELETE FROM group_members WHERE user_id = $2 AND group_id IN (SELECT id FROM groups WHERE account_id = $1)',
        [accountId, userId],
      );
    },
    async touch(groupId, now) {
      await sql.query('UPDATE groups SET updated_at = $2 WHERE id = $1', [groupId, now]);
    },
  };
}
