import type { LocksRepo } from '../../../core/ports/locks.ts';
import type { Sql } from '../sql.ts';

/** Transaction-scoped advisory locks keyed by the names' hashes (PGlite has them too). */
export function locksRepo(sql: Sql): LocksRepo {
  return {
    async exclusive(names) {
      await sql.query('SELECT pg_advisory_xact_lock(hashtext(s)) FROM (SELECT DISTINCT unnest($1::text[]) AS s ORDER BY 1) t', [names]);
    },
  };
}
