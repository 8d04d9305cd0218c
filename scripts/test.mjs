// `npm test`: runs the setup step, then every *.test.ts under src/, test/ and packages/*/test/ with
// node's test runner (through tsx). TEST_DATABASE_URL=postgres://… runs the same
// suite on PostgreSQL. Arguments narrow the run: `npm test -- test/http`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const setup = spawnSync(process.execPath, ['scripts/setup.mjs'], { stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);
// Fresh PGlite clusters (empty, migrated) the test databases load instead of running
// initdb and the migrations each time.
const template = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/pglite-template.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (template.status !== 0) process.exit(template.status ?? 1);
const templates = JSON.parse(template.stdout.trim().split('\n').pop());

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') walk(p, out);
    } else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
// The workspaces' tests (packages/*/test) run with the service's.
const packageTests = fs.existsSync('packages') ? fs.readdirSync('packages').map((p) => path.join('packages', p, 'test')) : [];
const roots = args.length ? args : ['src', 'test', ...packageTests];
// Files that never touch the database engine under test (object-store adapters against
// their emulators, servers that always run on embedded PGlite) say `@engine-independent`
// in their header: the PostgreSQL pass leaves them to the PGlite pass, unless named.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const engineIndependent = (f) => fs.readFileSync(f, 'utf8').slice(0, 2000).includes('@engine-independent');
const files = roots
  .flatMap((r) => (r.endsWith('.ts') ? [r] : walk(r, []).filter((f) => !(onPostgres && engineIndependent(f)))))
  .sort();
if (!files.length) {
  console.error('no test files found');
  process.exit(1);
}
// Test files spend much of their time waiting (servers starting, child processes, the
// database): one more file than cores keeps the cores busy.
const concurrency = Number(process.env.TEST_CONCURRENCY) || os.availableParallelism() + 1;
const res = spawnSync(
  process.execPath,
  [
    // The client packages' sources rather than their built dist/ (packages/*/package.json exports).
    '--conditions=@scanbase/source',
    '--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
    // TEST_TIMES=path: also write the time each file took (scripts/file-times-reporter.mjs).
    ...(process.env.TEST_TIMES ? ['--test-reporter=./scripts/file-times-reporter.mjs', `--test-reporter-destination=${process.env.TEST_TIMES}`] : []),
    `--test-concurrency=${concurrency}`, ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', SCANBASE_TEST_PGLITE_EMPTY: templates.empty, SCANBASE_TEST_PGLITE_MIGRATED: templates.migrated } },
);
process.exit(res.status ?? 1);
