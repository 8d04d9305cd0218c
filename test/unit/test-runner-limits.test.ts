// A hanging test file fails and names itself instead of holding `npm test`
// (scripts/test.mjs): a test past TEST_TIMEOUT_SECONDS fails by name and its file still
// ends; a file past TEST_FILE_TIMEOUT_SECONDS (a hang outside any test) is ended; a run past
// TEST_BUDGET_SECONDS prints the files still running, and the test in each, and fails; in
// every case the processes the file started are killed. The hanging files are fixtures
// (test/fixtures/runner), run by scripts/test.mjs in a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ownChild, processState, stopChild } from '../support/children.ts';

const IN_A_TEST = 'test/fixtures/runner/hangs-in-a-test.fixture.ts';
const AT_TOP_LEVEL = 'test/fixtures/runner/hangs-at-top-level.fixture.ts';
const HELD_AFTER = 'test/fixtures/runner/held-after-its-tests.fixture.ts';

interface Run {
  code: number | null;
  output: string;
  seconds: number;
  /** The pids of the processes the fixture started. */
  helpers: number[];
}

/** `node scripts/test.mjs <file>` with the given limits, as `npm test -- <file>` runs it. */
async function runTests(file: string, limits: Record<string, string>): Promise<Run> {
  const pids = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-runner-')), 'pids');
  fs.writeFileSync(pids, '');
  const env: Record<string, string | undefined> = { ...process.env, ...limits, FIXTURE_PIDS: pids, TEST_TIMES: '' };
  delete env.NODE_TEST_CONTEXT; // this process's own runner context: the child runs a runner of its own
  const t0 = Date.now();
  const child = ownChild(spawn(process.execPath, ['scripts/test.mjs', file], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const helpers = fs.readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
  fs.rmSync(path.dirname(pids), { recursive: true, force: true });
  return { code, output, seconds: (Date.now() - t0) / 1000, helpers };
}

/** Running: neither gone nor a zombie. */
const alive = (pid: number) => ![undefined, 'Z'].includes(processState(pid));

/**
 * The helpers still running once the kernel has had a moment: a SIGKILL sent as the file
 * ended takes effect within milliseconds on a quiet machine, but not at once at a load of 30.
 */
async function stillRunning(pids: number[]): Promise<number[]> {
  for (let waited = 0; waited < 5000 && pids.some(alive); waited += 100) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

test('a test past TEST_TIMEOUT_SECONDS fails by name, the file still ends, and the process it started is killed', async () => {
  const run = await runTests(IN_A_TEST, { TEST_TIMEOUT_SECONDS: '3', TEST_FILE_TIMEOUT_SECONDS: '0', TEST_LINGER_SECONDS: '2', TEST_BUDGET_SECONDS: '0' });
  assert.notEqual(run.code, 0, run.output);
  assert.match(run.output, /✖ a test that never ends \([\d.]+ms\)[\s\S]*test timed out after 3000ms/, run.output);
  assert.match(run.output, /✔ a test after the hanging one/, run.output);
  assert.match(run.output, /hangs-in-a-test\.fixture\.ts: still running 2 s after its tests ended/, run.output);
  assert.equal(run.helpers.length, 1, run.output);
  assert.deepEqual(await stillRunning(run.helpers), [], 'the helper the file started is gone');
});

test('a file past TEST_FILE_TIMEOUT_SECONDS (hanging outside any test) is ended and named, and the process it started is killed', async () => {
  const run = await runTests(AT_TOP_LEVEL, { TEST_TIMEOUT_SECONDS: '0', TEST_FILE_TIMEOUT_SECONDS: '3', TEST_BUDGET_SECONDS: '0' });
  assert.notEqual(run.code, 0, run.output);
  assert.match(run.output, /hangs-at-top-level\.fixture\.ts: still running after TEST_FILE_TIMEOUT_SECONDS=3; ending the file/, run.output);
  assert.equal(run.helpers.length, 1, run.output);
  assert.deepEqual(await stillRunning(run.helpers), [], 'the helper the file started is gone');
});

test('a file held after its tests pass is ended after TEST_LINGER_SECONDS, named with what holds it, with every result reported and its own exit code', async () => {
  const run = await runTests(HELD_AFTER, { TEST_TIMEOUT_SECONDS: '0', TEST_FILE_TIMEOUT_SECONDS: '0', TEST_LINGER_SECONDS: '2', TEST_BUDGET_SECONDS: '0' });
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, /ℹ tests 2001\n/, 'every result reached the runner (--test-force-exit lost the last ones)');
  assert.match(run.output, /✔ quick test 2000/);
  const named = /held-after-its-tests\.fixture\.ts: still running 2 s after its tests ended \(held by ([^)]*)\)/.exec(run.output);
  assert.ok(named, run.output);
  assert.match(named[1]!, /Timeout/, 'the timer it left is named');
  assert.match(run.output, /npm test: files ended by TEST_LINGER_SECONDS after their tests[^\n]*\n[^\n]*held-after-its-tests\.fixture\.ts/, 'summed up at the end of the run');
  assert.equal(run.helpers.length, 1, run.output);
  assert.deepEqual(await stillRunning(run.helpers), [], 'the helper the file started is gone');
});

test('a run past TEST_BUDGET_SECONDS prints the files still running and the test in each, fails, and leaves no process behind', async () => {
  const run = await runTests(IN_A_TEST, { TEST_TIMEOUT_SECONDS: '0', TEST_FILE_TIMEOUT_SECONDS: '0', TEST_BUDGET_SECONDS: '4' });
  assert.equal(run.code, 1, run.output);
  assert.match(run.output, /the run exceeded TEST_BUDGET_SECONDS=4; still running:\n {2}test\/fixtures\/runner\/hangs-in-a-test\.fixture\.ts \(for \d+ s; running: "a test that never ends" \(\d+ s\)\)/, run.output);
  assert.ok(run.seconds < 60, `the run ended ${run.seconds} s after it started`);
  assert.equal(run.helpers.length, 1, run.output);
  assert.deepEqual(await stillRunning(run.helpers), [], 'the helper the file started is gone');
});

test('stopChild kills a child that ignores SIGTERM once the grace period is over', async () => {
  const child = ownChild(spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'ignore'] }));
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  const t0 = Date.now();
  await stopChild(child, { graceMs: 500 });
  assert.equal(child.signalCode, 'SIGKILL');
  assert.ok(Date.now() - t0 < 10_000);
});
