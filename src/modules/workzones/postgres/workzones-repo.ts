// The workzones module's SQL (migration 0004's workzones and workzone_ancestry): plain statements bound to an executor.
import type { WorkzoneRecord, WorkzonesRepo, WorkzoneWithStats } from '../core/ports.ts';
import { queryJsonRows, type Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';
import { grouped } from '../../../adapters/postgres/repos/grouped.ts';

/** A work zone's columns, of the table aliased `p` when given. */
const wCols = (p = '') => `${p}id, ${p}api1_id AS "api1Id", ${p}project_id AS "projectId", ${p}parent_id AS "parentId", ${p}name,
  ${p}description, ${p}cover_blob_name AS "coverBlobName", ${p}created_at AS "createdAt", ${p}created_by AS "createdBy",
  ${p}updated_at AS "updatedAt", ${p}updated_by AS "updatedBy"`;
const W_COLS = wCols();
/** A WorkzoneRecord as JSON carries its timestamps as text. */
type JsonWorkzoneRow = Omit<WorkzoneRecord, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string };

export function workzonesRepo(sql: Sql): WorkzonesRepo {
  return {
    async byRef(projectId, ref) {
      const [where, v] = byRefClause(ref);
      const rows = await sql.query<WorkzoneRecord>(`SELECT ${W_COLS} FROM workzones WHERE project_id = $1 AND ${where}`, [projectId, v]);
      return rows[0] ?? null;
    },
    async withStatsByRef(projectId, ref) {
      const [where, v] = byRefClause(ref, 'w');
      const rows = await sql.query<WorkzoneWithStats>(
        `SELECT ${wCols('w.')},
           -- each member's role through the primary key, per access row. As a join, PGlite's
           -- stale statistics made it a hash join over every membership of every project; with
           -- member_id = …, they chose the (member_id, member_type) index, which for the
           -- account owner holds every project. IS NOT DISTINCT FROM (member_id is never
           -- null) leaves only the key's (project_id, member_type) prefix to an index.
           ARRAY(SELECT DISTINCT (SELECT pm.role_id FROM project_members pm
                   WHERE pm.project_id = wa.project_id AND pm.member_type = wa.member_type AND pm.member_id IS NOT DISTINCT FROM wa.member_id)
                 FROM workzone_access wa WHERE wa.workzone_id = w.id ORDER BY 1) AS "roleIds",
           s.n AS "scanCount", s.size AS "scanSize",
           (SELECT coalesce(sum(t.tag_count), 0)::int FROM tag_lists t WHERE t.project_id = w.project_id AND t.workzone_id = w.id) AS "tagCount"
         FROM workzones w
         CROSS JOIN LATERAL (SELECT count(*)::int AS n, coalesce(sum(f.size), 0)::float8 AS size FROM files f
           WHERE f.project_id = w.project_id AND f.workzone_id = w.id AND f.category = 'scan') s
         WHERE w.project_id = $1 AND ${where}`,
        [projectId, v],
        { name: 'uuid' in ref ? 'workzone-with-stats-by-id' : 'workzone-with-stats-by-api1-id' }, // a member's read of a zone
      );
      return rows[0] ?? null;
    },
    listByProject: (projectId) =>
      sql.query<WorkzoneRecord>(
        `SELECT ${W_COLS} FROM workzones w JOIN workzone_ancestry a ON a.descendant_id = w.id
         WHERE w.project_id = $1 AND a.ancestor_id = (SELECT root_workzone_id FROM projects WHERE id = $1)
         ORDER BY a.depth, w.created_at, w.id`,
        [projectId],
      ),
    async listByProjects(projectIds) {
      if (!projectIds.length) return new Map();
      // One statement for any number of projects, in listByProject's order within each
      // project (the depth is read for the order only), read as one JSON text (queryJsonRows).
      const rows = await queryJsonRows<JsonWorkzoneRow & { depth: number }>(
        sql,
        `SELECT ${wCols('w.')}, a.depth FROM projects p
         JOIN workzone_ancestry a ON a.ancestor_id = p.root_workzone_id
         JOIN workzones w ON w.id = a.descendant_id AND w.project_id = p.id
         WHERE p.id = ANY($1::uuid[])`,
        [projectIds],
        'q."projectId", q.depth, q."createdAt", q.id',
      );
      return grouped(rows, (r) => r.projectId, ({ depth: _depth, ...r }): WorkzoneRecord => ({
        ...r,
        createdAt: new Date(r.createdAt),
        updatedAt: new Date(r.updatedAt),
      }));
    },
    async insert(w) {
      await sql.query(
        `INSERT INTO workzones (id, api1_id, project_id, parent_id, name, description, cover_blob_name, created_at,
           created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $9)`,
        [w.id, api1IdOf(w.id), w.projectId, w.parentId, w.name, w.description, w.coverBlobName, w.createdAt, w.createdBy],
      );
      await sql.query(
        `INSERT INTO workzone_ancestry (ancestor_id, descendant_id, depth)
         SELECT ancestor_id, $1::uuid, depth + 1 FROM workzone_ancestry WHERE descendant_id = $2::uuid
         UNION ALL SELECT $1::uuid, $1::uuid, 0`,
        [w.id, w.parentId],
      );
    },
    async update(id, f, by, now) {
      await sql.query('UPDATE workzones SET name = $2, description = $3, updated_at = $4, updated_by = $5 WHERE id = $1', [
        id, f.name, f.description, now, by,
      ]);
    },
    async removeSubtree(id) {
      await sql.query('DELETE FROM workzones WHERE id IN (SELECT descendant_id FROM workzone_ancestry WHERE ancestor_id = $1)', [id]);
    },
    async subtree(id) {
      const rows = await sql.query<{ id: string }>(
        'SELECT descendant_id AS id FROM workzone_ancestry WHERE ancestor_id = $1 ORDER BY depth, descendant_id',
        [id],
      );
      return rows.map((r) => r.id);
    },
    async ancestors(id) {
      const rows = await sql.query<{ id: string }>(
        'SELECT ancestor_id AS id FROM workzone_ancestry WHERE descendant_id = $1 AND depth > 0 ORDER BY depth',
        [id],
      );
      return rows.map((r) => r.id);
    },
    async roleIdsByZone(projectId, zoneIds) {
      const rows = await sql.query<{ zone: string; roles: string[] }>(
        `SELECT wa.workzone_id AS zone, array_agg(DISTINCT pm.role_id) AS roles
         FROM workzone_access wa JOIN project_members pm USING (project_id, member_type, member_id)
         WHERE wa.project_id = $1 AND ($2::uuid[] IS NULL OR wa.workzone_id = ANY($2::uuid[])) GROUP BY wa.workzone_id`,
        [projectId, zoneIds ?? null],
      );
      return new Map(rows.map((r) => [r.zone, r.roles]));
    },
  };
}
