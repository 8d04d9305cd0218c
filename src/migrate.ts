// `npm run migrate`: applies pending migrations to the configured database and exits.
import { loadConfig } from './config.ts';
import { openDatabase } from './adapters/postgres/open.ts';
import { migrate } from './adapters/postgres/migrate.ts';

const config = loadConfig();
const sql = await openDatabase(config.database, config.databaseDeadlines);
try {
  const applied = await migrate(sql);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'up to date');
} finally {
  await sql.close();
}
