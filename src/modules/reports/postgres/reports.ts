import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { ProjectLastAccessRow, ReportsRepo, UserLastActivityRow } from '../core/ports.ts';

export function reportsRepo(sql: Sql): ReportsRepo {
  return {
    async touchUserActivity(userId, date) {
      await sql.query(
        'UPDATE users SET last_activity_date = $2 WHERE id = $1 AND last_activity_date IS DISTINCT FROM $2::date',
        [userId, date],
      );
    },
    projectsLastAccessed: (accountId, f) =>
      sql.query<ProjectLastAccessRow>(
        `SELECT account_id AS "accountId", subscription_id AS "subscriptionId", id AS "projectId", name AS "projectName",
           to_char(last_accessed_date, 'YYYY-MM-DD') AS "lastAccessedDate"
         FROM projects WHERE account_id = $1 AND ($2::uuid IS NULL OR subscription_id = $2) AND ($3::uuid IS NULL OR id = $3)
         ORDER BY created_at, id`,
        [accountId, f.subscriptionId ?? null, f.projectId ?? null],
      ),
    usersLastActivity: (accountId) =>
      sql.query<UserLastActivityRow>(
        `SELECT u.id AS "userId", u.first_name AS "firstName", u.last_name AS "lastName", u.email, u.company,
           to_char(u.last_activity_date, 'YYYY-MM-DD') AS "lastActivityDate"
         FROM users u JOIN account_members m ON m.user_id = u.id WHERE m.account_id = $1 ORDER BY u.email`,
        [accountId],
      ),
  };
}
