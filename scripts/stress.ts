// npm run stress -- --seconds N --seed S [--engine pglite|postgres] [--users U]
// The never-hang stress run (test/stress/harness.ts; docs/operations.md "Stress run"):
// prints its report as JSON and exits 1 when anything failed. --engine postgres uses
// TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) to create its database.
import { parseArgs } from 'node:util';
import { runStress } from '../test/stress/harness.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    engine: { type: 'string', default: 'pglite' },
    users: { type: 'string', default: '4' },
  },
});
const engine = values.engine === 'postgres' ? 'postgres' : values.engine === 'pglite' ? 'pglite' : null;
const seconds = Number(values.seconds);
const seed = Number(values.seed);
if (!engine || !Number.isInteger(seconds) || seconds < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run stress -- --seconds N --seed S [--engine pglite|postgres] [--users U]');
  process.exit(2);
}
const report = await runStress({
  seconds, seed, engine, users: Number(values.users),
  postgresUrl: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  log: (line) => console.error(line),
});
console.log(JSON.stringify(report, null, 2));
process.exit(report.failures.length ? 1 : 0);
