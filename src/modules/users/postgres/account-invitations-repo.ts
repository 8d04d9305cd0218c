// Pending invitations to join an account (migration 0020; docs/security.md "Invitations").
import type { AccountRole } from '../../../core/ports/repositories.ts';
import type { AccountInvitationRecord, AccountInvitationsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

interface Row {
  accountId: string;
  userId: string;
  email: string;
  isAdministrator: boolean;
  isProjectManager: boolean;
  isProjectLister: boolean;
  invitedBy: string | null;
  invitedAt: Date;
}

const COLS = `i.account_id AS "accountId", i.user_id AS "userId", i.email, i.is_administrator AS "isAdministrator",
  i.is_project_manager AS "isProjectManager", i.is_project_lister AS "isProjectLister",
  i.invited_by AS "invitedBy", i.invited_at AS "invitedAt"`;

function toRecord(r: Row): AccountInvitationRecord {
  const roles: AccountRole[] = [];
  if (r.isAdministrator) roles.push('administrator');
  if (r.isProjectManager) roles.push('projectManager');
  if (r.isProjectLister) roles.push('projectLister');
  return { accountId: r.accountId, userId: r.userId, email: r.email, roles, invitedBy: r.invitedBy, invitedAt: r.invitedAt };
}

export function accountInvitationsRepo(sql: Sql): AccountInvitationsRepo {
  return {
    async get(accountId, userId) {
      const rows = await sql.query<Row>(`SELECT ${COLS} FROM account_invitations i WHERE i.account_id = $1 AND i.user_id = $2`, [accountId, userId]);
      return rows[0] ? toRecord(rows[0]) : null;
    },
    async listForAccount(accountId) {
      const rows = await sql.query<Row>(`SELECT ${COLS} FROM account_invitations i WHERE i.account_id = $1 ORDER BY i.invited_at, i.user_id`, [accountId]);
      return rows.map(toRecord);
    },
    async listForUser(userId) {
      const rows = await sql.query<Row & { accountName: string }>(
        `SELECT ${COLS}, a.name AS "accountName" FROM account_invitations i JOIN accounts a ON a.id = i.account_id
         WHERE i.user_id = $1 ORDER BY i.invited_at, i.account_id`,
        [userId],
      );
      return rows.map((r) => ({ ...toRecord(r), accountName: r.accountName }));
    },
    async put(inv) {
      await sql.query(
        `INSERT INTO account_invitations (account_id, user_id, email, is_administrator, is_project_manager, is_project_lister, invited_by, invited_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (account_id, user_id) DO UPDATE SET email = EXCLUDED.email, is_administrator = EXCLUDED.is_administrator,
           is_project_manager = EXCLUDED.is_project_manager, is_project_lister = EXCLUDED.is_project_lister`,
        [
          inv.accountId, inv.userId, inv.email, inv.roles.includes('administrator'), inv.roles.includes('projectManager'),
          inv.roles.includes('projectLister'), inv.invitedBy, inv.invitedAt,
        ],
      );
    },
    async take(accountId, userId) {
      const rows = await sql.query<Row>(
        `DELETE FROM account_invitations i WHERE i.account_id = $1 AND i.user_id = $2 RETURNING ${COLS}`,
        [accountId, userId],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
  };
}
