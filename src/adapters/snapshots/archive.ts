// The snapshot file (docs/sandbox.md "The snapshot file"): a POSIX tar (pax headers),
// uncompressed, read and written as a stream. Its entries, in this order:
//
//   scanbase-snapshot.json        the manifest: format, version, what the file holds
//   tables/<table>.pgcopy         each table's rows, PostgreSQL binary COPY, in load order
//   blobs/<key>                   each object's bytes; pax SCANBASE.md5, .contentType, .cacheControl
//   scanbase-snapshot-end.json    the trailer: every entry's size and SHA-256, the blob totals
//
// A file without its trailer is incomplete; an import checks every entry against it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import tar from 'tar-stream';
import type { SequenceState, TablePlan } from './database.ts';

export const FORMAT = 'scanbase-snapshot';
export const VERSION = 1;
export const MANIFEST_ENTRY = 'scanbase-snapshot.json';
export const TRAILER_ENTRY = 'scanbase-snapshot-end.json';
export const tableEntry = (table: string) => `tables/${table}.pgcopy`;
export const BLOB_PREFIX = 'blobs/';

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  name: string;
  createdAt: string;
  engine: 'pglite' | 'postgres';
  /** The store the blobs came from (`local`, `s3`, `azure`): any store restores them. */
  storage: string;
  migrations: string[];
  signingKeys: boolean;
  clockOffsetSeconds: number;
  tables: TablePlan[];
  sequences: SequenceState[];
}

export interface Trailer {
  entries: Record<string, { bytes: number; sha256: string }>;
  blobs: { count: number; bytes: number };
}

/** Blob headers kept in each blob entry's pax header. */
export const PAX = { md5: 'SCANBASE.md5', contentType: 'SCANBASE.contentType', cacheControl: 'SCANBASE.cacheControl' } as const;

export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly written: Promise<void>;
  readonly trailer: Trailer = { entries: {}, blobs: { count: 0, bytes: 0 } };
  private readonly mtime = new Date();
  private failure: Error | null = null;

  constructor(out: Writable) {
    // A failure of the destination fails the writer's next call (the race in add) and finish.
    this.written = pipeline(this.pack as unknown as Readable, out).catch((e: unknown) => {
      throw new Error(`the snapshot could not be written: ${(e as Error).message}`, { cause: e });
    });
    this.written.then(() => undefined, (e: unknown) => (this.failure = e as Error));
  }

  /** One entry of exactly `size` bytes from `data`; its size and SHA-256 go in the trailer. */
  async add(name: string, size: number, data: AsyncIterable<Uint8Array> | Uint8Array, pax?: Record<string, string>): Promise<void> {
    if (this.failure) throw this.failure;
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    let failed: Error | null = null;
    const done = new Promise<void>((resolve, reject) => {
      // tar-stream writes `pax` as a pax extended header (its types do not name it).
      const sink = this.pack.entry({ name, size, mtime: this.mtime, mode: 0o644, ...(pax ? { pax } : {}) }, (e) => (e ? reject(e) : resolve()));
      (async () => {
        for await (const chunk of data instanceof Uint8Array ? [data] : data) {
          hash.update(chunk);
          bytes += chunk.length;
          if (!sink.write(chunk)) await once(sink as unknown as NodeJS.EventEmitter, 'drain');
        }
        sink.end(undefined);
      })().catch((e: unknown) => {
        failed = e instanceof Error ? e : new Error(String(e));
        sink.destroy(failed);
        reject(failed);
      });
    });
    await Promise.race([done, this.written]);
    if (bytes !== size) throw new Error(`snapshot entry ${name}: ${bytes} bytes written, ${size} announced`);
    this.trailer.entries[name] = { bytes, sha256: hash.digest('hex') };
  }

  async addJson(name: string, value: unknown): Promise<void> {
    const bytes = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    await this.add(name, bytes.length, bytes);
  }

  /** Writes the trailer, ends the archive and waits for the destination to have it all. */
  async finish(): Promise<Trailer> {
    const trailer = structuredClone(this.trailer);
    await this.addJson(TRAILER_ENTRY, trailer);
    this.pack.finalize();
    await this.written;
    return trailer;
  }

  /** Ends the archive after a failure (the destination is removed by the caller). */
  abort(e: Error): void {
    this.pack.destroy(e);
  }
}

export interface ArchiveEntry {
  name: string;
  size: number;
  pax: Record<string, string>;
  body: Readable;
}

/** The entries of a snapshot file in order; each entry's body must be read (or drained) before the next. */
export class ArchiveReader {
  private readonly extract = tar.extract();
  private readonly it: AsyncIterator<Readable & { header: tar.Header }>;
  private readonly piped: Promise<void>;
  private failure: Error | null = null;

  constructor(source: Readable) {
    this.piped = pipeline(source, this.extract as unknown as Writable);
    // A failure of the source reaches the iterator too; the promise is awaited at the end.
    this.piped.then(() => undefined, (e: unknown) => (this.failure = e as Error));
    this.it = (this.extract as unknown as AsyncIterable<Readable & { header: tar.Header }>)[Symbol.asyncIterator]();
  }

  async next(): Promise<ArchiveEntry | null> {
    if (this.failure) throw this.failure;
    const r = await this.it.next();
    if (r.done) {
      await this.piped;
      return null;
    }
    const h = r.value.header;
    // A Node stream (the store SDKs take no other), pulling from tar-stream's entry.
    return { name: h.name, size: h.size ?? 0, pax: (h.pax ?? {}) as Record<string, string>, body: Readable.from(r.value) };
  }

  async json<T>(entry: ArchiveEntry, limit = 64 * 1024 * 1024): Promise<T> {
    if (entry.size > limit) throw new Error(`${entry.name} is ${entry.size} bytes (at most ${limit})`);
    const chunks: Buffer[] = [];
    for await (const c of entry.body as AsyncIterable<Buffer>) chunks.push(c);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
  }

  /** Stops reading (after a failure): the file is closed. */
  close(): void {
    this.extract.destroy();
  }
}

/**
 * Bytes gathered before their size is known (a table's COPY output, which a tar entry needs
 * up front): in memory up to `memoryBytes`, then in a temporary file.
 */
export class Spool {
  private chunks: Uint8Array[] = [];
  private file: { path: string; handle: fsp.FileHandle; closed: boolean } | null = null;
  size = 0;
  private readonly memoryBytes: number;
  private readonly dir: string;

  constructor(opts: { memoryBytes?: number; dir?: string } = {}) {
    this.memoryBytes = opts.memoryBytes ?? 64 * 1024 * 1024;
    this.dir = opts.dir ?? os.tmpdir();
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.size += chunk.length;
    if (!this.file && this.size <= this.memoryBytes) {
      // A view may be reused by its producer: keep a copy.
      this.chunks.push(Buffer.from(chunk));
      return;
    }
    if (!this.file) {
      const p = path.join(this.dir, `.spool-${crypto.randomBytes(6).toString('hex')}`);
      this.file = { path: p, handle: await fsp.open(p, 'wx', 0o600), closed: false };
      for (const c of this.chunks) await this.file.handle.write(c);
      this.chunks = [];
    }
    await this.file.handle.write(chunk);
  }

  /** What was written, from the start (memory or file). */
  async read(): Promise<AsyncIterable<Uint8Array> | Uint8Array> {
    if (!this.file) return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.file.closed = true;
    await this.file.handle.close();
    return fs.createReadStream(this.file.path, { highWaterMark: 1024 * 1024 });
  }

  async dispose(): Promise<void> {
    this.chunks = [];
    if (this.file) {
      if (!this.file.closed) await this.file.handle.close();
      await fsp.rm(this.file.path, { force: true });
      this.file = null;
    }
  }
}

const BLOCK = 512;
const padded = (n: number) => Math.ceil(n / BLOCK) * BLOCK;

/** A tar header's size field: octal text, or base-256 (high bit set) for the largest entries. */
function headerSize(field: Buffer): number {
  if (field[0]! & 0x80) {
    let n = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i]!;
    return n;
  }
  const text = field.toString('ascii').replace(/[\0 ]+$/, '').trim();
  return text ? parseInt(text, 8) : 0;
}

const cString = (b: Buffer) => {
  const z = b.indexOf(0);
  return b.toString('utf8', 0, z === -1 ? b.length : z);
};

/**
 * Where the entries after the manifest and the tables begin (the blobs, then the trailer),
 * found by reading the headers only and stepping over the table data: a restore that
 * needs only the blobs starts its reader there instead of reading the tables through.
 * `isSkipped` says which entry names come before (the manifest and `tables/…`).
 */
export async function offsetAfter(file: string, isSkipped: (name: string) => boolean): Promise<number> {
  const handle = await fsp.open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const header = Buffer.alloc(BLOCK);
    let at = 0;
    let entryStart = 0;
    let long: { name?: string; size?: number } = {};
    while (at + BLOCK <= size) {
      const { bytesRead } = await handle.read(header, 0, BLOCK, at);
      if (bytesRead < BLOCK || header.every((b) => b === 0)) break; // the end blocks
      const type = String.fromCharCode(header[156]!);
      const dataSize = headerSize(header.subarray(124, 136));
      if (type === 'x' || type === 'L') {
        // A pax extended header (path, size) or a GNU long name, for the entry that follows.
        if (dataSize > 1024 * 1024) throw new Error(`an extended header of ${dataSize} bytes`);
        const data = Buffer.alloc(dataSize);
        await handle.read(data, 0, dataSize, at + BLOCK);
        if (type === 'L') long.name = cString(data);
        else {
          for (let p = 0; p < data.length;) {
            const space = data.indexOf(0x20, p);
            const length = parseInt(data.toString('ascii', p, space), 10);
            if (space === -1 || !(length > 0)) break;
            const record = data.toString('utf8', space + 1, p + length - 1);
            const eq = record.indexOf('=');
            if (record.slice(0, eq) === 'path') long.name = record.slice(eq + 1);
            if (record.slice(0, eq) === 'size') long.size = Number(record.slice(eq + 1));
            p += length;
          }
        }
        at += BLOCK + padded(dataSize);
        continue;
      }
      const prefix = header.toString('ascii', 257, 262) === 'ustar' ? cString(header.subarray(345, 500)) : '';
      const short = cString(header.subarray(0, 100));
      const name = long.name ?? (prefix ? `${prefix}/${short}` : short);
      if (!isSkipped(name)) return entryStart;
      at += BLOCK + padded(long.size ?? dataSize);
      entryStart = at;
      long = {};
    }
    return entryStart;
  } finally {
    await handle.close();
  }
}
