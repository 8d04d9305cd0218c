// PGlite engine: in-process PostgreSQL, file-backed under DATA_DIR (guarded by a
// lock file so a second process refuses the same directory) or in memory.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Sql } from './sql.ts';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(q: Queryable, root: PGlite, release: () => void): Sql {
  return {
    engine: 'pglite',
    async query<R>(text: string, params?: unknown[]) {
      const res = await q.query<R>(text, params as unknown[] | undefined);
      return res.rows;
    },
    async exec(text: string) {
      await q.exec(text);
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      // A nested call runs inside the caller's transaction (PGlite has one connection).
      if (q !== root) return fn(this);
      return root.transaction((tx) => fn(wrap(tx, root, release)));
    },
    async listen(channel, onMessage) {
      const unsub = await root.listen(channel, onMessage);
      return async () => unsub();
    },
    async close() {
      await root.close();
      release();
    },
  };
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** Lock files this process holds: a second open of the same directory here is refused too. */
const held = new Set<string>();

/** Takes DATA_DIR's lock file; a stale lock (its process gone) is taken over. */
function acquireLock(dir: string): () => void {
  // Beside the data directory, not in it: initdb wants an empty directory.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lockPath = `${dir}.lock`;
  const inUse = (pid: number) =>
    new DataDirLockedError(`The database directory ${dir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
  if (held.has(lockPath)) throw inUse(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      held.add(lockPath);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(lockPath);
        process.removeListener('exit', release);
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let pid: number;
      try {
        pid = Number(fs.readFileSync(lockPath, 'utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile: try again
        throw err;
      }
      // Our own pid in a lock we do not hold is stale: a container restarted with the same pid.
      if (pid && pid !== process.pid && isAlive(pid)) throw inUse(pid);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function openPglite(dir: string | undefined): Promise<Sql> {
  const release = dir ? acquireLock(dir) : () => {};
  try {
    const db = dir ? await PGlite.create(dir) : await PGlite.create();
    return wrap(db, db, release);
  } catch (e) {
    release();
    throw e;
  }
}
