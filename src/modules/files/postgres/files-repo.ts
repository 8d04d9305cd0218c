// The files module's SQL (its ports: src/core/ports/file-repositories.ts): files and pending
// uploads (migrations 0006_files.sql, 0010_blob_deletions.sql).
import type {
  FileRecord, FilesRepo, PendingUploadRecord, UploadsRepo,
} from '../../../core/ports/file-repositories.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';
import { F_COLS, SWEEPER_LOCK } from '../../../adapters/postgres/repos/files.ts';

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export function filesRepo(sql: Sql): FilesRepo {
  return {
    async cropThumbnail(projectId, blobName) {
      const rows = await sql.query<{ cropId: string; workzoneId: string }>(
        'SELECT id AS "cropId", workzone_id AS "workzoneId" FROM crops WHERE project_id = $1 AND thumbnail_blob_name = $2 LIMIT 1',
        [projectId, blobName],
      );
      return rows[0] ?? null;
    },
    async byRef(projectId, ref) {
      const [where, v] = byRefClause(ref);
      const rows = await sql.query<FileRecord>(`SELECT ${F_COLS} FROM files WHERE project_id = $1 AND ${where}`, [projectId, v]);
      return rows[0] ?? null;
    },
    async byBlobName(projectId, blobName) {
      const rows = await sql.query<FileRecord>(`SELECT ${F_COLS} FROM files WHERE project_id = $1 AND blob_name = $2`, [projectId, blobName]);
      return rows[0] ?? null;
    },
    list: (projectId, categories) =>
      sql.query<FileRecord>(
        `SELECT ${F_COLS} FROM files WHERE project_id = $1 AND ($2::text[] IS NULL OR category = ANY($2::text[]))
         ORDER BY created_at, id`,
        [projectId, categories ?? null],
      ),
    async insert(f) {
      await sql.query(
        `INSERT INTO files (id, api1_id, project_id, workzone_id, category, format_id, name, extension, size, md5, blob_name,
           translation, rotation, scale, created_at, created_by, imported_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [
          f.id, api1IdOf(f.id), f.projectId, f.workzoneId, f.category, f.formatId, f.name, f.extension, f.size, f.md5, f.blobName,
          json(f.translation), json(f.rotation), json(f.scale), f.createdAt, f.createdBy, f.importedAt,
        ],
      );
    },
    async rename(id, name, by, now) {
      await sql.query('UPDATE files SET name = $2, updated_at = $3, updated_by = $4 WHERE id = $1', [id, name, now, by]);
    },
    async setTransformation(id, t, by, now) {
      await sql.query('UPDATE files SET translation = $2, rotation = $3, scale = $4, updated_at = $5, updated_by = $6 WHERE id = $1', [
        id, json(t.translation), json(t.rotation), json(t.scale), now, by,
      ]);
    },
    async remove(id) {
      await sql.query('DELETE FROM files WHERE id = $1', [id]);
    },
    async countInSubscription(subscriptionId, category, now) {
      const rows = await sql.query<{ registered: number; pending: number }>(
        `SELECT
           (SELECT count(*)::int FROM files f JOIN projects p ON p.id = f.project_id
             WHERE p.subscription_id = $1 AND f.category = $2) AS registered,
           (SELECT count(*)::int FROM pending_uploads u JOIN projects p ON p.id = u.project_id
             WHERE p.subscription_id = $1 AND u.kind = 'file' AND u.category = $2 AND u.expires_at > $3) AS pending`,
        [subscriptionId, category, now],
      );
      return rows[0]!;
    },
    async bytesInSubscription(subscriptionId, now) {
      const rows = await sql.query<{ bytes: number }>(
        `SELECT
           coalesce((SELECT sum(f.size) FROM files f JOIN projects p ON p.id = f.project_id WHERE p.subscription_id = $1), 0)::float8
         + coalesce((SELECT sum(u.size) FROM pending_uploads u JOIN projects p ON p.id = u.project_id
             WHERE p.subscription_id = $1 AND u.expires_at > $2), 0)::float8 AS bytes`,
        [subscriptionId, now],
      );
      return Number(rows[0]!.bytes);
    },
    async countByUser(userId, category, now) {
      const rows = await sql.query<{ registered: number; pending: number }>(
        `SELECT
           (SELECT count(*)::int FROM files WHERE created_by = $1 AND category = $2) AS registered,
           (SELECT count(*)::int FROM pending_uploads WHERE user_id = $1 AND kind = 'file' AND category = $2 AND expires_at > $3) AS pending`,
        [userId, category, now],
      );
      return rows[0]!;
    },
    async lockSubscription(subscriptionId) {
      await sql.query('SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE', [subscriptionId]);
    },
    async scanStatsByZone(projectId, zoneIds) {
      const rows = await sql.query<{ zone: string; n: number; size: number }>(
        `SELECT workzone_id AS zone, count(*)::int AS n, coalesce(sum(size), 0)::float8 AS size
         FROM files WHERE project_id = $1 AND category = 'scan' AND ($2::uuid[] IS NULL OR workzone_id = ANY($2::uuid[]))
         GROUP BY workzone_id`,
        [projectId, zoneIds ?? null],
      );
      return new Map(rows.map((r) => [r.zone, { scanCount: r.n, scanSize: r.size }]));
    },
    async scanStatsByZones(projectIds) {
      const out = new Map<string, Map<string, { scanCount: number; scanSize: number }>>();
      if (!projectIds.length) return out;
      // One statement for any number of projects: one row per zone holding scans.
      const rows = await sql.query<{ project: string; zone: string; n: number; size: number }>(
        `SELECT project_id AS project, workzone_id AS zone, count(*)::int AS n, coalesce(sum(size), 0)::float8 AS size
         FROM files WHERE project_id = ANY($1::uuid[]) AND category = 'scan'
         GROUP BY project_id, workzone_id`,
        [projectIds],
      );
      for (const r of rows) {
        const zones = out.get(r.project) ?? new Map<string, { scanCount: number; scanSize: number }>();
        zones.set(r.zone, { scanCount: r.n, scanSize: r.size });
        out.set(r.project, zones);
      }
      return out;
    },
  };
}

const U_COLS = `id, blob_name AS "blobName", project_id AS "projectId", workzone_id AS "workzoneId", crop_id AS "cropId", kind,
  category, name, extension, size::float8 AS size, md5, user_id AS "userId", created_at AS "createdAt", expires_at AS "expiresAt"`;

export function uploadsRepo(sql: Sql): UploadsRepo {
  return {
    async insert(u) {
      await sql.query(
        `INSERT INTO pending_uploads (id, blob_name, project_id, workzone_id, crop_id, kind, category, name, extension, size, md5,
           user_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          u.id, u.blobName, u.projectId, u.workzoneId, u.cropId, u.kind, u.category, u.name, u.extension, u.size, u.md5, u.userId,
          u.createdAt, u.expiresAt,
        ],
      );
    },
    async byBlobNameForUpdate(projectId, blobName) {
      const rows = await sql.query<PendingUploadRecord>(
        `SELECT ${U_COLS} FROM pending_uploads WHERE project_id = $1 AND blob_name = $2 FOR UPDATE`,
        [projectId, blobName],
      );
      return rows[0] ?? null;
    },
    listLive: (projectId, kind, now) =>
      sql.query<PendingUploadRecord>(
        `SELECT ${U_COLS} FROM pending_uploads WHERE project_id = $1 AND kind = $2 AND expires_at > $3 ORDER BY created_at DESC, id`,
        [projectId, kind, now],
      ),
    async remove(id) {
      await sql.query('DELETE FROM pending_uploads WHERE id = $1', [id]);
    },
    async trySweeperLock() {
      const rows = await sql.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [SWEEPER_LOCK]);
      return rows[0]!.locked;
    },
    claimDeletions: (limit) =>
      sql.query<{ projectId: string; blobName: string; referenced: boolean }>(
        `SELECT d.project_id AS "projectId", d.blob_name AS "blobName",
           (EXISTS (SELECT 1 FROM files f WHERE f.project_id = d.project_id AND f.blob_name = d.blob_name)
             OR EXISTS (SELECT 1 FROM pending_uploads u WHERE u.project_id = d.project_id AND u.blob_name = d.blob_name)
             OR EXISTS (SELECT 1 FROM crops c WHERE c.project_id = d.project_id AND c.thumbnail_blob_name = d.blob_name)
             OR EXISTS (SELECT 1 FROM projects p WHERE p.id = d.project_id AND p.cover_blob_name = d.blob_name)) AS referenced
         FROM blob_deletions d ORDER BY d.queued_at, d.blob_name LIMIT $1 FOR UPDATE OF d SKIP LOCKED`,
        [limit],
      ),
    async removeDeletion(projectId, blobName) {
      await sql.query('DELETE FROM blob_deletions WHERE project_id = $1 AND blob_name = $2', [projectId, blobName]);
    },
    claimExpired: (now, limit) =>
      sql.query<PendingUploadRecord>(
        `SELECT ${U_COLS} FROM pending_uploads WHERE expires_at <= $1 ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      ),
  };
}
