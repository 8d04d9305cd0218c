// PGlite engine: in-process PostgreSQL, file-backed under DATA_DIR (guarded by a
// lock file so a second process refuses the same directory) or in memory.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { acquireLock, DataDirLockedError } from './data-dir-lock.ts';
import { PGlite, parse, type Transaction } from '@electric-sql/pglite';
import { serialize, DatabaseError } from 'pg-protocol';
import { paramText, type QueryOptions, type Sql } from './sql.ts';

export { DataDirLockedError };

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

/** The named statements prepared on one PGlite (its only connection): their texts and parameter types. */
type Prepared = Map<string, { text: string; paramTypes: number[] }>;

function wrap(q: Queryable, root: PGlite, release: () => void, prepared: Prepared): Sql {
  return {
    engine: 'pglite',
    async query<R>(text: string, params?: unknown[], opts?: QueryOptions) {
      if (opts?.name) return preparedQuery<R>(root, prepared, q !== root, opts.name, text, params ?? []);
      const res = await q.query<R>(text, params as unknown[] | undefined);
      return res.rows;
    },
    async queryTexts(text: string, params: unknown[], onRow: (values: (Buffer | null)[]) => void) {
      // The protocol's own bytes are read in a transaction: it holds PGlite's only connection.
      if (q === root) return this.transaction((tx) => tx.queryTexts(text, params, onRow));
      // Rows are handed on as their messages arrive (PGlite calls onRawData while the query
      // runs): nothing may be thrown back into PGlite, so a failure waits for the query's end.
      // A failure stops the chunk it came in; later chunks are dropped.
      let failure: { error: unknown } | undefined;
      const rows = textRows(onRow);
      await root.execProtocolRawStream(extendedQuery(text, params), {
        syncToFs: false,
        onRawData: (chunk) => {
          if (failure) return;
          try {
            rows(chunk);
          } catch (error) {
            failure = { error };
          }
        },
      });
      if (failure) throw failure.error;
    },
    async exec(text: string) {
      await q.exec(text);
    },
    async copyOut(source, onChunk) {
      const res = await q.query(`COPY ${source} TO '/dev/blob' (FORMAT binary)`);
      if (!res.blob) throw new Error('PGlite answered COPY TO without its output');
      await onChunk(new Uint8Array(await res.blob.arrayBuffer()));
    },
    async copyIn(target, data) {
      const parts: Uint8Array[] = [];
      for await (const chunk of data) parts.push(chunk);
      await q.query(`COPY ${target} FROM '/dev/blob' (FORMAT binary)`, [], { blob: new Blob(parts as BlobPart[]) });
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      // A nested call runs inside the caller's transaction (PGlite has one connection).
      if (q !== root) return fn(this);
      return root.transaction((tx) => fn(wrap(tx, root, release, prepared)));
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

/**
 * A named statement run the way PGlite's own query() runs one, in one call into PostgreSQL
 * instead of six (parse, describe, bind, describe, execute, sync), without parsing the text
 * or planning again: prepared (parse, describe the statement for its parameter types) on
 * first use, then bind, describe the portal, execute and sync. The parameters are
 * serialised and the rows parsed by PGlite's own serialisers and parsers, so the rows are
 * those query() answers. Inside a transaction the caller's transaction holds PGlite's
 * transaction lock; outside, both locks are taken as query() takes them.
 */
async function preparedQuery<R>(root: PGlite, prepared: Prepared, inTransaction: boolean, name: string, text: string, params: unknown[]): Promise<R[]> {
  const run = async (): Promise<R[]> => {
    let statement = prepared.get(name);
    if (statement && statement.text !== text) throw new Error(`prepared statement ${name} was prepared with another text`);
    if (!statement) {
      const { messages } = await root.execProtocol(
        Buffer.concat([serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]),
        { syncToFs: false },
      );
      statement = { text, paramTypes: parse.parseDescribeStatementResults(messages) };
      prepared.set(name, statement);
    }
    const types = statement.paramTypes;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = root.serializers[types[i]!];
      return serializer ? serializer(v) : String(v);
    });
    const { messages } = await root.execProtocol(
      Buffer.concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    if (!inTransaction) await root.syncToFs();
    return parse.parseResults(messages, root.parsers)[0]!.rows as R[];
  };
  return inTransaction ? root._runExclusiveQuery(run) : root._runExclusiveTransaction(() => root._runExclusiveQuery(run));
}

/** Parse, bind, describe and execute `text` with text parameters, then sync. */
function extendedQuery(text: string, params: unknown[]): Uint8Array {
  const values = params.map(paramText);
  return Buffer.concat([
    serialize.parse({ text, types: [] }), serialize.bind({ values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync(),
  ]);
}

/**
 * A reader of a raw protocol answer, fed its chunks as they come (views of PGlite's memory,
 * valid during the call only): each message is copied out once (its size is in its header),
 * and each row is handed to `onRow` as its values' bytes (views of its copy). A column of a
 * type that is not text is refused; an error answer is thrown as a DatabaseError.
 */
function textRows(onRow: (values: (Buffer | null)[]) => void): (chunk: Uint8Array) => void {
  const head = Buffer.alloc(5); // a message's type and length
  let headLength = 0;
  let body: Buffer | null = null;
  let bodyLength = 0;
  return (chunk) => {
    for (let p = 0; p < chunk.length;) {
      if (!body) {
        const n = Math.min(5 - headLength, chunk.length - p);
        head.set(chunk.subarray(p, p + n), headLength);
        headLength += n;
        p += n;
        if (headLength < 5) return;
        body = Buffer.allocUnsafe(head.readInt32BE(1) - 4);
        bodyLength = 0;
      }
      const n = Math.min(body.length - bodyLength, chunk.length - p);
      body.set(chunk.subarray(p, p + n), bodyLength);
      bodyLength += n;
      p += n;
      if (bodyLength === body.length) {
        const [type, message] = [head[0]!, body];
        body = null;
        headLength = 0;
        onMessage(type, message, onRow);
      }
    }
  };
}

/** Types whose text format is their text: text, varchar, json. */
const TEXT_TYPES = new Set([25, 1043, 114]);

function onMessage(type: number, m: Buffer, onRow: (values: (Buffer | null)[]) => void): void {
  if (type === 0x54) { // RowDescription: per field its name, then 18 bytes (the type's OID at 6)
    for (let i = 0, n = m.readInt16BE(0), q = 2; i < n; i++) {
      const z = m.indexOf(0, q);
      const oid = m.readInt32BE(z + 7);
      if (!TEXT_TYPES.has(oid)) throw new TypeError(`queryTexts: column ${m.toString('utf8', q, z)} has type ${oid}, not text`);
      q = z + 19;
    }
  } else if (type === 0x44) { // DataRow: per value its length (-1: NULL) and its bytes
    const row: (Buffer | null)[] = [];
    for (let i = 0, n = m.readInt16BE(0), q = 2; i < n; i++) {
      const len = m.readInt32BE(q);
      q += 4;
      row.push(len < 0 ? null : m.subarray(q, q + len));
      if (len > 0) q += len;
    }
    onRow(row);
  } else if (type === 0x45) { // ErrorResponse: typed fields, each a code byte and a string
    const fields: Record<string, string> = {};
    for (let q = 0; m[q];) {
      const z = m.indexOf(0, q + 1);
      fields[String.fromCharCode(m[q]!)] = m.toString('utf8', q + 1, z);
      q = z + 1;
    }
    throw Object.assign(new DatabaseError(fields.M ?? 'query failed', m.length + 5, 'error'), {
      severity: fields.S, code: fields.C, detail: fields.D, hint: fields.H, position: fields.P,
    });
  }
}

/** The SQL interface over a PGlite the caller opened (and closes). */
export const pgliteSql = (db: PGlite): Sql => wrap(db, db, () => {}, new Map());

/**
 * Opens PGlite: under `dir`, or in memory. `template` (in memory only): a fresh cluster as
 * PGlite's dumpDataDir wrote it, loaded instead of running initdb (~0.6 s against 2–4 s;
 * the tests start hundreds of databases).
 */
export async function openPglite(dir: string | undefined, opts: { template?: Blob } = {}): Promise<Sql> {
  if (dir && opts.template) throw new Error('openPglite: a template is for in-memory databases');
  const release = dir ? acquireLock(dir) : () => {};
  try {
    if (!dir) {
      const db = await PGlite.create(opts.template ? { loadDataDir: opts.template } : {});
      return wrap(db, db, release, new Map());
    }
    return onDisk(dir, await PGlite.create(dir), release);
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * PGlite's engine compiled once and its file bundle read once per process, for the reopens of
 * a data directory (a snapshot's restore): a fresh `PGlite.create` reads and compiles the 9 MB
 * WebAssembly module and unpacks its 6 MB bundle each time, most of a reopen's cost.
 */
let artifacts: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | null = null;
function pgliteArtifacts(): Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> {
  artifacts ??= (async () => {
    const dist = new URL('.', import.meta.resolve('@electric-sql/pglite'));
    const [wasm, bundle] = await Promise.all([fsp.readFile(new URL('pglite.wasm', dist)), fsp.readFile(new URL('pglite.data', dist))]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
  })();
  // A failure is not kept (the next reopen tries again); its callers see it.
  artifacts.catch(() => (artifacts = null));
  return artifacts;
}

/** Files of a data directory that are the running instance's, not the cluster's. */
const INSTANCE_FILES = new Set(['postmaster.pid', 'postmaster.opts']);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/**
 * A PGlite on disk whose data directory can be copied and replaced (Sql.dataDirectory): the
 * handle stays the same object for its holders while the database under it is reopened.
 */
function onDisk(dir: string, first: PGlite, release: () => void): Sql {
  let current = { db: first, sql: wrap(first, first, () => {}, new Map()) };
  const open = async () => {
    // A reopen (a snapshot's restore) reuses the compiled engine and its file bundle.
    let reused = {};
    try {
      reused = await pgliteArtifacts();
    } catch (e) {
      process.emitWarning(`PGlite: reopened without its compiled engine (${(e as Error).message})`);
    }
    const db = await PGlite.create(dir, reused);
    current = { db, sql: wrap(db, db, () => {}, new Map()) };
  };
  /** The directories a swap put aside, being removed after it (close waits for them). */
  let removing: Promise<void> = Promise.resolve();
  const copyFiles = (from: string, to: string, wal?: { from: string; to: string }) =>
    fsp.cp(from, to, {
      recursive: true,
      // A reflink where the filesystem has them (Btrfs, XFS): the copy is then instant.
      mode: fs.constants.COPYFILE_FICLONE,
      filter: (f) => {
        const name = path.basename(f);
        if (INSTANCE_FILES.has(name)) return false;
        // Of the WAL segments (24 hex digits), a start from the checkpoint reads those from its
        // redo point to the current one; the others are old or recycled for later use.
        if (!wal || path.basename(path.dirname(f)) !== 'pg_wal' || !WAL_SEGMENT.test(name)) return true;
        return name >= wal.from && name <= wal.to;
      },
    });
  return {
    engine: 'pglite',
    query: (text, params, o) => current.sql.query(text, params, o),
    queryTexts: (text, params, onRow) => current.sql.queryTexts(text, params, onRow),
    exec: (text) => current.sql.exec(text),
    copyOut: (source, onChunk) => current.sql.copyOut(source, onChunk),
    copyIn: (target, data) => current.sql.copyIn(target, data),
    transaction: (fn) => current.sql.transaction(fn),
    listen: (channel, onMessage) => current.sql.listen(channel, onMessage),
    async close() {
      try {
        await current.db.close();
        await removing;
      } finally {
        release();
      }
    },
    dataDirectory: {
      async copyTo(dest) {
        void pgliteArtifacts(); // ahead of a restore of this copy
        // Inside a transaction: every other statement waits (PGlite has one connection), so
        // the files after the CHECKPOINT are those a clean restart would read.
        await current.db.transaction(async (tx) => {
          await tx.exec('CHECKPOINT');
          const [wal] = (await tx.query<{ from: string; to: string }>(
            'SELECT pg_walfile_name(redo_lsn) AS from, pg_walfile_name(pg_current_wal_insert_lsn()) AS to FROM pg_control_checkpoint()',
          )).rows;
          await copyFiles(dir, dest, wal!);
        });
      },
      async replaceWith(source, o) {
        const aside = `${dir}.replaced-${process.pid}-${Date.now()}`;
        void pgliteArtifacts(); // compiled (the first time) while the database closes
        await current.db.close();
        await fsp.rename(dir, aside);
        try {
          if (o?.move) await fsp.rename(source, dir);
          else await copyFiles(source, dir);
          await open();
        } catch (e) {
          await fsp.rm(dir, { recursive: true, force: true });
          await fsp.rename(aside, dir);
          await open();
          throw e;
        }
        // The old files go after the swap, off its path (a data directory of hundreds of MB).
        removing = removing.then(() => fsp.rm(aside, { recursive: true, force: true })).catch((e: unknown) => {
          process.emitWarning(`PGlite: the replaced data directory ${aside} could not be removed (${(e as Error).message})`);
        });
      },
    },
  };
}
