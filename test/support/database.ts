// Test databases: in-memory PGlite by default; with TEST_DATABASE_URL, a fresh
// PostgreSQL database per call (created, then dropped), so runs never share data.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import { migrate, migrationsDigest } from '../../src/adapters/postgres/migrate.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/**
 * The fresh clusters `npm test` wrote (scripts/pglite-template.ts), empty and migrated: a
 * PGlite test database loads one instead of running initdb (and the migrations). Without
 * them (a test file run alone) each database is made as on a first start.
 */
const TEMPLATES = { empty: process.env.SCANBASE_TEST_PGLITE_EMPTY, migrated: process.env.SCANBASE_TEST_PGLITE_MIGRATED };
/**
 * A cluster's tar, read once per process. PGlite reads a template whole with `arrayBuffer()`,
 * which Node's own Blob answers by streaming it in small chunks and joining them (0.2 CPU s
 * for a cluster's 43 MB, at every test database; and as much again to copy the bytes into a
 * Blob). This one is the file's own Blob (`fs.openAsBlob`: nothing copied) whose
 * `arrayBuffer()` hands out a copy of the bytes read once.
 */
class TemplateBlob extends Blob {
  readonly #file: string;
  #bytes: Uint8Array | undefined;
  constructor(file: Blob, path: string) {
    super([file]);
    this.#file = path;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    this.#bytes ??= fs.readFileSync(this.#file);
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}
const loaded: { empty?: Promise<Blob>; migrated?: Promise<Blob> } = {};
const pgliteTemplate = (kind: 'empty' | 'migrated') => {
  const file = TEMPLATES[kind];
  return file ? (loaded[kind] ??= fs.openAsBlob(file).then((blob) => new TemplateBlob(blob, file))) : undefined;
};
/** The migrated cluster's file, for a spawned server's DATA_DIR (test/support/server.ts). */
export const MIGRATED_PGLITE_TEMPLATE = TEMPLATES.migrated;

async function pgliteDatabase(template: Blob | undefined): Promise<TestDatabase> {
  const sql = await openPglite(undefined, { template });
  return { sql, url: undefined, drop: () => sql.close() };
}

export interface TestDatabase {
  sql: Sql;
  /** The URL a spawned server can use (postgres only). */
  url: string | undefined;
  drop(): Promise<void>;
}

const databaseUrl = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A test database's name: the run's id (scripts/test.mjs sets TEST_RUN_ID; it lists what a
 * run left on the server by that prefix and fails), the test file's name, and a random part.
 * An unquoted identifier of at most 63 bytes.
 */
function testDatabaseName(): string {
  const run = /^[a-z0-9]{1,8}$/.test(process.env.TEST_RUN_ID ?? '') ? process.env.TEST_RUN_ID! : 'norun';
  const file = path.basename(process.argv[1] ?? 'node').replace(/\.test\.ts$|\.[cm]?[jt]s$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 30);
  return `sb_test_${run}_${file}_${crypto.randomBytes(4).toString('hex')}`;
}

/**
 * A fresh PostgreSQL database on the TEST_DATABASE_URL server: empty, or a copy of
 * `template` (CREATE DATABASE … TEMPLATE).
 */
export async function freshPostgresUrl(serverUrl: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = testDatabaseName();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(serverUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function testDatabase(engine: 'pglite' | 'postgres' = TEST_DATABASE_URL ? 'postgres' : 'pglite'): Promise<TestDatabase> {
  if (engine === 'pglite') return pgliteDatabase(await pgliteTemplate('empty'));
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  return postgresDatabase(TEST_DATABASE_URL);
}

async function postgresDatabase(serverUrl: string, template?: string): Promise<TestDatabase> {
  const fresh = await freshPostgresUrl(serverUrl, template);
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

/** A fresh database with every migration applied (PGlite: loaded already migrated). */
export async function migratedDatabase(engine: 'pglite' | 'postgres' = TEST_DATABASE_URL ? 'postgres' : 'pglite'): Promise<TestDatabase> {
  const template = engine === 'pglite' ? await pgliteTemplate('migrated') : undefined;
  if (template) return pgliteDatabase(template);
  if (engine === 'postgres' && TEST_DATABASE_URL) return postgresDatabase(TEST_DATABASE_URL, await postgresTemplate(TEST_DATABASE_URL));
  const db = await testDatabase(engine);
  await migrate(db.sql);
  return db;
}

/**
 * The migrated database the PostgreSQL pass copies (CREATE DATABASE … TEMPLATE: ~260 ms against
 * ~560 ms for an empty database and the migrations, measured 2026-11-29): one per content of
 * migrations/, named by its hash, made by the first test process that needs it while the
 * others wait on an advisory lock, and renamed into place only once migrated. Nothing
 * connects to it afterwards (a template with a session open cannot be copied).
 */
let postgresTemplateName: Promise<string> | undefined;
function postgresTemplate(serverUrl: string): Promise<string> {
  return (postgresTemplateName ??= (async () => {
    const name = `sb_template_${migrationsDigest()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!exists.rowCount) {
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        const sql = openPostgres(databaseUrl(serverUrl, building), 2);
        try {
          await migrate(sql);
        } finally {
          await sql.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
    } finally {
      await admin.end(); // ends the session, and its advisory lock with it
    }
    return name;
  })());
}
/** The advisory lock (a bigint key) of the template's making: "sbtpl" in ASCII. */
const TEMPLATE_LOCK = 0x736274706c;

/**
 * The engine the pass runs on: PGlite, or PostgreSQL when configured. CI runs the suite once
 * on each (`.ci/run`), so a PostgreSQL pass does not repeat the PGlite cases of the PGlite pass
 * (which doubled its slowest files: each `npm run admin` process opens PGlite anew).
 */
export const ENGINES: ('pglite' | 'postgres')[] = TEST_DATABASE_URL ? ['postgres'] : ['pglite'];
