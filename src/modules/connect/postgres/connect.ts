import type { ConnectJobRecord, ConnectRepo } from '../core/ports.ts';
import type { FileRecord } from '../../../core/ports/file-repositories.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { F_COLS } from '../../../adapters/postgres/repos/files.ts';

const COLS = `id, slug, kind, state, account_id AS "accountId", project_id AS "projectId", workzone_id AS "workzoneId",
  created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function connectRepo(sql: Sql): ConnectRepo {
  return {
    async insert(j) {
      await sql.query(
        `INSERT INTO connect_jobs (id, slug, kind, state, account_id, project_id, workzone_id, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [j.id, j.slug, j.kind, j.state, j.accountId, j.projectId, j.workzoneId, j.createdBy, j.createdAt, j.updatedAt],
      );
    },
    async bySlug(slug) {
      const rows = await sql.query<ConnectJobRecord>(`SELECT ${COLS} FROM connect_jobs WHERE slug = $1`, [slug]);
      return rows[0] ?? null;
    },
    async addFiles(jobId, fileIds) {
      if (!fileIds.length) return;
      await sql.query(
        `INSERT INTO connect_job_files (job_id, file_id, position)
         SELECT $1, f.id, (SELECT COALESCE(MAX(position), 0) FROM connect_job_files WHERE job_id = $1) + f.n
         FROM unnest($2::uuid[]) WITH ORDINALITY AS f(id, n)
         ON CONFLICT (job_id, file_id) DO NOTHING`,
        [jobId, fileIds],
      );
    },
    files: (jobId) =>
      sql.query<FileRecord>(
        `SELECT ${F_COLS} FROM files JOIN connect_job_files ON file_id = id WHERE job_id = $1 ORDER BY position`,
        [jobId],
      ),
    async setState(jobId, state, now) {
      await sql.query('UPDATE connect_jobs SET state = $2, updated_at = $3 WHERE id = $1', [jobId, state, now]);
    },
  };
}
