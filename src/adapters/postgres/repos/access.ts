import type { AccessRepo, AccountRecord } from '../../../core/ports/repositories.ts';
import type { AccountRoleName } from '../../../core/permissions/account-roles.ts';
import type { Sql } from '../sql.ts';

interface Row extends AccountRecord {
  isMember: boolean;
  isAdministrator: boolean | null;
  isProjectManager: boolean | null;
  isProjectLister: boolean | null;
}

export function accessRepo(sql: Sql): AccessRepo {
  return {
    async accountAccess(userId, ref) {
      const byUuid = 'uuid' in ref;
      const rows = await sql.query<Row>(
        `SELECT a.id, a.api1_id AS "api1Id", a.name, a.owner_id AS "ownerId", a.created_by AS "createdBy",
           a.created_at AS "createdAt", a.updated_at AS "updatedAt",
           m.user_id IS NOT NULL AS "isMember", m.is_administrator AS "isAdministrator",
           m.is_project_manager AS "isProjectManager", m.is_project_lister AS "isProjectLister"
         FROM accounts a LEFT JOIN account_members m ON m.account_id = a.id AND m.user_id = $2
         WHERE ${byUuid ? 'a.id = $1' : 'a.api1_id = $1'}`,
        [byUuid ? ref.uuid : ref.api1Id, userId],
      );
      const r = rows[0];
      if (!r) return null;
      const roles: AccountRoleName[] = [];
      if (r.isAdministrator) roles.push('administrator');
      if (r.isProjectManager) roles.push('projectManager');
      if (r.isProjectLister) roles.push('projectLister');
      const isOwner = r.ownerId === userId;
      return {
        account: {
          id: r.id, api1Id: r.api1Id, name: r.name, ownerId: r.ownerId, createdBy: r.createdBy,
          createdAt: r.createdAt, updatedAt: r.updatedAt,
        },
        facts: { accountId: r.id, isOwner, isMember: r.isMember || isOwner, roles },
      };
    },
  };
}
