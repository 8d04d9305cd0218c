// Fresh PGlite clusters as dumpDataDir writes them, for the tests' databases to load instead
// of each running initdb (2–4 s of CPU apiece on a 2-core machine) and the migrations
// (~2 s more in a fresh process, PGlite's code not yet optimised): one empty, one migrated.
// Written once per PGlite version (and, migrated, per content of migrations/) under the
// system's temporary directory, atomically (concurrent runs never read half a file).
// Prints their paths as JSON: {"empty": …, "migrated": …}.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteSql } from '../src/adapters/postgres/pglite.ts';
import { migrate, migrationsDigest } from '../src/adapters/postgres/migrate.ts';

const version = (JSON.parse(fs.readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string }).version;
// The test clusters' own settings, written into their postgresql.auto.conf: PGlite zeroes its
// shared memory with a memset in WebAssembly at every start, and the default 128 MB of shared
// buffers made that a third of a test database's start (0.5 CPU s). The tests' databases
// hold a few thousand rows. Part of the files' names, so that a change writes new clusters.
const SETTINGS = { shared_buffers: '16MB' };
const settings = crypto.createHash('sha256').update(JSON.stringify(SETTINGS)).digest('hex').slice(0, 16);
const migrations = migrationsDigest();
const files = {
  empty: path.join(os.tmpdir(), `scanbase-pglite-${version}-empty-${settings}.tar`),
  migrated: path.join(os.tmpdir(), `scanbase-pglite-${version}-migrated-${migrations}-${settings}.tar`),
};

async function write(file: string, prepare: (db: PGlite) => Promise<unknown>): Promise<void> {
  if (fs.existsSync(file)) return;
  const db = await PGlite.create();
  for (const [name, value] of Object.entries(SETTINGS)) await db.exec(`ALTER SYSTEM SET ${name} = '${value}'`);
  await prepare(db);
  const dump = await db.dumpDataDir('none');
  await db.close();
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
}

await write(files.empty, async () => {});
await write(files.migrated, (db) => migrate(pgliteSql(db)));
console.log(JSON.stringify(files));
