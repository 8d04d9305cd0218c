// Forward-only numbered SQL migrations (migrations/NNNN_name.sql), each applied in
// its own transaction under an advisory lock, so nodes starting together are safe.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './sql.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');
const LOCK_KEY = 727_274_001; // any constant shared by every node

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** A short hash of the migrations' names and contents: names the test suites' migrated templates. */
export function migrationsDigest(migrations = readMigrations()): string {
  const hash = crypto.createHash('sha256');
  for (const m of migrations) hash.update(`${m.name}\n${m.sql}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** Applies pending migrations; answers the names applied by this call. */
export async function migrate(sql: Sql, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const m of migrations) {
    // A migration may take as long as it takes: no transaction or statement deadline.
    const done = await sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL statement_timeout = 0');
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      await tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (rows.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    }, { deadlineMs: 0 });
    if (done) applied.push(m.name);
  }
  return applied;
}
