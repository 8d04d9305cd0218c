// PGlite engine: in-process PostgreSQL, file-backed under DATA_DIR (guarded by a
// lock file so a second process refuses the same directory) or in memory.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { serialize, DatabaseError } from 'pg-protocol';
import { paramText, type Sql } from './sql.ts';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(q: Queryable, root: PGlite, release: () => void): Sql {
  return {
    engine: 'pglite',
    async query<R>(text: string, params?: unknown[]) {
      const res = await q.query<R>(text, params as unknown[] | undefined);
      return res.rows;
    },
    async queryTexts(text: string, params: unknown[], onRow: (values: (Buffer | null)[]) => void) {
      // The protocol's own bytes are read in a transaction: it holds PGlite's only connection.
      if (q === root) return this.transaction((tx) => tx.queryTexts(text, params, onRow));
      const chunks: Buffer[] = [];
      await root.execProtocolRawStream(extendedQuery(text, params), {
        syncToFs: false,
        onRawData: (chunk) => void chunks.push(Buffer.from(chunk)), // a view of PGlite's memory: copied
      });
      for (const row of rawRows(Buffer.concat(chunks))) onRow(row);
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

/** Parse, bind, describe and execute `text` with text parameters, then sync. */
function extendedQuery(text: string, params: unknown[]): Uint8Array {
  const values = params.map(paramText);
  return Buffer.concat([
    serialize.parse({ text, types: [] }), serialize.bind({ values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync(),
  ]);
}

/** Types whose text format is their text: text, varchar, json. */
const TEXT_TYPES = new Set([25, 1043, 114]);

/**
 * The rows of a raw protocol answer, each value as its bytes (a view of the answer). A
 * column of another type is refused; an error answer is thrown as a DatabaseError.
 */
function rawRows(buf: Buffer): (Buffer | null)[][] {
  const rows: (Buffer | null)[][] = [];
  for (let p = 0; p + 5 <= buf.length;) {
    const type = buf[p]!;
    const end = p + 1 + buf.readInt32BE(p + 1);
    let q = p + 5;
    if (type === 0x54) { // RowDescription: per field its name, then 18 bytes (the type's OID at 6)
      const n = buf.readInt16BE(q);
      q += 2;
      for (let i = 0; i < n; i++) {
        const z = buf.indexOf(0, q);
        const oid = buf.readInt32BE(z + 7);
        if (!TEXT_TYPES.has(oid)) throw new TypeError(`queryTexts: column ${buf.toString('utf8', q, z)} has type ${oid}, not text`);
        q = z + 19;
      }
    } else if (type === 0x44) { // DataRow
      const n = buf.readInt16BE(q);
      q += 2;
      const row: (Buffer | null)[] = [];
      for (let i = 0; i < n; i++) {
        const len = buf.readInt32BE(q);
        q += 4;
        row.push(len < 0 ? null : buf.subarray(q, q + len));
        if (len > 0) q += len;
      }
      rows.push(row);
    } else if (type === 0x45) { // ErrorResponse: typed fields, each a code byte and a string
      const fields: Record<string, string> = {};
      while (buf[q]) {
        const z = buf.indexOf(0, q + 1);
        fields[String.fromCharCode(buf[q]!)] = buf.toString('utf8', q + 1, z);
        q = z + 1;
      }
      throw Object.assign(new DatabaseError(fields.M ?? 'query failed', end - p, 'error'), {
        severity: fields.S, code: fields.C, detail: fields.D, hint: fields.H, position: fields.P,
      });
    }
    p = end;
  }
  return rows;
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
