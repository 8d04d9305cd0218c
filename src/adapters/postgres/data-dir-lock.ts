// The embedded database's directory belongs to one process at a time: the lock file beside
// it (`DATA_DIR/pglite.lock`) is held with an operating-system lock (an open file
// description lock on Linux, through fs-native-extensions), which the kernel releases when
// the holder's files close, that is when it exits or is killed, before its parent reaps it.
// A crashed service therefore restarts at once, whatever pid the file names (a zombie, a
// pid reused by another program); only a live holder refuses, named by the pid it wrote.
// See docs/decisions.md "The data-directory lock is an OS lock".
import fs from 'node:fs';
import path from 'node:path';
import { tryLock } from 'fs-native-extensions';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/**
 * How long a refused lock is tried again. A holder killed a moment ago shows as a zombie as
 * soon as its main thread has exited, but its file table (and the lock) goes only when its
 * last thread has: on a loaded machine that takes tens of milliseconds. A live second
 * instance is refused after this wait.
 */
const DYING_HOLDER_MS = 2000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** tryLock, again every 20 ms for up to `ms` (synchronously: the caller takes the lock before it yields). */
function tryLockWithin(fd: number, ms: number): boolean {
  const until = Date.now() + ms;
  for (;;) {
    if (tryLock(fd)) return true;
    if (Date.now() >= until) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
}

/** The pid the holder wrote into the lock file, if it is one. */
function holderOf(fd: number): number | undefined {
  const buf = Buffer.alloc(32);
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  const pid = Number(buf.subarray(0, n).toString('utf8').trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether the open file is still the one the path names (a releasing holder removes it). */
function stillNamed(fd: number, lockPath: string): boolean {
  const opened = fs.fstatSync(fd);
  try {
    const named = fs.statSync(lockPath);
    return named.ino === opened.ino && named.dev === opened.dev;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/**
 * Locks `DATA_DIR/pglite` through `DATA_DIR/pglite.lock` (beside the directory, not in it:
 * initdb wants an empty directory) and writes this process's pid into it. Answers the
 * release: it empties and removes the file while still holding the lock, then closes it.
 * Throws DataDirLockedError while another open file (another process, or this one) holds it.
 */
export function acquireLock(dir: string): () => void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lockPath = `${dir}.lock`;
  // A holder releasing between our open and our lock removes the file we opened: open anew.
  for (let attempt = 0; attempt < 5; attempt++) {
    const fd = fs.openSync(lockPath, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
    try {
      if (!tryLockWithin(fd, DYING_HOLDER_MS)) {
        const pid = holderOf(fd);
        throw new DataDirLockedError(
          `The database directory ${dir} is in use by ${pid ? `process ${pid}` : 'another process'}; stop it or choose another DATA_DIR`,
        );
      }
      if (stillNamed(fd, lockPath)) {
        fs.ftruncateSync(fd, 0);
        fs.writeSync(fd, String(process.pid), 0);
        return releaser(fd, lockPath);
      }
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    fs.closeSync(fd);
  }
  throw new DataDirLockedError(`Could not lock ${dir}: its lock file keeps being replaced`);
}

/**
 * Removes the lock file while still holding it (a process that opened it meanwhile then
 * finds it unnamed and opens anew), then closes it, which releases the lock. Also run at
 * exit when the database was not closed; a kill leaves the file, which the next start
 * locks at once.
 */
function releaser(fd: number, lockPath: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    try {
      if (stillNamed(fd, lockPath)) fs.unlinkSync(lockPath);
    } finally {
      fs.closeSync(fd);
    }
  };
  process.once('exit', release);
  return release;
}
