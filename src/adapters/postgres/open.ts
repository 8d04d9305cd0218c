// Opens the engine the configuration names.
import type { DatabaseConfig } from '../../config.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './node-postgres.ts';
import type { Sql } from './sql.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import { databaseFailure } from '../../startup-failures.ts';

export async function openDatabase(db: DatabaseConfig, logger?: Logger): Promise<Sql> {
  switch (db.kind) {
    case 'pglite-file':
      return openPglite(db.dir);
    case 'pglite-memory':
      return openPglite(undefined);
    case 'postgres': {
      const sql = openPostgres(db.url, 10, logger);
      // The first connection, at once: a server that does not answer or refuses the user is
      // one line naming DATABASE_URL, not a stack from the first migration's query.
      try {
        await sql.query('SELECT 1');
      } catch (e) {
        await sql.close();
        throw databaseFailure(e, db.url) ?? e;
      }
      return sql;
    }
  }
}
