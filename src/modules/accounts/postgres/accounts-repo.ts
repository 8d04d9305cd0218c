// The accounts module's SQL of accounts and their members (its port: ../core/ports.ts AccountsRepo).
import type { AccountRecord, AccountRole } from '../../../core/ports/repositories.ts';
import type { AccountMemberRecord, AccountsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';

const COLS = `a.id, a.api1_id AS "api1Id", a.name, a.owner_id AS "ownerId", a.created_by AS "createdBy",
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

interface MemberRow {
  accountId: string;
  userId: string;
  isAdministrator: boolean;
  isProjectManager: boolean;
  isProjectLister: boolean;
  invitedBy: string | null;
  invitedAt: Date | null;
}
const MEMBER_COLS = `account_id AS "accountId", user_id AS "userId", is_administrator AS "isAdministrator",
  is_project_manager AS "isProjectManager", is_project_lister AS "isProjectLister",
  invited_by AS "invitedBy", invited_at AS "invitedAt"`;

function toMember(r: MemberRow): AccountMemberRecord {
  const roles: AccountRole[] = [];
  if (r.isAdministrator) roles.push('administrator');
  if (r.isProjectManager) roles.push('projectManager');
  if (r.isProjectLister) roles.push('projectLister');
  return { accountId: r.accountId, userId: r.userId, roles, invitedBy: r.invitedBy, invitedAt: r.invitedAt };
}

export function accountsRepo(sql: Sql): AccountsRepo {
  const one = async (where: string, v: unknown) =>
    (await sql.query<AccountRecord>(`SELECT ${COLS} FROM accounts a WHERE ${where}`, [v]))[0] ?? null;
  return {
    byId: (id) => one('a.id = $1', id),
    byApi1Id: (api1Id) => one('a.api1_id = $1', api1Id),
    // Names are not unique: the oldest wins, so a seed matching by name is deterministic.
    byName: (name) => one('lower(a.name) = lower($1) ORDER BY a.created_at, a.id LIMIT 1', name),
    async insert(a, now) {
      const rows = await sql.query<AccountRecord>(
        `INSERT INTO accounts AS a (id, api1_id, name, owner_id, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${COLS}`,
        [a.id, api1IdOf(a.id), a.name, a.ownerId, a.createdBy, now],
      );
      return rows[0]!;
    },
    async update(id, patch, now) {
      await sql.query(
        `UPDATE accounts SET name = COALESCE($2, name), owner_id = COALESCE($3, owner_id), updated_at = $4 WHERE id = $1`,
        [id, patch.name ?? null, patch.ownerId ?? null, now],
      );
    },
    listForUser: (userId) =>
      sql.query<AccountRecord>(
        `SELECT ${COLS} FROM accounts a
         WHERE a.owner_id = $1 OR EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = a.id AND m.user_id = $1)
         ORDER BY a.created_at, a.id`,
        [userId],
      ),
    async member(accountId, userId) {
      const rows = await sql.query<MemberRow>(
        `SELECT ${MEMBER_COLS} FROM account_members WHERE account_id = $1 AND user_id = $2`,
        [accountId, userId],
      );
      return rows[0] ? toMember(rows[0]) : null;
    },
    async members(accountId) {
      const rows = await sql.query<MemberRow>(
        `SELECT ${MEMBER_COLS} FROM account_members WHERE account_id = $1 ORDER BY invited_at NULLS FIRST, user_id`,
        [accountId],
      );
      return rows.map(toMember);
    },
    async upsertMember(m) {
      await sql.query(
        `INSERT INTO account_members (account_id, user_id, is_administrator, is_project_manager, is_project_lister, invited_by, invited_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, user_id) DO UPDATE SET is_administrator = EXCLUDED.is_administrator,
           is_project_manager = EXCLUDED.is_project_manager, is_project_lister = EXCLUDED.is_project_lister`,
        [
          m.accountId, m.userId, m.roles.includes('administrator'), m.roles.includes('projectManager'),
          m.roles.includes('projectLister'), m.invitedBy, m.invitedAt,
        ],
      );
    },
    async removeMember(accountId, userId) {
      await sql.query('DELETE FROM account_members WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
    },
  };
}
