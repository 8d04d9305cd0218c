// The pointclouds module's repository (migration 0023): plain SQL over one executor (the
// pool, or the transaction's when built inside one).
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { PointCloudRecord, PointCloudsRepo } from '../core/ports.ts';

const COLS = `file_id AS "fileId", project_id AS "projectId", output_blob_name AS "outputBlobName", state, job_id AS "jobId",
  phase, points_read::float8 AS "pointsRead", points_total::float8 AS "pointsTotal", percent, eta_seconds AS "etaSeconds",
  reason, message, point_count::float8 AS "pointCount", bounds, output_size::float8 AS "outputSize", nodes,
  created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt", updated_at AS "updatedAt"`;

export function pointCloudsRepo(sql: Sql): PointCloudsRepo {
  return {
    async byFile(fileId) {
      const rows = await sql.query<PointCloudRecord>(`SELECT ${COLS} FROM point_clouds WHERE file_id = $1`, [fileId]);
      return rows[0] ?? null;
    },
    claimPending: (limit) =>
      sql.query<PointCloudRecord>(
        `SELECT ${COLS} FROM point_clouds WHERE state = 'pending' ORDER BY created_at, file_id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      ),
    async markQueued(fileId, jobId, now) {
      await sql.query(`UPDATE point_clouds SET state = 'queued', job_id = $2, updated_at = $3 WHERE file_id = $1`, [fileId, jobId, now]);
    },
    async markConverting(fileId, now) {
      const rows = await sql.query(
        `UPDATE point_clouds SET state = 'converting', started_at = COALESCE(started_at, $2), reason = NULL, updated_at = $2
         WHERE file_id = $1 AND state <> 'done' RETURNING file_id`,
        [fileId, now],
      );
      return rows.length === 1;
    },
    async progress(fileId, p, now) {
      await sql.query(
        `UPDATE point_clouds SET phase = $2, points_read = $3, points_total = $4, percent = $5, eta_seconds = $6, updated_at = $7
         WHERE file_id = $1 AND state = 'converting'`,
        [fileId, p.phase, Math.round(p.pointsRead), Math.round(p.pointsTotal), p.percent, p.etaSeconds, now],
      );
    },
    async markRetrying(fileId, message, now) {
      await sql.query(
        `UPDATE point_clouds SET state = 'queued', message = $2, updated_at = $3 WHERE file_id = $1 AND state = 'converting'`,
        [fileId, message.slice(0, 2000), now],
      );
    },
    async markDone(fileId, o, now) {
      await sql.query(
        `UPDATE point_clouds SET state = 'done', phase = 'done', percent = 100, eta_seconds = 0, points_read = $2, points_total = $2,
           point_count = $2, bounds = $3, output_size = $4, nodes = $5, reason = NULL, message = NULL, finished_at = $6, updated_at = $6
         WHERE file_id = $1`,
        [fileId, o.pointCount, JSON.stringify(o.bounds), o.outputSize, o.nodes, now],
      );
    },
    async markFailed(fileId, reason, message, now) {
      await sql.query(
        `UPDATE point_clouds SET state = 'failed', reason = $2, message = $3, eta_seconds = NULL, finished_at = $4, updated_at = $4
         WHERE file_id = $1 AND state NOT IN ('done', 'failed')`,
        [fileId, reason, message.slice(0, 2000), now],
      );
    },
  };
}
