import type {
  ProjectRecord, ProjectStats, ProjectsRepo, WorkzoneRecord, WorkzonesRepo, WorkzoneWithStats,
} from '../../../core/ports/project-repositories.ts';
import { queryJsonRows, type Sql } from '../sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from './ref.ts';
import { grouped } from './grouped.ts';

interface ProjectRow extends Omit<ProjectRecord, 'location' | 'spatialReference'> {
  lat: number | null;
  lng: number | null;
  authName: string | null;
  code: string | null;
}

const P_COLS = `p.id, p.api1_id AS "api1Id", p.account_id AS "accountId", p.subscription_id AS "subscriptionId", p.name,
  p.description, p.owner_id AS "ownerId", p.location_lat AS lat, p.location_lng AS lng,
  p.spatial_auth_name AS "authName", p.spatial_code AS code, p.region, p.is_demo AS "isDemo",
  p.root_workzone_id AS "rootWorkzoneId", p.cover_blob_name AS "coverBlobName", p.created_at AS "createdAt",
  p.created_by AS "createdBy", p.updated_at AS "updatedAt", p.updated_by AS "updatedBy", p.deleted_at AS "deletedAt",
  p.deleted_by AS "deletedBy"`;

function toProject(r: ProjectRow): ProjectRecord {
  const { lat, lng, authName, code, ...rest } = r;
  return {
    ...rest,
    location: lat !== null && lng !== null ? { lat, lng } : null,
    spatialReference: authName !== null && code !== null ? { authName, code } : null,
  };
}

/** A ProjectRow as JSON carries its timestamps as text. */
type JsonProjectRow = Omit<ProjectRow, 'createdAt' | 'updatedAt' | 'deletedAt'> & { createdAt: string; updatedAt: string; deletedAt: string | null };
const LIST_ORDER = 'q."createdAt", q.id';

function fromJsonRow(r: JsonProjectRow): ProjectRecord {
  return toProject({
    ...r,
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
    deletedAt: r.deletedAt === null ? null : new Date(r.deletedAt),
  });
}

/** Users reach a project as themselves or through one of their groups. */
const MEMBER_OF = `(pm.member_type = 'user' AND pm.member_id = $2)
  OR (pm.member_type = 'group' AND pm.member_id IN (SELECT group_id FROM group_members WHERE user_id = $2))`;

export function projectsRepo(sql: Sql): ProjectsRepo {
  return {
    async byRef(accountId, ref) {
      const [where, v] = byRefClause(ref, 'p');
      const rows = await sql.query<ProjectRow>(`SELECT ${P_COLS} FROM projects p WHERE p.account_id = $1 AND ${where}`, [accountId, v]);
      return rows[0] ? toProject(rows[0]) : null;
    },
    async list(accountId, filter) {
      // Read as one JSON text (a list may hold thousands of projects: queryJsonRows).
      const rows =
        'all' in filter
          ? await queryJsonRows<JsonProjectRow>(sql, `SELECT ${P_COLS} FROM projects p WHERE p.account_id = $1`, [accountId], LIST_ORDER)
          : // Joined with the caller's memberships (a hash join): a per-project EXISTS became a
            // nested loop over every membership when the statistics were stale (PGlite has no
            // autovacuum), a cost growing with projects × memberships.
            await queryJsonRows<JsonProjectRow>(
              sql,
              `SELECT ${P_COLS} FROM projects p
               JOIN (SELECT DISTINCT pm.project_id FROM project_members pm
                     WHERE (${MEMBER_OF}) AND (pm.expires_at IS NULL OR pm.expires_at > $3)) m ON m.project_id = p.id
               WHERE p.account_id = $1`,
              [accountId, filter.memberUserId, filter.now],
              LIST_ORDER,
            );
      return rows.map(fromJsonRow);
    },
    async byWorkzone(accountId, ref) {
      const [where, v] = byRefClause(ref, 'w');
      const rows = await sql.query<ProjectRow>(
        `SELECT ${P_COLS} FROM projects p JOIN workzones w ON w.project_id = p.id WHERE p.account_id = $1 AND ${where}`,
        [accountId, v],
      );
      return rows[0] ? toProject(rows[0]) : null;
    },
    async insert(p) {
      await sql.query(
        `INSERT INTO projects (id, api1_id, account_id, subscription_id, name, description, owner_id, location_lat,
           location_lng, spatial_auth_name, spatial_code, region, is_demo, root_workzone_id, cover_blob_name,
           created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, $17)`,
        [
          p.id, api1IdOf(p.id), p.accountId, p.subscriptionId, p.name, p.description, p.ownerId, p.location?.lat ?? null,
          p.location?.lng ?? null, p.spatialReference?.authName ?? null, p.spatialReference?.code ?? null, p.region,
          p.isDemo, p.rootWorkzoneId, p.coverBlobName, p.createdAt, p.createdBy,
        ],
      );
    },
    async update(id, f, by, now) {
      await sql.query(
        `UPDATE projects SET name = $2, description = $3, location_lat = $4, location_lng = $5, spatial_auth_name = $6,
           spatial_code = $7, cover_blob_name = $8, subscription_id = $9, owner_id = $10, updated_at = $11, updated_by = $12
         WHERE id = $1`,
        [
          id, f.name, f.description, f.location?.lat ?? null, f.location?.lng ?? null, f.spatialReference?.authName ?? null,
          f.spatialReference?.code ?? null, f.coverBlobName, f.subscriptionId, f.ownerId, now, by,
        ],
      );
    },
    async setDeleted(id, deleted, now) {
      await sql.query('UPDATE projects SET deleted_at = $2, deleted_by = $3, updated_at = $4 WHERE id = $1', [
        id, deleted?.at ?? null, deleted?.by ?? null, now,
      ]);
    },
    async remove(id) {
      await sql.query('DELETE FROM projects WHERE id = $1', [id]);
    },
    async stats(projectIds) {
      const out = new Map<string, ProjectStats>();
      if (!projectIds.length) return out;
      // One query for any number of projects, each count grouped once over the listed
      // projects (not three correlated subqueries per project), read as one JSON text
      // (queryJsonRows). Live tags: tag_lists.tag_count is kept in the transaction of every
      // tag change.
      const rows = await queryJsonRows<ProjectStats & { id: string }>(
        sql,
        `SELECT p.id, coalesce(w.n, 0) AS "workzoneCount", coalesce(f.n, 0) AS "scanCount",
           coalesce(f.size, 0)::float8 AS "scanSize", coalesce(t.n, 0) AS "tagCount"
         FROM unnest($1::uuid[]) AS p (id)
         LEFT JOIN (SELECT project_id, count(*)::int AS n FROM workzones WHERE project_id = ANY($1::uuid[]) GROUP BY project_id) w
           ON w.project_id = p.id
         LEFT JOIN (SELECT project_id, count(*)::int AS n, sum(size)::float8 AS size FROM files
           WHERE project_id = ANY($1::uuid[]) AND category = 'scan' GROUP BY project_id) f ON f.project_id = p.id
         LEFT JOIN (SELECT project_id, sum(tag_count)::int AS n FROM tag_lists WHERE project_id = ANY($1::uuid[]) GROUP BY project_id) t
           ON t.project_id = p.id`,
        [projectIds],
      );
      for (const { id, ...stats } of rows) out.set(id, stats);
      return out;
    },
    async ownedBy(userId, accountId) {
      const rows = await sql.query<{ id: string }>('SELECT id FROM projects WHERE owner_id = $1 AND account_id = $2 ORDER BY id', [
        userId, accountId,
      ]);
      return rows.map((r) => r.id);
    },
    async touchAccessed(id, date) {
      await sql.query(
        'UPDATE projects SET last_accessed_date = $2 WHERE id = $1 AND last_accessed_date IS DISTINCT FROM $2::date',
        [id, date],
      );
    },
  };
}

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
