// The roles module's SQL (table roles, migrations/).
import type { RoleRecord, RolesRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';

const COLS = `id, api1_id AS "api1Id", account_id AS "accountId", name, description, color, permissions,
  legacy_permissions AS "legacyPermissions", is_base AS "isBase", created_by AS "createdBy",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Timestamps as json_agg writes them (ISO 8601 text), until they are made Dates. */
interface Stamps {
  createdAt: string | Date;
  updatedAt: string | Date;
}

export function rolesRepo(sql: Sql): RolesRepo {
  return {
    async byRef(accountId, ref) {
      const [where, v] = byRefClause(ref);
      const rows = await sql.query<RoleRecord>(`SELECT ${COLS} FROM roles WHERE account_id = $1 AND ${where}`, [accountId, v]);
      return rows[0] ?? null;
    },
    // The whole list as one JSON value: the drivers parse one field with JSON.parse instead
    // of 12 columns per row with two text[] (per-character array parsing); about half the
    // client CPU on node-postgres, a sixth on PGlite. Timestamps come back as ISO text.
    async listByAccount(accountId) {
      const rows = await sql.query<{ roles: (Omit<RoleRecord, 'createdAt' | 'updatedAt'> & Stamps)[] | null }>(
        `SELECT json_agg(r ORDER BY r."isBase" DESC, r."createdAt", r.id) AS roles
         FROM (SELECT ${COLS} FROM roles WHERE account_id = $1) r`,
        [accountId],
      );
      const roles = rows[0]?.roles ?? [];
      for (const r of roles) {
        r.createdAt = new Date(r.createdAt);
        r.updatedAt = new Date(r.updatedAt);
      }
      return roles as RoleRecord[];
    },
    async insert(r, now) {
      const rows = await sql.query<RoleRecord>(
        `INSERT INTO roles (id, api1_id, account_id, name, description, color, permissions, legacy_permissions, is_base,
           created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING ${COLS}`,
        [r.id, api1IdOf(r.id), r.accountId, r.name, r.description, r.color, r.permissions, r.legacyPermissions, r.isBase, r.createdBy, now],
      );
      return rows[0]!;
    },
    async update(id, f, now) {
      const rows = await sql.query<RoleRecord>(
        `UPDATE roles SET name = $2, description = $3, color = $4, permissions = $5, legacy_permissions = $6, updated_at = $7
         WHERE id = $1 RETURNING ${COLS}`,
        [id, f.name, f.description, f.color, f.permissions, f.legacyPermissions, now],
      );
      return rows[0]!;
    },
    async remove(id) {
      await sql.query('DELETE FROM roles WHERE id = $1', [id]);
    },
    async usage(roleId) {
      const rows = await sql.query<{ projectId: string }>(
        'SELECT DISTINCT project_id AS "projectId" FROM project_members WHERE role_id = $1 ORDER BY 1',
        [roleId],
      );
      return rows.map((r) => r.projectId);
    },
  };
}
