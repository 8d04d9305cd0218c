// The projects module's SQL of projects and their counts (its port: ../core/ports.ts ProjectsRepo).
import type { ProjectRecord, ProjectStats, ProjectsRepo } from '../core/ports.ts';
import { queryJsonRows, type Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';

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
