// PGlite file mode (CONTRACT §1 "embedded PGlite stored under DATA_DIR"): one process
// per directory, held by an operating-system lock on DATA_DIR/pglite.lock
// (src/adapters/postgres/data-dir-lock.ts). A second open is refused with
// DataDirLockedError, naming the holder, while the first holds it; the kernel releases it
// when the holder dies, so whatever pid the file names afterwards (dead, a zombie not yet
// reaped, reused by another program) does not stop the next start.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataDirLockedError, openPglite } from '../../src/adapters/postgres/pglite.ts';
import { ownChild, processState } from '../support/children.ts';

const LOCK_MODULE = fileURLToPath(new URL('../../src/adapters/postgres/data-dir-lock.ts', import.meta.url));

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

/** Another process holding the directory's lock as the service does; resolves once it holds it. */
async function holder(dir: string): Promise<ChildProcess> {
  const code = `import { acquireLock } from ${JSON.stringify(LOCK_MODULE)}; acquireLock(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000);`;
  const child = ownChild(spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`holder exited (${c}): ${err}`)));
  });
  return child;
}

test('a second open of the same directory in this process is refused while the first is open', async () => {
  const dir = path.join(tmp, 'same-process', 'pglite');
  const first = await openPglite(dir);
  try {
    await assert.rejects(openPglite(dir), (e: unknown) => e instanceof DataDirLockedError && e.message.includes(dir) && e.message.includes(String(process.pid)));
    // The refused attempt did not take the lock away from the first.
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(process.pid));
    assert.deepEqual(await first.query('SELECT 1 AS one'), [{ one: 1 }]);
  } finally {
    await first.close();
  }
  assert.equal(fs.existsSync(`${dir}.lock`), false, 'close releases the lock and removes its file');
  const again = await openPglite(dir);
  await again.close();
});

test('a directory held by another live process is refused, naming that process; nothing is created', async () => {
  const dir = path.join(tmp, 'other-process', 'pglite');
  const other = await holder(dir);
  try {
    await assert.rejects(
      openPglite(dir),
      (e: unknown) => e instanceof DataDirLockedError && e.message.includes(`process ${other.pid}`) && /DATA_DIR/.test(e.message),
    );
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(other.pid), 'the live lock is left alone');
    assert.equal(fs.existsSync(dir), false, 'nothing was created');
  } finally {
    other.kill('SIGKILL');
  }
});

test('a holder killed with SIGKILL releases the directory at once, while it is still an unreaped zombie', async () => {
  const dir = path.join(tmp, 'zombie', 'pglite');
  const other = await holder(dir);
  const pid = other.pid!;
  other.kill('SIGKILL');
  // Wait for the kill without yielding to the event loop, which is what would reap the child.
  const deadline = Date.now() + 10_000;
  while (processState(pid) !== 'Z') assert.ok(Date.now() < deadline, `pid ${pid} never became a zombie (${processState(pid)})`);
  assert.doesNotThrow(() => process.kill(pid, 0), 'a zombie still answers kill(pid, 0)');
  assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(pid), 'the file still names the killed holder');
  const opening = openPglite(dir); // takes the lock synchronously, before this function yields
  assert.equal(processState(pid), 'Z', 'the holder was not reaped before the lock was taken');
  const db = await opening;
  try {
    assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(process.pid));
  } finally {
    await db.close();
  }
});

test('a lock file naming a live process that does not hold the lock (a pid reused by another program) is taken over', async () => {
  const dir = path.join(tmp, 'reused-pid', 'pglite');
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const unrelated = ownChild(spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }));
  try {
    fs.writeFileSync(`${dir}.lock`, String(unrelated.pid));
    const db = await openPglite(dir);
    try {
      assert.equal(fs.readFileSync(`${dir}.lock`, 'utf8'), String(process.pid));
      assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
    } finally {
      await db.close();
    }
  } finally {
    unrelated.kill('SIGKILL');
  }
});

test('a stale lock file whose process is dead is taken over, and the data survives reopening', async () => {
  const dir = path.join(tmp, 'stale', 'pglite');
  const first = await openPglite(dir);
  await first.exec('CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$survives$$)');
  await first.close();

  // A crash leaves the lock file behind with its (now dead) pid.
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
