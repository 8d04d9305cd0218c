// The uploads module's repository (migration 0022), bound to one executor like every repo
// of src/adapters/postgres/repos.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { MultipartUploadRecord, MultipartUploadsRepo } from '../core/records.ts';

const COLS = `id, project_id AS "projectId", workzone_id AS "workzoneId", blob_name AS "blobName", category, name, extension,
  size::float8 AS size, part_size::float8 AS "partSize", store_upload_id AS "storeUploadId", user_id AS "userId",
  created_at AS "createdAt", expires_at AS "expiresAt", file_id AS "fileId", completed_at AS "completedAt"`;

export function multipartUploadsRepo(sql: Sql): MultipartUploadsRepo {
  const one = async (text: string, values: unknown[]) => (await sql.query<MultipartUploadRecord>(text, values))[0] ?? null;
  return {
    async insert(r) {
      await sql.query(
        `INSERT INTO multipart_uploads (id, project_id, workzone_id, blob_name, category, name, extension, size, part_size,
           store_upload_id, user_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [r.id, r.projectId, r.workzoneId, r.blobName, r.category, r.name, r.extension, r.size, r.partSize, r.storeUploadId, r.userId,
          r.createdAt, r.expiresAt],
      );
    },
    byId: (projectId, id) => one(`SELECT ${COLS} FROM multipart_uploads WHERE project_id = $1 AND id = $2`, [projectId, id]),
    byIdForUpdate: (projectId, id) => one(`SELECT ${COLS} FROM multipart_uploads WHERE project_id = $1 AND id = $2 FOR UPDATE`, [projectId, id]),
    async markCompleted(id, fileId, now) {
      await sql.query('UPDATE multipart_uploads SET file_id = $2, completed_at = $3 WHERE id = $1', [id, fileId, now]);
    },
    async remove(id) {
      await sql.query('DELETE FROM multipart_uploads WHERE id = $1', [id]);
    },
    claimExpired: (now, limit) =>
      sql.query<MultipartUploadRecord>(
        `SELECT ${COLS} FROM multipart_uploads m
         WHERE m.expires_at <= $1 OR NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = m.project_id)
         ORDER BY m.expires_at, m.id LIMIT $2 FOR UPDATE OF m SKIP LOCKED`,
        [now, limit],
      ),
  };
}
