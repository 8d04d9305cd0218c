// PGlite file mode (CONTRACT §1 "embedded PGlite stored under DATA_DIR"): one process
// per directory. A second open is refused with DataDirLockedError while the first
// holds it; a lock left by a dead process is taken over.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, openPglite } from '../../src/adapters/postgres/pglite.ts';

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-lock-'));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A pid that no running process has (a child that has already exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const pid = Number(child.stdout.toString());
  assert.ok(pid > 0);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
  return pid;
}

test('a second open of the same directory in this process is refused while the first is open', async () => {
  const dir = path.join(tmp, 'same-process', 'pglite');
  const first = await openPglite(dir);
  try {
    await assert.rejects(openPglite(dir), (e: unknown) => e instanceof DataDirLockedError && e.message.includes(dir));
    // The refused attempt did not take the lock away from the first.
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(process.pid));
    assert.deepEqual(await first.query('SELECT 1 AS one'), [{ one: 1 }]);
  } finally {
    await first.close();
  }
  assert.equal(fs.existsSync(`${dir}.lock`), false, 'close releases the lock');
  const again = await openPglite(dir);
  await again.close();
});

test('a directory locked by another live process is refused, naming that process', async () => {
  const dir = path.join(tmp, 'other-process', 'pglite');
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    fs.writeFileSync(`${dir}.lock`, String(holder.pid));
    await assert.rejects(
      openPglite(dir),
      (e: unknown) => e instanceof DataDirLockedError && e.message.includes(String(holder.pid)) && /DATA_DIR/.test(e.message),
    );
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(holder.pid), 'the live lock is left alone');
    assert.equal(fs.existsSync(dir), false, 'nothing was created');
  } finally {
    holder.kill('SIGKILL');
  }
});

test('a stale lock file whose process is dead is taken over, and the data survives reopening', async () => {
  const dir = path.join(tmp, 'stale', 'pglite');
  const first = await openPglite(dir);
  await first.exec('CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$survives$$)');
  await first.close();

  // A crash leaves the lock behind with its (now dead) pid.
  fs.writeFileSync(`${dir}.lock`, String(deadPid()));
  const second = await openPglite(dir);
  try {
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(process.pid));
    assert.deepEqual(await second.query('SELECT v FROM kept'), [{ v: 'survives' }]);
  } finally {
    await second.close();
  }
});

test('an empty or garbled lock file (a crash while writing it) is taken over; no exit listener is left behind', async () => {
  const dir = path.join(tmp, 'stale', 'pglite'); // initialised above: reopening is quick
  const listeners = process.listenerCount('exit');
  for (const content of ['', 'not-a-pid']) {
    fs.writeFileSync(`${dir}.lock`, content);
    const db = await openPglite(dir);
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(process.pid));
    await db.close();
    assert.equal(fs.existsSync(`${dir}.lock`), false);
  }
  assert.equal(process.listenerCount('exit'), listeners);
});
