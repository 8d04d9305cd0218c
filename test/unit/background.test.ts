// The node's scheduler (src/background.ts): runs the modules' periodic tasks; each task
// runs alone, a failure is logged and retried by the next pass, stop() waits for the pass
// under way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScheduler } from '../../src/background.ts';
import type { PeriodicTask } from '../../src/core/ports/background.ts';
import type { Logger } from '../../src/core/ports/telemetry.ts';

function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => lines.push({ level, fields, message });
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function task(run: () => Promise<unknown>, over: Partial<PeriodicTask> = {}): PeriodicTask {
  return { name: 'probe', everySeconds: 0.02, atStart: false, run, failure: { level: 'error', message: 'probe failed' }, ...over };
}

test('a task with atStart runs at once, then every everySeconds', async () => {
  const s = createScheduler(recordingLogger().logger);
  let runs = 0;
  s.every(task(async () => runs++, { atStart: true, everySeconds: 3600 }));
  assert.equal(runs, 1);
  await s.stop();
});

test('a pass still at work when the next is due is not joined by another', async () => {
  const s = createScheduler(recordingLogger().logger);
  let running = 0;
  let most = 0;
  let passes = 0;
  s.every(task(async () => {
    running++;
    most = Math.max(most, running);
    await wait(90); // several periods of 20 ms
    running--;
    passes++;
  }));
  await wait(250);
  await s.stop();
  assert.equal(most, 1);
  assert.ok(passes >= 1, `passes: ${passes}`);
});

test('a failed pass is logged at its level with its message and the error, and the next pass runs', async () => {
  const { logger, lines } = recordingLogger();
  const s = createScheduler(logger);
  let calls = 0;
  s.every(task(async () => {
    calls++;
    if (calls === 1) throw new Error('database down');
  }, { failure: { level: 'warn', message: 'probe failed; retrying' } }));
  const deadline = Date.now() + 5000;
  while (calls < 2 && Date.now() < deadline) await wait(10);
  await s.stop();
  assert.ok(calls >= 2, `calls: ${calls}`);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.level, 'warn');
  assert.equal(lines[0]!.message, 'probe failed; retrying');
  assert.equal(lines[0]!.fields.task, 'probe');
  assert.equal((lines[0]!.fields.error as { message: string }).message, 'database down');
});

test('stop() waits for the pass under way and no pass starts after it', async () => {
  const s = createScheduler(recordingLogger().logger);
  let finished = false;
  let starts = 0;
  s.every(task(async () => {
    starts++;
    await wait(60);
    finished = true;
  }, { atStart: true }));
  await s.stop();
  assert.equal(finished, true);
  const before = starts;
  await wait(80);
  assert.equal(starts, before);
});
