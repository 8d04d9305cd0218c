// `npm run fuzz -- --seed S --count N [files…]`: the fuzz tests (test/fuzz, or the files
// named) with another seed and N cases per property, through scripts/test.mjs. npm test
// runs the same properties with a fixed seed and small counts (test/fuzz/settings.ts).
// A long run has no per-test, per-file or run time limit unless TEST_TIMEOUT_SECONDS,
// TEST_FILE_TIMEOUT_SECONDS or TEST_BUDGET_SECONDS say otherwise.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { seed: { type: 'string' }, count: { type: 'string' } },
  allowPositionals: true,
});
const env = { ...process.env };
for (const [name, value] of [['seed', values.seed], ['count', values.count]]) {
  if (value === undefined) continue;
  if (!/^\d+$/.test(value) || (name === 'count' && Number(value) < 1)) {
    console.error(`npm run fuzz: --${name} ${JSON.stringify(value)} is invalid: expected a ${name === 'count' ? 'positive ' : ''}integer`);
    process.exit(2);
  }
  env[name === 'seed' ? 'FUZZ_SEED' : 'FUZZ_COUNT'] = value;
}
for (const limit of ['TEST_TIMEOUT_SECONDS', 'TEST_FILE_TIMEOUT_SECONDS', 'TEST_BUDGET_SECONDS']) env[limit] ??= '0';
console.log(`fuzz: seed ${env.FUZZ_SEED ?? '(fixed)'}, ${env.FUZZ_COUNT ?? 'the default count of'} cases per property`);
const run = spawnSync(process.execPath, ['scripts/test.mjs', ...(positionals.length ? positionals : ['test/fuzz'])], { stdio: 'inherit', env });
process.exit(run.status ?? 1);
