import type { JobRecord } from '../../../core/ports/job-handler.ts';
import type { JobsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

const COLS = `id, kind, payload, state, attempts, max_attempts AS "maxAttempts", last_error AS "lastError", result, subjects,
  created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function jobsRepo(sql: Sql): JobsRepo {
  return {
    async enqueue(j, now) {
      await sql.query(
        `INSERT INTO jobs (id, kind, payload, subjects, created_by, max_attempts, run_after, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)`,
        [j.id, j.kind, JSON.stringify(j.payload), j.subjects, j.createdBy, j.maxAttempts, now],
      );
    },
    activeOn: (subjects) =>
      sql.query<JobRecord>(`SELECT ${COLS} FROM jobs WHERE state IN ('queued', 'running') AND subjects && $1::text[]`, [subjects]),
    async claim(now, leaseUntil) {
      const rows = await sql.query<JobRecord>(
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_until = $2, updated_at = $1
         WHERE id = (
           SELECT id FROM jobs
           WHERE (state = 'queued' AND run_after <= $1) OR (state = 'running' AND locked_until < $1)
           ORDER BY created_at, id FOR UPDATE SKIP LOCKED LIMIT 1)
         RETURNING ${COLS}`,
        [now, leaseUntil],
      );
      return rows[0] ?? null;
    },
    async extendLease(id, leaseUntil) {
      await sql.query(`UPDATE jobs SET locked_until = $2 WHERE id = $1 AND state = 'running'`, [id, leaseUntil]);
    },
    async complete(id, result, now) {
      await sql.query(`UPDATE jobs SET state = 'done', result = $2, locked_until = NULL, updated_at = $3 WHERE id = $1`, [
        id, JSON.stringify(result ?? null), now,
      ]);
    },
    async fail(id, error, retryAt, now) {
      await sql.query(
        `UPDATE jobs SET state = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'queued' END,
           run_after = COALESCE($3, run_after), last_error = $2, locked_until = NULL, updated_at = $4 WHERE id = $1`,
        [id, error.slice(0, 2000), retryAt, now],
      );
    },
    async byId(id) {
      const rows = await sql.query<JobRecord>(`SELECT ${COLS} FROM jobs WHERE id = $1`, [id]);
      return rows[0] ?? null;
    },
  };
}
