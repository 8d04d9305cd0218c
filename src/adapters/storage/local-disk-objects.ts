// The local-disk store's objects (CONTRACT §7, docs/storage.md): files under a root
// directory, each with a metadata file beside it (`.{name}.meta`). Uploads stream to a
// temporary file beside the target with a running MD5, are fsynced and renamed into place
// only when complete and verified; nothing else is ever kept. Keys are checked here
// (`pathOf`), whatever the caller checked before.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../core/errors.ts';
import { errorFields, type Logger } from '../../core/ports/telemetry.ts';
import type { ObjectInfo } from '../../core/ports/object-store.ts';
import { FlushingWriter } from './flushing-writer.ts';
import { MD5_HEX, invalidBlobKey, isValidKey, storeInvalid, type VerifiedUpload } from './local-disk-urls.ts';

/** Metadata kept beside each object (`.{name}.meta`): `ino` ties it to one version of the file. */
export interface ObjectMeta {
  size: number;
  md5: string;
  ino: number;
  cacheControl?: string;
  contentType?: string;
  /** A multipart upload's id (local-disk-multipart.ts): a second completion finds it here. */
  uploadId?: string;
  /** A multipart upload's composite checksum (MD5 of its parts' MD5s). */
  partsMd5?: string;
}

export interface DiskObjectsOptions {
  /** Directory holding the objects (created if missing). */
  root: string;
  /** Where background failures (the sweep of temporary files) are logged. */
  logger?: Logger;
  /** Remove the root on close (a temporary root of an in-memory deployment). */
  removeRootOnClose?: boolean;
  /** Also run by the periodic sweep (the multipart area's idle uploads). */
  alsoSweep?: () => Promise<unknown>;
}

export class DiskObjects {
  readonly root: string;
  private ready: Promise<void> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private readonly opts: DiskObjectsOptions;

  constructor(opts: DiskObjectsOptions) {
    this.opts = opts;
    this.root = path.resolve(opts.root);
  }

  /**
   * Creates the root directory; called once at start. Also starts the sweep of what dead
   * uploads left (a process killed mid-upload leaves its temporary file): at start, then
   * every 10 minutes.
   */
  async init(): Promise<void> {
    await (this.ready ??= fsp.mkdir(this.root, { recursive: true }).then(() => undefined));
    if (!this.sweeper && !this.opts.removeRootOnClose) {
      const sweep = () =>
        void Promise.all([this.sweepTemporary(), this.opts.alsoSweep?.()]).catch((e: unknown) => this.opts.logger?.warn(errorFields(e), 'local-disk sweep of temporary files failed'));
      sweep();
      this.sweeper = setInterval(sweep, 10 * 60_000);
      this.sweeper.unref();
    }
  }

  /**
   * Deletes temporary files nobody has written for `idleMs` (an upload in progress writes
   * its file continuously; the server's request timeout ends a stalled one first), and
   * metadata files whose object is gone (a crash between the two renames). Wall-clock
   * time: file times are the system's, not the sandbox clock's.
   */
  async sweepTemporary(idleMs = 10 * 60_000): Promise<string[]> {
    const removed: string[] = [];
    const cutoff = Date.now() - idleMs;
    const walk = async (dir: string, depth: number): Promise<void> => {
      const entries = await unlessMissing(fsp.readdir(dir, { withFileTypes: true })); // removed meanwhile
      for (const e of entries ?? []) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (depth < 8) await walk(p, depth + 1);
          continue;
        }
        if (!e.name.startsWith('.')) continue;
        const temporary = /\.(part|meta-part)$/.test(e.name);
        const meta = /^\.(.+)\.meta$/.exec(e.name);
        if (!temporary && !meta) continue;
        const st = await unlessMissing(fsp.stat(p)); // removed meanwhile (an upload finished)
        if (!st || st.mtimeMs > cutoff) continue;
        if (meta && (await unlessMissing(fsp.stat(path.join(dir, meta[1]!))))) continue;
        await fsp.rm(p, { force: true });
        removed.push(path.relative(this.root, p));
      }
    };
    await walk(this.root, 0);
    return removed;
  }

  /** The file of a key, resolved inside the root; throws on a key that is not ours. */
  pathOf(key: string): string {
    if (!isValidKey(key)) throw invalidBlobKey();
    const p = path.resolve(this.root, ...key.split('/'));
    if (!p.startsWith(this.root + path.sep)) throw invalidBlobKey();
    return p;
  }

  metaPathOf(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.meta`);
  }

  /** Temporary names beside `file` for its bytes and its metadata (swept when left behind). */
  temporaryPaths(file: string): { dir: string; tmp: string; tmpMeta: string } {
    const dir = path.dirname(file);
    const tag = crypto.randomBytes(6).toString('hex');
    return {
      dir,
      tmp: path.join(dir, `.${path.basename(file)}.${tag}.part`),
      tmpMeta: path.join(dir, `.${path.basename(file)}.${tag}.meta-part`),
    };
  }

  /** Publishes a finished temporary file and its metadata: the metadata first, then the object. */
  async publish(file: string, tmp: string, tmpMeta: string, meta: ObjectMeta): Promise<void> {
    await writeDurably(tmpMeta, JSON.stringify(meta));
    await fsp.rename(tmpMeta, this.metaPathOf(file));
    await fsp.rename(tmp, file);
  }

  /**
   * Streams a verified upload to disk: a temporary file beside the target, a running MD5,
   * fsync, then rename. Any failure (a cut connection, too many or too few bytes, another
   * digest) deletes the temporary file and keeps the previous object, if any.
   */
  async receive(upload: VerifiedUpload, body: Readable): Promise<{ size: number; md5Hex: string }> {
    await this.init();
    const file = this.pathOf(upload.key);
    const { dir, tmp, tmpMeta } = this.temporaryPaths(file);
    await fsp.mkdir(dir, { recursive: true });
    const out = new FlushingWriter(await fsp.open(tmp, 'wx', 0o640));
    try {
      const digest = await writeVerifiedBody(body, out, upload);
      const { ino } = await fsp.stat(tmp);
      await this.publish(file, tmp, tmpMeta, { size: upload.size, md5: digest, ino, cacheControl: upload.cacheControl, contentType: upload.contentType });
      await syncDir(dir);
      return { size: upload.size, md5Hex: digest };
    } catch (e) {
      await out.abandon();
      await removeTemporary(tmp, tmpMeta);
      throw e;
    }
  }

  /** The object's metadata (null: no object); the MD5 is recomputed (not stored) when the metadata file is stale. */
  async read(file: string): Promise<ObjectMeta | null> {
    const st = await unlessMissing(fsp.stat(file));
    if (!st?.isFile()) return null;
    let meta: Partial<ObjectMeta> | null = null;
    try {
      meta = JSON.parse(await fsp.readFile(this.metaPathOf(file), 'utf8')) as Partial<ObjectMeta>;
    } catch {
      meta = null;
    }
    if (meta && meta.ino === st.ino && meta.size === st.size && typeof meta.md5 === 'string' && MD5_HEX.test(meta.md5)) {
      return meta as ObjectMeta;
    }
    const hash = crypto.createHash('md5');
    await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
    return { size: st.size, md5: hash.digest('hex'), ino: st.ino };
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const found = await this.read(this.pathOf(key));
    return found ? { size: found.size, md5Hex: found.md5 } : null;
  }

  async readHead(key: string, bytes: number): Promise<Uint8Array | null> {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(this.pathOf(key), 'r');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
      throw e;
    }
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fsp.rm(file, { force: true });
    await fsp.rm(this.metaPathOf(file), { force: true });
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const from = this.pathOf(fromKey);
    const to = this.pathOf(toKey);
    const found = await this.read(from);
    if (!found) throw new DomainError('not-found', 'blob-not-found', `No object ${fromKey}`);
    const { dir, tmp, tmpMeta } = this.temporaryPaths(to);
    await fsp.mkdir(dir, { recursive: true });
    try {
      await fsp.copyFile(from, tmp, fs.constants.COPYFILE_FICLONE);
      const fh = await fsp.open(tmp, 'r+');
      const { ino } = await fh.stat();
      await fh.sync();
      await fh.close();
      await this.publish(to, tmp, tmpMeta, { ...found, ino });
    } catch (e) {
      await removeTemporary(tmp, tmpMeta);
      throw e;
    }
  }

  async ping(): Promise<void> {
    await fsp.access(this.root, fs.constants.W_OK);
  }

  /**
   * Every object with its metadata (snapshots), by key order within each directory. Dot
   * entries are not objects: metadata and temporary files, the multipart area (`.multipart`).
   */
  async *list(): AsyncGenerator<{ key: string; meta: ObjectMeta }> {
    const walk = async function* (this: DiskObjects, dir: string, prefix: string): AsyncGenerator<{ key: string; meta: ObjectMeta }> {
      const entries = ((await unlessMissing(fsp.readdir(dir, { withFileTypes: true }))) ?? []).sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) yield* walk.call(this, p, `${prefix}${e.name}/`);
        else if (e.isFile()) {
          const meta = await this.read(p); // null: deleted meanwhile
          if (meta) yield { key: `${prefix}${e.name}`, meta };
        }
      }
    };
    yield* walk.call(this, this.root, '');
  }

  /** The object's bytes, streamed (null: no object). */
  async open(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const fh = await unlessMissing(fsp.open(this.pathOf(key), 'r'));
    return fh ? fh.createReadStream({ highWaterMark: 1024 * 1024, ...range }) : null;
  }

  /**
   * Writes an object whole (a snapshot's restore), as an upload is: a temporary file, its
   * size and MD5 checked against `meta`, fsync, then renamed into place with its metadata.
   */
  async write(key: string, body: Readable, meta: { size: number; md5: string; contentType?: string; cacheControl?: string }): Promise<void> {
    await this.init();
    const file = this.pathOf(key);
    const { dir, tmp, tmpMeta } = this.temporaryPaths(file);
    await fsp.mkdir(dir, { recursive: true });
    const out = new FlushingWriter(await fsp.open(tmp, 'wx', 0o640));
    try {
      const md5 = await writeVerifiedBody(body, out, { size: meta.size, md5Hex: meta.md5 });
      const { ino } = await fsp.stat(tmp);
      await this.publish(file, tmp, tmpMeta, { size: meta.size, md5, ino, cacheControl: meta.cacheControl, contentType: meta.contentType });
      await syncDir(dir);
    } catch (e) {
      await out.abandon();
      await removeTemporary(tmp, tmpMeta);
      throw e;
    }
  }

  /** Deletes every object (operator reset). */
  async deleteAll(): Promise<void> {
    const entries = (await unlessMissing(fsp.readdir(this.root))) ?? [];
    for (const e of entries) await fsp.rm(path.join(this.root, e), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    if (this.opts.removeRootOnClose) await fsp.rm(this.root, { recursive: true, force: true });
  }
}

/**
 * Streams a body through a running MD5 into `out` (a FlushingWriter on the target file) and
 * finishes it (fsync, close): the bytes must be exactly `expected.size` long and have the
 * MD5 `expected.md5Hex` (400 `content-length-mismatch`, `bad-digest`); a cut connection is
 * 400 `upload-incomplete`; a disk error goes on as it is (a 5xx). Answers the digest. The
 * caller abandons `out` and removes what was written when this throws.
 */
export async function writeVerifiedBody(body: Readable, out: FlushingWriter, expected: { size: number; md5Hex: string }): Promise<string> {
  const hash = crypto.createHash('md5');
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > expected.size) throw storeInvalid('content-length-mismatch', 'The body is longer than the signed size');
      hash.update(chunk);
      await out.push(chunk);
    }
    // fsync before the descriptor is closed, so the rename publishes durable bytes.
    await out.finish();
  } catch (e) {
    if (e instanceof DomainError) throw e;
    // The client's side failed (cut connection, aborted body): its fault, a 4xx. A disk
    // error (full, read-only) is ours and goes on as a 5xx.
    const code = (e as NodeJS.ErrnoException).code;
    if (body.readableAborted || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET') {
      throw storeInvalid('upload-incomplete', 'The upload was interrupted');
    }
    throw e;
  }
  if (received !== expected.size) throw storeInvalid('content-length-mismatch', 'The body is shorter than the signed size');
  const digest = hash.digest('hex');
  if (digest !== expected.md5Hex) throw storeInvalid('bad-digest', 'The MD5 of the body does not match Content-MD5');
  return digest;
}

/**
 * Removes the temporary files of a failed write; a failure to remove them is left to the
 * sweep (sweepTemporary) so that the write's own error is the one reported.
 */
async function removeTemporary(tmp: string, tmpMeta: string): Promise<void> {
  await Promise.allSettled([fsp.rm(tmp, { force: true }), fsp.rm(tmpMeta, { force: true })]);
}

/** An fs call's answer, or null when the path is not there (ENOENT, ENOTDIR); any other failure is thrown. */
export async function unlessMissing<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

async function writeDurably(file: string, text: string): Promise<void> {
  const fh = await fsp.open(file, 'wx', 0o640);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await fsp.open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* some filesystems refuse fsync on a directory: the rename is still atomic */
  }
}
