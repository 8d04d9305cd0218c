// `npm test`: runs the setup step, then every *.test.ts under src/ and test/ with
// node's test runner (through tsx). TEST_DATABASE_URL=postgres://… runs the same
// suite on PostgreSQL. Arguments narrow the run: `npm test -- test/http`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const setup = spawnSync(process.execPath, ['scripts/setup.mjs'], { stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.length ? args : ['src', 'test'];
const files = roots.flatMap((r) => (r.endsWith('.ts') ? [r] : walk(r, []))).sort();
if (!files.length) {
  console.error('no test files found');
  process.exit(1);
}
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(res.status ?? 1);
