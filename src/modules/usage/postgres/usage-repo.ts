// The usage module's SQL: the report over migration 0030's counters (the triggers write them,
// and recordDownloads the downloads, migration 0039).
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { DownloadCount } from '../core/recorder.ts';
import type { UsageQuery, UsageRepo, UsageRow } from '../core/ports.ts';

const count = (action: string) => `coalesce(sum(c.count) FILTER (WHERE c.action = '${action}'), 0)::integer`;

export function usageRepo(sql: Sql): UsageRepo {
  return {
    async report(q: UsageQuery): Promise<UsageRow[]> {
      return sql.query<UsageRow>(
        `SELECT c.day::text AS date, c.user_id AS "userId", u.first_name AS "firstName", u.last_name AS "lastName", u.email, u.company,
           c.project_id AS "projectId", coalesce(p.name, max(c.project_name)) AS "projectName",
           ${count('scans-uploaded')} AS "scansUploaded", ${count('scans-downloaded')} AS "scansDownloaded", ${count('360-images-uploaded')} AS "images360Uploaded",
           ${count('crops-downloaded')} AS "cropsDownloaded", ${count('meshes-created')} AS "meshesCreated", ${count('tags-uploaded')} AS "tagsUploaded",
           ${count('tags-downloaded')} AS "tagsDownloaded"
         FROM usage_counters c
         JOIN users u ON u.id = c.user_id
         LEFT JOIN projects p ON p.id = c.project_id
         WHERE c.subscription_id = $1 AND c.day BETWEEN $2::date AND $3::date
           AND ($4::boolean OR (p.id IS NOT NULL AND p.deleted_at IS NULL))
         GROUP BY c.day, c.user_id, u.first_name, u.last_name, u.email, u.company, c.project_id, p.name
         ORDER BY c.day, lower(u.email), 8, c.project_id`,
        [q.subscriptionId, q.from, q.until, q.includeDeleted],
      );
    },

    async addCounts(day: string, counts: readonly DownloadCount[]): Promise<void> {
      // One statement; the rows in key order, so two concurrent recordings upsert the same
      // counters in the same order (no deadlock).
      await sql.query(
        `SELECT count(count_usage($1::date, x."projectId", x."userId", x.action, x.count))
           FROM (SELECT * FROM jsonb_to_recordset($2::jsonb) AS r("projectId" uuid, "userId" uuid, action text, count integer)
                 ORDER BY "userId", "projectId", action) x`,
        [day, JSON.stringify(counts)],
      );
    },
  };
}
