// A fresh PGlite cluster as dumpDataDir writes it, for the tests' in-memory databases to
// load instead of each running initdb (2–4 s of CPU apiece on a 2-core machine; a run
// starts hundreds). Written once per PGlite version under the system's temporary directory
// (atomically: concurrent runs never read half a file); prints its path.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const version = JSON.parse(fs.readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')).version;
const file = path.join(os.tmpdir(), `scanbase-pglite-template-${version}.tar`);
if (!fs.existsSync(file)) {
  const db = await PGlite.create();
  const dump = await db.dumpDataDir('none');
  await db.close();
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
}
console.log(file);
