// The snapshot engine (src/core/ports/snapshots.ts; docs/sandbox.md "Snapshots"): named
// snapshots are snapshot files (archive.ts) in one directory, `<name>.sbsnap`, each with a
// description beside it (`<name>.json`, the SnapshotInfo, so a listing reads no archive).
// A save writes a temporary file and renames it into place; an import verifies the whole
// file (structure and every entry's SHA-256) before keeping it, so a named snapshot is
// always whole and a restore never meets a cut file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, invalidInput } from '../../core/errors.ts';
import { eventOf } from '../../core/events/domain-events.ts';
import type { AdjustableClock } from '../../core/ports/clock.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { Store } from '../../core/ports/repositories.ts';
import type { SnapshotInfo, SnapshotOptions, Snapshots } from '../../core/ports/snapshots.ts';
import { SANDBOX_CLOCK_SETTING } from '../../modules/operator/index.ts';
import type { Sql } from '../postgres/sql.ts';
import {
  ArchiveReader, ArchiveWriter, BLOB_PREFIX, FORMAT, MANIFEST_ENTRY, offsetAfter, PAX, Spool, TRAILER_ENTRY, VERSION, tableEntry,
  type ArchiveEntry, type Manifest, type Trailer,
} from './archive.ts';
import { blobAccessOf, type BlobAccess, type BlobEntry } from './blobs.ts';
import { dumpDatabase, incompatibility, loadDatabase, quoteName, SECRET_SETTINGS, SIGNING_KEYS_TABLE } from './database.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EXTENSION = '.sbsnap';
/** Beside `<name>.sbsnap`: the PGlite data directory it was saved from (the fast restore path). */
const DATA_DIR_SUFFIX = '.pgdata';
const SPARE_SUFFIX = '.spare';
/** Blobs up to this size are written several at a time (each held in memory meanwhile). */
const PARALLEL_BLOB_MAX = 8 * 1024 * 1024;
const PARALLEL_BLOB_WRITES = 8;

export interface SnapshotEngineDeps {
  /** The database (the node's, with its deadlines: the engine's transactions ask for none). */
  sql: Sql;
  /** Publishes the restore's `service.reset` (every node's caches) through the domain events. */
  store: Pick<Store, 'transaction'>;
  objectStore: ObjectStore;
  /** The node's clock: a restore sets its offset to the snapshot's. */
  clock: AdjustableClock;
  /** Where named snapshots are kept (created when missing). */
  dir: string;
  /** Tests: the S3 single-PUT limit above which a restored object is written in parts. */
  s3SinglePutMax?: number;
  /** The bench: told how long each step of a restore took (docs/sandbox.md "Restore time"). */
  onRestoreStep?: (step: RestoreStep, ms: number) => void;
}

/** The steps of a restore, timed for the bench (`queued`: waiting for the save, restore or spare copy before it). */
export type RestoreStep = 'queued' | 'manifest' | 'database' | 'events' | 'blobs';

const notFound = (name: string) => new DomainError('not-found', 'snapshot-not-found', `No snapshot named ${name}`, { name });
const invalidFile = (why: string) => new DomainError('invalid', 'snapshot-invalid', `Not a whole Scanbase snapshot: ${why}`);

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

function checkName(name: string): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw invalidInput('A snapshot name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit', { name });
  }
  return name;
}

const clockOffsetOf = (settings: Record<string, unknown>) => {
  const v = settings[SANDBOX_CLOCK_SETTING];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};

function infoOf(m: Manifest, t: Trailer, bytes: number, name = m.name): SnapshotInfo {
  return {
    name, createdAt: m.createdAt, engine: m.engine, migrations: m.migrations,
    tables: m.tables.map((x) => ({ name: x.name, rows: x.rows })), blobs: t.blobs,
    clockOffsetSeconds: m.clockOffsetSeconds, signingKeys: m.signingKeys, bytes,
  };
}

/** Reads the manifest, the first entry, and checks it is one this version reads. */
async function readManifest(reader: ArchiveReader): Promise<Manifest> {
  const first = await reader.next();
  if (!first || first.name !== MANIFEST_ENTRY) throw invalidFile(`the first entry must be ${MANIFEST_ENTRY}`);
  let m: Manifest;
  try {
    m = await reader.json<Manifest>(first);
  } catch (e) {
    throw invalidFile(`${MANIFEST_ENTRY}: ${(e as Error).message}`);
  }
  if (m?.format !== FORMAT) throw invalidFile(`format ${JSON.stringify(m?.format)}, expected ${FORMAT}`);
  if (!Number.isInteger(m.version) || m.version > VERSION || m.version < 1) throw invalidFile(`version ${m.version}; this service reads 1 to ${VERSION}`);
  if (!Array.isArray(m.tables) || !Array.isArray(m.migrations) || !Array.isArray(m.sequences)) throw invalidFile('the manifest lacks its lists');
  return m;
}

/** Reads an entry's bytes (hashing them), checking its name. */
async function drain(entry: ArchiveEntry, hash?: crypto.Hash): Promise<number> {
  let n = 0;
  for await (const c of entry.body as AsyncIterable<Buffer>) {
    hash?.update(c);
    n += c.length;
  }
  return n;
}

/**
 * Reads a whole snapshot file, checking its order and every entry against its trailer;
 * answers its manifest and trailer. Throws `snapshot-invalid` on any departure.
 */
export async function verifyFile(file: string): Promise<{ manifest: Manifest; trailer: Trailer }> {
  const reader = new ArchiveReader(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }));
  try {
    const manifest = await readManifest(reader);
    const seen: Record<string, { bytes: number; sha256: string }> = {};
    const expectedTables = manifest.tables.map((t) => tableEntry(t.name));
    let trailer: Trailer | null = null;
    let blobs = { count: 0, bytes: 0 };
    for (let entry = await reader.next(); entry; entry = await reader.next()) {
      if (trailer) throw invalidFile(`entry ${entry.name} after the trailer`);
      if (entry.name === TRAILER_ENTRY) {
        trailer = await reader.json<Trailer>(entry);
        continue;
      }
      const index = Object.keys(seen).length;
      if (index < expectedTables.length && entry.name !== expectedTables[index]) throw invalidFile(`expected ${expectedTables[index]}, found ${entry.name}`);
      if (index >= expectedTables.length) {
        if (!entry.name.startsWith(BLOB_PREFIX) || entry.name.length === BLOB_PREFIX.length) throw invalidFile(`unexpected entry ${entry.name}`);
        blobs = { count: blobs.count + 1, bytes: blobs.bytes + entry.size };
      }
      const hash = crypto.createHash('sha256');
      seen[entry.name] = { bytes: await drain(entry, hash), sha256: hash.digest('hex') };
    }
    if (!trailer) throw invalidFile('no trailer: the file is cut short');
    if (Object.keys(seen).length < expectedTables.length) throw invalidFile('tables are missing');
    for (const [name, e] of Object.entries(seen)) {
      const t = trailer.entries?.[name];
      if (!t || t.bytes !== e.bytes || t.sha256 !== e.sha256) throw invalidFile(`entry ${name} does not match its checksum`);
    }
    const listed = Object.keys(trailer.entries ?? {}).filter((n) => n !== MANIFEST_ENTRY);
    if (listed.length !== Object.keys(seen).length) throw invalidFile('the trailer lists entries the file lacks');
    if (trailer.blobs?.count !== blobs.count || trailer.blobs?.bytes !== blobs.bytes) throw invalidFile('the blob totals differ');
    return { manifest, trailer };
  } catch (e) {
    reader.close();
    if (e instanceof DomainError) throw e;
    throw invalidFile((e as Error).message);
  }
}

export function createSnapshots(deps: SnapshotEngineDeps): Snapshots & {
  /** Writes the whole state as a snapshot file to `out` (the named save's core; docs/sandbox.md). */
  saveTo(out: Writable, name: string, opts?: SnapshotOptions): Promise<{ manifest: Manifest; trailer: Trailer }>;
  /** Resolves once no background work (the spare data directory being made again) is under way: before the directory is removed. */
  settled(): Promise<void>;
} {
  const { sql, objectStore, clock, dir } = deps;
  let blobs: Promise<BlobAccess> | null = null;
  const blobAccess = () => (blobs ??= blobAccessOf(objectStore, { s3SinglePutMax: deps.s3SinglePutMax }));
  const fileOf = (name: string) => path.join(dir, `${checkName(name)}${EXTENSION}`);
  const infoFileOf = (name: string) => path.join(dir, `${checkName(name)}.json`);
  /** The PGlite fast path's copy of the data directory beside a named snapshot (never in the portable file). */
  const dataDirOf = (name: string) => path.join(dir, `${checkName(name)}${DATA_DIR_SUFFIX}`);
  /** A second copy, moved into the database's place by a restore (no copy on its path), made again after it. */
  const spareOf = (name: string) => `${dataDirOf(name)}${SPARE_SUFFIX}`;
  /** The spare being made again after a restore: the next save, restore or import waits for it. */
  let refilling: Promise<void> = Promise.resolve();
  const refill = (name: string) => {
    const tmp = `${spareOf(name)}.tmp`;
    refilling = (async () => {
      try {
        await fsp.cp(dataDirOf(name), tmp, { recursive: true, mode: fs.constants.COPYFILE_FICLONE });
        await fsp.rename(tmp, spareOf(name));
      } catch (e) {
        // No spare: the next restore of this snapshot copies its data directory on its path instead.
        await fsp.rm(tmp, { recursive: true, force: true });
        process.emitWarning(`snapshot ${name}: the spare data directory could not be made again (${(e as Error).message})`);
      }
    })();
  };
  // One save, restore or import at a time on this node: they would race for the files and the store.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(() => refilling).then(fn, fn);
    // The next call waits for this one to settle; this one's failure reaches its own caller through `run`.
    queue = run.then(() => undefined, () => undefined);
    return run;
  };

  async function saveTo(out: Writable, name: string, opts: SnapshotOptions = {}) {
    const access = await blobAccess();
    const archive = new ArchiveWriter(out);
    try {
      let manifest!: Manifest;
      await dumpDatabase(sql, { signingKeys: Boolean(opts.signingKeys) }, {
        async begin(dump) {
          manifest = {
            format: FORMAT, version: VERSION, name, createdAt: clock.now().toISOString(), engine: dump.engine, storage: objectStore.provider,
            migrations: dump.migrations, signingKeys: Boolean(opts.signingKeys), clockOffsetSeconds: clockOffsetOf(dump.settings),
            tables: dump.tables, sequences: dump.sequences,
          };
          await archive.addJson(MANIFEST_ENTRY, manifest);
        },
        async table(t, copy) {
          const spool = new Spool({ dir });
          try {
            await copy((chunk) => spool.write(chunk));
            await archive.add(tableEntry(t.name), spool.size, await spool.read());
          } finally {
            await spool.dispose();
          }
        },
      });
      // The blobs after the database's transaction: a file uploaded or deleted meanwhile may be
      // in one and not the other (docs/sandbox.md: save a quiet service).
      for await (const listed of access.list()) {
        const found = await access.read(listed);
        if (!found) continue; // deleted since the listing
        const e = found.entry;
        const pax: Record<string, string> = {};
        if (e.md5) pax[PAX.md5] = e.md5;
        if (e.contentType) pax[PAX.contentType] = e.contentType;
        if (e.cacheControl) pax[PAX.cacheControl] = e.cacheControl;
        await archive.add(`${BLOB_PREFIX}${e.key}`, e.size, found.body, pax);
        archive.trailer.blobs.count++;
        archive.trailer.blobs.bytes += e.size;
      }
      return { manifest, trailer: await archive.finish() };
    } catch (e) {
      archive.abort(e as Error);
      throw e;
    }
  }

  async function describe(name: string): Promise<SnapshotInfo> {
    try {
      return JSON.parse(await fsp.readFile(infoFileOf(name), 'utf8')) as SnapshotInfo;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(name);
      throw e;
    }
  }

  /** Moves a whole temporary snapshot file into place with its description. */
  async function keep(tmp: string, name: string, manifest: Manifest, trailer: Trailer, dataDirTmp?: string): Promise<SnapshotInfo> {
    const info = infoOf(manifest, trailer, (await fsp.stat(tmp)).size, name);
    const infoTmp = `${infoFileOf(name)}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fsp.writeFile(infoTmp, `${JSON.stringify(info, null, 2)}\n`);
    // A data directory of an older snapshot of this name must not outlive it (an import has none).
    await fsp.rm(dataDirOf(name), { recursive: true, force: true });
    await fsp.rm(spareOf(name), { recursive: true, force: true });
    await fsp.rename(tmp, fileOf(name));
    if (dataDirTmp) {
      await fsp.rename(dataDirTmp, dataDirOf(name));
      refill(name);
    }
    await fsp.rename(infoTmp, infoFileOf(name));
    return info;
  }

  /**
   * The fast path of a restore (docs/decisions.md "Snapshots"): on a PGlite on disk, when the
   * named snapshot was saved on this engine and kept a copy of the data directory, that copy
   * replaces the database's files (no COPY, no index build), then the deployment's own secret
   * settings (and the signing keys, unless the snapshot holds them) are put back as they
   * were, as the portable restore keeps them. False when it does not apply.
   */
  async function restoreDataDirectory(name: string, manifest: Manifest): Promise<boolean> {
    const files = sql.dataDirectory;
    if (!files || manifest.engine !== 'pglite') return false;
    const saved = dataDirOf(name);
    if (!(await isDirectory(saved))) return false;
    const rowsOf = (table: string, where: string, params: unknown[]) =>
      sql.query<{ rows: unknown }>(`SELECT coalesce(jsonb_agg(t), '[]'::jsonb) AS rows FROM ${quoteName(table)} t ${where}`, params);
    const [secrets] = await rowsOf('settings', 'WHERE key = ANY($1)', [SECRET_SETTINGS]);
    const [keys] = manifest.signingKeys ? [undefined] : await rowsOf(SIGNING_KEYS_TABLE, '', []);
    const spare = spareOf(name);
    if (await isDirectory(spare)) {
      await files.replaceWith(spare, { move: true });
      refill(name);
    } else await files.replaceWith(saved);
    await sql.transaction(async (tx) => {
      const putBack = (table: string, rows: unknown) =>
        tx.query(`INSERT INTO ${quoteName(table)} SELECT * FROM jsonb_populate_recordset(NULL::${quoteName(table)}, $1::jsonb)`, [JSON.stringify(rows)]);
      await tx.query('DELETE FROM settings WHERE key = ANY($1)', [SECRET_SETTINGS]);
      await putBack('settings', secrets!.rows);
      if (keys) {
        await tx.exec(`DELETE FROM ${quoteName(SIGNING_KEYS_TABLE)}`);
        await putBack(SIGNING_KEYS_TABLE, keys.rows);
      }
    }, { deadlineMs: 0 });
    return true;
  }

  /** A restore, its turn come (serial); `queuedAt`: when it was asked for (the bench's `queued` step). */
  async function restoreNow(name: string, queuedAt: number): Promise<SnapshotInfo> {
    let stepStarted = queuedAt;
    const stepDone = (step: RestoreStep) => {
      const now = performance.now();
      deps.onRestoreStep?.(step, now - stepStarted);
      stepStarted = now;
    };
    stepDone('queued');
    const info = await describe(name);
    const access = await blobAccess();
    const file = fileOf(name);
    let reader = new ArchiveReader(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }));
    try {
      const manifest = await readManifest(reader);
      const why = await incompatibility(sql, manifest);
      if (why) throw new DomainError('conflict', 'snapshot-incompatible', `Snapshot ${name} cannot be restored here: ${why}`, { name });
      stepDone('manifest');
      const tableEntries = async (t: { name: string }) => {
        const entry = await reader.next();
        if (!entry || entry.name !== tableEntry(t.name)) throw invalidFile(`expected ${tableEntry(t.name)}, found ${entry?.name ?? 'the end'}`);
        return entry;
      };
      const method: SnapshotInfo['restoredBy'] = (await restoreDataDirectory(name, manifest)) ? 'data-directory' : 'copy';
      if (method === 'copy') await loadDatabase(sql, manifest, async (t) => (await tableEntries(t)).body);
      else {
        // On to the blobs without reading the tables' bytes: a second reader starts where
        // the table entries end (the named file was verified whole when it was kept).
        reader.close();
        const tables = new Set(manifest.tables.map((t) => tableEntry(t.name)));
        const start = await offsetAfter(file, (entry) => entry === MANIFEST_ENTRY || tables.has(entry));
        reader = new ArchiveReader(fs.createReadStream(file, { start, highWaterMark: 1024 * 1024 }));
      }
      stepDone('database');
      // Every node drops every cache (service.reset: '*'); new signing keys are re-read on signing-keys.rotated.
      await deps.store.transaction(async (repos) => {
        await repos.events.publish(eventOf('service.reset', null, 'service', {}), clock.now());
        if (manifest.signingKeys) await repos.events.publish(eventOf('signing-keys.rotated', null, 'signing-keys', {}), clock.now());
      });
      clock.offsetMs = manifest.clockOffsetSeconds * 1000;
      stepDone('events');
      await restoreBlobs(reader, access);
      stepDone('blobs');
      return { ...info, restoredBy: method };
    } catch (e) {
      reader.close();
      throw e;
    }
  }

  const temporaryFile = (name: string) => path.join(dir, `.${checkName(name)}.${crypto.randomBytes(6).toString('hex')}${EXTENSION}.tmp`);

  async function restoreBlobs(reader: ArchiveReader, access: BlobAccess): Promise<void> {
    await access.deleteAll();
    // Small blobs are read whole (the archive is read in order) and written while the next
    // ones are read: each write waits on its own fsyncs, several of them at a time. A write's
    // failure is kept (not thrown into nowhere) and ends the restore once the others are done.
    const writing = new Set<Promise<void>>();
    const failures: unknown[] = [];
    const start = (blob: BlobEntry, body: Readable) => {
      const w: Promise<void> = access.write(blob, body).then(
        () => void writing.delete(w),
        (e: unknown) => {
          failures.push(e);
          writing.delete(w);
        },
      );
      writing.add(w);
    };
    try {
      for (let entry = await reader.next(); entry && !failures.length; entry = await reader.next()) {
        if (entry.name === TRAILER_ENTRY) {
          await drain(entry);
          continue;
        }
        if (!entry.name.startsWith(BLOB_PREFIX)) throw invalidFile(`unexpected entry ${entry.name}`);
        const blob: BlobEntry = {
          key: entry.name.slice(BLOB_PREFIX.length), size: entry.size, md5: entry.pax[PAX.md5] ?? null,
          contentType: entry.pax[PAX.contentType] ?? null, cacheControl: entry.pax[PAX.cacheControl] ?? null,
        };
        if (blob.size > PARALLEL_BLOB_MAX) {
          await Promise.all(writing);
          await access.write(blob, entry.body);
          continue;
        }
        const parts: Buffer[] = [];
        for await (const c of entry.body as AsyncIterable<Buffer>) parts.push(c);
        while (writing.size >= PARALLEL_BLOB_WRITES) await Promise.race(writing);
        start(blob, Readable.from([Buffer.concat(parts)]));
      }
    } finally {
      await Promise.all(writing);
    }
    if (failures.length) throw failures[0];
  }

  return {
    saveTo,
    settled: () => refilling,
    save: (name, opts) => serial(async () => {
      checkName(name);
      await fsp.mkdir(dir, { recursive: true });
      const tmp = temporaryFile(name);
      const dataDirTmp = sql.dataDirectory ? `${tmp}${DATA_DIR_SUFFIX}` : undefined;
      try {
        const { manifest, trailer } = await saveTo(fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }), name, opts);
        if (dataDirTmp) await sql.dataDirectory!.copyTo(dataDirTmp);
        return await keep(tmp, name, manifest, trailer, dataDirTmp);
      } finally {
        await fsp.rm(tmp, { force: true });
        if (dataDirTmp) await fsp.rm(dataDirTmp, { recursive: true, force: true });
      }
    }),
    restore: (name) => {
      const queuedAt = performance.now();
      return serial(() => restoreNow(name, queuedAt));
    },
    async list() {
      const files = (await fsp.readdir(dir).catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return [] as string[];
        throw e;
      })).filter((f) => f.endsWith('.json') && NAME.test(f.slice(0, -5)));
      const infos = await Promise.all(files.map((f) => describe(f.slice(0, -5))));
      return infos.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.name.localeCompare(b.name)));
    },
    describe,
    async remove(name) {
      await describe(name);
      await fsp.rm(infoFileOf(name), { force: true });
      await refilling;
      await fsp.rm(dataDirOf(name), { recursive: true, force: true });
      await fsp.rm(spareOf(name), { recursive: true, force: true });
      await fsp.rm(fileOf(name), { force: true });
    },
    exportFile(name) {
      const file = fileOf(name);
      return (async function* () {
        await describe(name);
        yield* fs.createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>;
      })();
    },
    importFile: (name, data) => serial(async () => {
      checkName(name);
      await fsp.mkdir(dir, { recursive: true });
      const tmp = temporaryFile(name);
      try {
        await pipeline(Readable.from(data), fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
        const { manifest, trailer } = await verifyFile(tmp);
        return await keep(tmp, name, manifest, trailer);
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    }),
  };
}
