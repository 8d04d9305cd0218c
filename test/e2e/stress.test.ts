// The never-hang stress run (test/stress/harness.ts), short: several users, resets, clock
// moves and every periodic task at one second, on the engine under test; every request
// answers within its deadline, /readyz within 2 s, and the data invariants hold. The long
// run is `npm run stress -- --seconds N --seed S` (docs/operations.md "Stress run").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runStress } from '../stress/harness.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';

const SEED = 25;

test(`a node under concurrent writes, reads, resets and clock moves answers every request in time (seed ${SEED})`, async () => {
  // The suite runs several files at once on two cores, and this node shares its process and
  // event loop with the load it answers: /readyz gets 5 s here; `npm run stress` holds it to
  // the probe's 2 s (its 10-minute runs are in docs/operations.md).
  const report = await runStress({
    seconds: 15, seed: SEED, engine: TEST_DATABASE_URL ? 'postgres' : 'pglite', postgresUrl: TEST_DATABASE_URL, readyLimitMs: 5_000,
  });
  assert.deepEqual(report.failures, [], JSON.stringify(report, null, 2));
  assert.ok(report.requests >= 50, `only ${report.requests} requests`);
  assert.ok(report.resets >= 1, 'at least one reset');
  assert.ok(report.readyz.polls >= 5, 'readiness polled');
});
