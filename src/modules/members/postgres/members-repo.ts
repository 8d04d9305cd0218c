// The members module's SQL (migration 0004's project_members and workzone_access): plain statements bound to an executor.
import type { MemberAccess, MembersRepo, ZoneHolds } from '../core/ports.ts';
import { queryJsonRows, type Sql } from '../../../adapters/postgres/sql.ts';
import type { WorkzoneGrant } from '../../../core/permissions/evaluate.ts';
import { grouped } from '../../../adapters/postgres/repos/grouped.ts';

const NO_ZONES: ReadonlySet<string> = new Set();

const M_COLS = `project_id AS "projectId", member_type AS "memberType", member_id AS "memberId", role_id AS "roleId",
  expires_at AS "expiresAt"`;

/** Users reach a project as themselves or through one of their groups. */
const REACHES_USER = `((pm.member_type = 'user' AND pm.member_id = $2)
  OR (pm.member_type = 'group' AND pm.member_id IN (SELECT group_id FROM group_members WHERE user_id = $2)))`;

/** A grant read as JSON for a list of projects: its role's permissions on the role's first row only. */
interface GrantRow {
  projectId: string;
  roleId: string;
  permissions: string[] | null;
  expiresAt: string | null;
}

/** Rows of grants (a role's permissions on its first row only) → each project's grants, with the zones `zonesOf` gives. */
function grantsByProject<R extends GrantRow>(rows: R[], zonesOf: (r: R) => ReadonlySet<string>): Map<string, WorkzoneGrant[]> {
  const permissionsOf = new Map<string, string[]>();
  for (const r of rows) if (r.permissions) permissionsOf.set(r.roleId, r.permissions);
  return grouped(rows, (r) => r.projectId, (r) => ({
    roleId: r.roleId,
    permissions: permissionsOf.get(r.roleId)!,
    expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt),
    workzoneIds: zonesOf(r),
  }));
}

/** A MemberAccess as JSON, with its order keys. */
type JsonAccessRow = Omit<MemberAccess, 'expiresAt'> & { expiresAt: string | null; addedAt: string };

export function membersRepo(sql: Sql): MembersRepo {
  /** The grants reaching the user in one project, each with every zone it reaches. */
  async function grantsOf(projectId: string, userId: string): Promise<WorkzoneGrant[]> {
    const rows = await sql.query<{ roleId: string; permissions: string[]; expiresAt: Date | null; zones: string[] }>(
      `SELECT pm.role_id AS "roleId", pm.expires_at AS "expiresAt", r.permissions, array_agg(wa.workzone_id) AS zones
       FROM project_members pm
       JOIN workzone_access wa ON wa.project_id = pm.project_id AND wa.member_type = pm.member_type AND wa.member_id = pm.member_id
       JOIN roles r ON r.id = pm.role_id
       WHERE pm.project_id = $1 AND ${REACHES_USER}
       GROUP BY pm.project_id, pm.member_type, pm.member_id, pm.role_id, pm.expires_at, r.id`,
      [projectId, userId],
      { name: 'grants-of-user-in-project' }, // every project scope opens with it (then cached)
    );
    return rows.map((r) => ({ roleId: r.roleId, permissions: r.permissions, expiresAt: r.expiresAt, workzoneIds: new Set(r.zones) }));
  }

  // One query for many projects (project lists): the grants reaching the user, by project,
  // each with the project's root zone when it reaches it (two index probes per grant, not
  // every zone it reaches: a list evaluates project-level rights and the root zone's only).
  // A role's permission list comes on its first row only (a member of 1,000 projects with
  // one role would otherwise receive and decode the same list 1,000 times). Read as one
  // JSON text (queryJsonRows).
  async function grantsIn(projectIds: string[], userId: string): Promise<Map<string, WorkzoneGrant[]>> {
    if (!projectIds.length) return new Map();
    const rows = await queryJsonRows<GrantRow & { root: string | null }>(
      sql,
      `SELECT g."projectId", g."roleId", g."expiresAt", g.root,
         CASE WHEN row_number() OVER (PARTITION BY g."roleId") = 1 THEN r.permissions END AS permissions
       FROM (SELECT pm.project_id AS "projectId", pm.role_id AS "roleId", pm.expires_at AS "expiresAt", pm.member_type, pm.member_id,
               onroot.workzone_id AS root
             FROM project_members pm JOIN projects p ON p.id = pm.project_id
             LEFT JOIN workzone_access onroot ON onroot.workzone_id = p.root_workzone_id
               AND onroot.member_type = pm.member_type AND onroot.member_id = pm.member_id
             WHERE pm.project_id = ANY($1::uuid[]) AND ${REACHES_USER}) g
       JOIN roles r ON r.id = g."roleId"
       -- a member reaching no zone is no member (the rows of his zones are his membership)
       WHERE g.root IS NOT NULL OR EXISTS (SELECT 1 FROM workzone_access wa
         WHERE wa.project_id = g."projectId" AND wa.member_type = g.member_type AND wa.member_id = g.member_id)`,
      [projectIds, userId],
    );
    return grantsByProject(rows, (r) => (r.root ? new Set([r.root]) : NO_ZONES));
  }

  // grantsOf for many projects in one query: each grant with every zone it reaches (API 1's
  // find evaluates every zone's rights). The permission lists come once per role, as in
  // grantsIn; read as one JSON text (queryJsonRows).
  async function grantsWithZonesIn(projectIds: string[], userId: string): Promise<Map<string, WorkzoneGrant[]>> {
    if (!projectIds.length) return new Map();
    const rows = await queryJsonRows<GrantRow & { zones: string[] }>(
      sql,
      `SELECT g."projectId", g."roleId", g."expiresAt", g.zones,
         CASE WHEN row_number() OVER (PARTITION BY g."roleId") = 1 THEN r.permissions END AS permissions
       FROM (SELECT pm.project_id AS "projectId", pm.role_id AS "roleId", pm.expires_at AS "expiresAt", array_agg(wa.workzone_id) AS zones
             FROM project_members pm
             JOIN workzone_access wa ON wa.project_id = pm.project_id AND wa.member_type = pm.member_type AND wa.member_id = pm.member_id
             WHERE pm.project_id = ANY($1::uuid[]) AND ${REACHES_USER}
             GROUP BY pm.project_id, pm.member_type, pm.member_id, pm.role_id, pm.expires_at) g
       JOIN roles r ON r.id = g."roleId"`,
      [projectIds, userId],
    );
    return grantsByProject(rows, (r) => new Set(r.zones));
  }

  return {
    async zoneHoldsInAccount(accountId, userId, now) {
      const rows = await sql.query<{ ownsProject: boolean; rolePermissions: string[][] | null }>(
        `SELECT EXISTS (SELECT 1 FROM projects WHERE account_id = $1 AND owner_id = $2 AND deleted_at IS NULL) AS "ownsProject",
           (SELECT json_agg(DISTINCT r.permissions)
            FROM project_members pm
            JOIN projects p ON p.id = pm.project_id AND p.account_id = $1 AND p.deleted_at IS NULL
            JOIN roles r ON r.id = pm.role_id
            WHERE (pm.expires_at IS NULL OR pm.expires_at > $3)
              AND ((pm.member_type = 'user' AND pm.member_id = $2)
                OR (pm.member_type = 'group' AND pm.member_id IN (SELECT group_id FROM group_members WHERE user_id = $2)))
              AND EXISTS (SELECT 1 FROM workzone_access wa WHERE wa.project_id = pm.project_id
                AND wa.member_type = pm.member_type AND wa.member_id = pm.member_id)) AS "rolePermissions"`,
        [accountId, userId, now],
      );
      const r = rows[0]!;
      const holds: ZoneHolds = { ownsProject: r.ownsProject, rolePermissions: r.rolePermissions ?? [] };
      return holds;
    },
    async member(projectId, type, id) {
      const rows = await sql.query<MemberAccess>(
        `SELECT ${M_COLS}, ARRAY(SELECT wa.workzone_id FROM workzone_access wa WHERE wa.project_id = pm.project_id
           AND wa.member_type = pm.member_type AND wa.member_id = pm.member_id) AS "workzoneIds"
         FROM project_members pm WHERE project_id = $1 AND member_type = $2 AND member_id = $3`,
        [projectId, type, id],
      );
      return rows[0] ?? null;
    },
    async upsertMember(m, addedBy, now) {
      await sql.query(
        `INSERT INTO project_members (project_id, member_type, member_id, role_id, expires_at, added_by, added_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (project_id, member_type, member_id) DO UPDATE SET role_id = EXCLUDED.role_id, expires_at = EXCLUDED.expires_at`,
        [m.projectId, m.memberType, m.memberId, m.roleId, m.expiresAt, addedBy, now],
      );
    },
    async grantAccess(projectId, type, id, zones) {
      if (!zones.length) return;
      await sql.query(
        `INSERT INTO workzone_access (workzone_id, project_id, member_type, member_id)
         SELECT z, $1, $2, $3 FROM unnest($4::uuid[]) AS z ON CONFLICT DO NOTHING`,
        [projectId, type, id, zones],
      );
    },
    async revokeAccess(projectId, type, id, zones) {
      if (!zones.length) return;
      await sql.query(
        `DELETE FROM workzone_access WHERE project_id = $1 AND member_type = $2 AND member_id = $3 AND workzone_id = ANY($4::uuid[])`,
        [projectId, type, id, zones],
      );
    },
    async removeMember(projectId, type, id) {
      await sql.query('DELETE FROM project_members WHERE project_id = $1 AND member_type = $2 AND member_id = $3', [projectId, type, id]);
    },
    async dropMembersWithoutAccess(projectId) {
      await sql.query(
        `DELETE FROM project_members pm WHERE pm.project_id = $1 AND NOT EXISTS (
           SELECT 1 FROM workzone_access wa WHERE wa.project_id = pm.project_id AND wa.member_type = pm.member_type
             AND wa.member_id = pm.member_id)`,
        [projectId],
      );
    },
    async inheritAccess(projectId, parentId, childId) {
      await sql.query(
        `INSERT INTO workzone_access (workzone_id, project_id, member_type, member_id)
         SELECT $3, project_id, member_type, member_id FROM workzone_access WHERE project_id = $1 AND workzone_id = $2
         ON CONFLICT DO NOTHING`,
        [projectId, parentId, childId],
      );
    },
    accessList: (projectId) =>
      sql.query<MemberAccess>(
        `SELECT ${M_COLS.replace(/(project_id|member_type|member_id|role_id|expires_at) AS/g, 'pm.$1 AS')},
           COALESCE(array_agg(wa.workzone_id ORDER BY wa.workzone_id) FILTER (WHERE wa.workzone_id IS NOT NULL), '{}') AS "workzoneIds"
         FROM project_members pm
         LEFT JOIN workzone_access wa ON wa.project_id = pm.project_id AND wa.member_type = pm.member_type AND wa.member_id = pm.member_id
         WHERE pm.project_id = $1
         GROUP BY pm.project_id, pm.member_type, pm.member_id, pm.role_id, pm.expires_at, pm.added_at
         ORDER BY pm.added_at, pm.member_type DESC, pm.member_id`,
        [projectId],
      ),
    async accessLists(projectIds) {
      if (!projectIds.length) return new Map();
      // accessList for many projects in one query, in its order within each project (the
      // date added is read for the order only), read as one JSON text (queryJsonRows).
      const rows = await queryJsonRows<JsonAccessRow>(
        sql,
        `SELECT ${M_COLS.replace(/(project_id|member_type|member_id|role_id|expires_at) AS/g, 'pm.$1 AS')}, pm.added_at AS "addedAt",
           COALESCE(array_agg(wa.workzone_id ORDER BY wa.workzone_id) FILTER (WHERE wa.workzone_id IS NOT NULL), '{}') AS "workzoneIds"
         FROM project_members pm
         LEFT JOIN workzone_access wa ON wa.project_id = pm.project_id AND wa.member_type = pm.member_type AND wa.member_id = pm.member_id
         WHERE pm.project_id = ANY($1::uuid[])
         GROUP BY pm.project_id, pm.member_type, pm.member_id, pm.role_id, pm.expires_at, pm.added_at`,
        [projectIds],
        'q."projectId", q."addedAt", q."memberType" DESC, q."memberId"',
      );
      return grouped(rows, (r) => r.projectId, ({ addedAt: _addedAt, ...r }): MemberAccess => ({
        ...r,
        expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt),
      }));
    },
    grantsOf,
    grantsIn,
    grantsWithZonesIn,
    async removeGroupEverywhere(groupId) {
      await sql.query(`DELETE FROM project_members WHERE member_type = 'group' AND member_id = $1`, [groupId]);
    },
    async removeUserFromAccountProjects(accountId, userId) {
      await sql.query(
        `DELETE FROM project_members WHERE member_type = 'user' AND member_id = $2
           AND project_id IN (SELECT id FROM projects WHERE account_id = $1)`,
        [accountId, userId],
      );
    },
  };
}
