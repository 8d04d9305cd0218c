// Opens the engine the configuration names, with its deadlines (deadlines.ts).
import type { DatabaseConfig, DatabaseDeadlineConfig } from '../../kernel-config.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './node-postgres.ts';
import type { Sql } from './sql.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import { databaseFailure } from '../../startup-failures.ts';

/** node-postgres's pool: connections per node. */
export const POOL_SIZE = 10;

/** How many calls the engine serves at once: PGlite has one connection. */
export const connectionsOf = (sql: Sql): number => (sql.engine === 'pglite' ? 1 : POOL_SIZE);

export async function openDatabase(db: DatabaseConfig, deadlines: DatabaseDeadlineConfig, logger?: Logger): Promise<Sql> {
  switch (db.kind) {
    case 'pglite-file':
      return openPglite(db.dir);
    case 'pglite-memory':
      return openPglite(undefined);
    case 'postgres': {
      const sql = openPostgres(db.url, POOL_SIZE, logger, {
        statementMs: deadlines.statementMs,
        // Past our own transaction deadline (which logs it by name), the server ends it too.
        idleInTransactionMs: deadlines.transactionMs + 5_000,
      });
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
