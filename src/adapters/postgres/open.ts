// Opens the engine the configuration names.
import type { DatabaseConfig } from '../../config.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './node-postgres.ts';
import type { Sql } from './sql.ts';
import type { Logger } from '../../core/ports/telemetry.ts';

export async function openDatabase(db: DatabaseConfig, logger?: Logger): Promise<Sql> {
  switch (db.kind) {
    case 'pglite-file':
      return openPglite(db.dir);
    case 'pglite-memory':
      return openPglite(undefined);
    case 'postgres':
      return openPostgres(db.url, 10, logger);
  }
}
