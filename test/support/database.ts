// Test databases: in-memory PGlite by default; with TEST_DATABASE_URL, a fresh
// PostgreSQL database per call (created, then dropped), so runs never share data.
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** The fresh cluster `npm test` wrote (scripts/pglite-template.mjs): loaded, not initdb'd, per database. */
const TEMPLATE = process.env.SCANBASE_TEST_PGLITE_TEMPLATE;
let template: Blob | undefined;
const pgliteTemplate = () => (TEMPLATE ? (template ??= new Blob([fs.readFileSync(TEMPLATE)])) : undefined);

export interface TestDatabase {
  sql: Sql;
  /** The URL a spawned server can use (postgres only). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server. */
export async function freshPostgresUrl(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sb_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function testDatabase(engine: 'pglite' | 'postgres' = TEST_DATABASE_URL ? 'postgres' : 'pglite'): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const sql = await openPglite(undefined, { template: pgliteTemplate() });
    return { sql, url: undefined, drop: () => sql.close() };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const fresh = await freshPostgresUrl(TEST_DATABASE_URL);
  const sql = openPostgres(fresh.url, 20);
  return {
    sql,
    url: fresh.url,
    async drop() {
      await sql.close();
      await fresh.drop();
    },
  };
}

/** The engines repository tests run on: PGlite always, PostgreSQL when configured. */
export const ENGINES: ('pglite' | 'postgres')[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
