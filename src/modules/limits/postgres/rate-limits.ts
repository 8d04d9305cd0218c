import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { RateLimitsRepo } from '../core/ports.ts';

export function rateLimitsRepo(sql: Sql): RateLimitsRepo {
  return {
    async exchange(taken, now, since) {
      if (taken.length > 0) {
        await sql.query(
          `INSERT INTO rate_limits (key, taken, updated_at)
           SELECT k, n, $3 FROM unnest($1::text[], $2::bigint[]) AS t(k, n)
           ON CONFLICT (key) DO UPDATE SET taken = rate_limits.taken + EXCLUDED.taken, updated_at = EXCLUDED.updated_at`,
          [taken.map((t) => t.key), taken.map((t) => t.n), now],
        );
      }
      return sql.query<{ key: string; taken: number }>(
        'SELECT key, taken::float8 AS taken FROM rate_limits WHERE updated_at >= $1',
        [since],
      );
    },
    async prune(before) {
      const rows = await sql.query('DELETE FROM rate_limits WHERE updated_at < $1 RETURNING key', [before]);
      return rows.length;
    },
  };
}
