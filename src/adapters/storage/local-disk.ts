// Local-disk object store (CONTRACT §1, §7): objects are files under a root directory and
// the service itself receives and serves the signed URLs (src/http/blobs.ts). Uploads
// stream to a temporary file beside the target with a running MD5, are fsynced and
// renamed into place only when complete and verified; nothing else is ever kept.
//
// Signed URL format (docs/storage.md), {base} = BLOB_PUBLIC_URL, else STORAGE_PUBLIC_URL, else PUBLIC_URL:
//   PUT  {base}/_blobs/{key}?expires={unix s}&size={bytes}&md5={hex}[&type={type}]&sig={base64url}
//   GET  {base}/_blobs/{key}?expires={unix s}&type={type}[&inline=1][&name={file name}]&sig={base64url}
// sig = HMAC-SHA256 under a key kept in the database (shared by every node) over
// "v2\nPUT\n{key}\n{expires}\n{size}\n{md5}\n{type}" or "v2\nGET\n{key}\n{expires}\n{name}\n{type}\n{inline}".
// The type is the service's (src/core/files/blob-types.ts): the uploader's Content-Type is
// ignored, and a read answers only the signed type and disposition (docs/security.md).
import { errorFields, type Logger } from '../../core/ports/telemetry.ts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../core/errors.ts';
import { safeEqual } from '../../core/crypto/digest.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type {
  ObjectInfo, ObjectStore, SignDownloadInput, SignedUpload, SignUploadInput,
} from '../../core/ports/object-store.ts';

export const BLOB_ROUTE_PREFIX = '/_blobs/';
export const UPLOAD_CACHE_CONTROL = 'max-age=2592000';

/** `attachment`, with the file name (ASCII and RFC 8187 forms) when given; every store's downloads use it. */
export function contentDisposition(name: string | undefined): string {
  if (name === undefined) return 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A key is 1 to 8 segments joined by "/", each 1-255 characters of [A-Za-z0-9._~=-] that
 * does not start with "." (so no "..", no hidden names: temporary and metadata files start
 * with "."), 1,024 characters at most. Anything else is refused before touching the disk.
 */
const SEGMENT = /^[A-Za-z0-9_~=-][A-Za-z0-9._~=-]{0,254}$/;

export function isValidKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) return false;
  const parts = key.split('/');
  return parts.length <= 8 && parts.every((p) => SEGMENT.test(p));
}

const MD5_HEX = /^[0-9a-f]{32}$/;

/** Metadata kept beside each object (`.{name}.meta`): `ino` ties it to one version of the file. */
interface Meta {
  size: number;
  md5: string;
  ino: number;
  cacheControl?: string;
  contentType?: string;
}

export interface LocalDiskOptions {
  /** Where background failures (the sweep of temporary files) are logged. */
  logger?: Logger;
  /** Directory holding the objects (created if missing). */
  root: string;
  /** BLOB_PUBLIC_URL, else STORAGE_PUBLIC_URL, else PUBLIC_URL: the base of every signed URL. */
  publicUrl: string;
  /** The HMAC key, shared by every node (kept in the database). */
  signingKey: () => Promise<Buffer>;
  /** The service clock: URL expiry follows the sandbox clock. */
  clock: Clock;
  /** Remove the root on close (a temporary root of an in-memory deployment). */
  removeRootOnClose?: boolean;
}

export interface UploadRequest {
  key: string;
  query: Record<string, string | undefined>;
  contentLength: string | undefined;
  contentMd5: string | undefined;
  cacheControl: string | undefined;
  /** true when the request body is chunked (no Content-Length). */
  chunked: boolean;
}

export interface VerifiedUpload {
  key: string;
  size: number;
  md5Hex: string;
  cacheControl: string | undefined;
  /** The signed type (the uploader's Content-Type header is not used). */
  contentType: string | undefined;
}

export interface DownloadTarget {
  path: string;
  size: number;
  md5Hex: string;
  cacheControl: string;
  /** The type signed into the URL (application/octet-stream when none was). */
  contentType: string;
  /** false: Content-Disposition: attachment (with fileName when given). */
  inline: boolean;
  fileName: string | undefined;
}

const forbidden = (code: string, message: string) => new DomainError('forbidden', code, message);
const invalid = (code: string, message: string) => new DomainError('invalid', code, message);

const SIGNATURE_INVALID = () => forbidden('signature-invalid', 'The URL signature does not match');

export class LocalDiskStore implements ObjectStore {
  readonly provider = 'local' as const;
  readonly root: string;
  private readonly base: string;
  private key: Promise<Buffer> | null = null;
  private ready: Promise<void> | null = null;

  private readonly opts: LocalDiskOptions;

  constructor(opts: LocalDiskOptions) {
    this.opts = opts;
    this.root = path.resolve(opts.root);
    this.base = opts.publicUrl.replace(/\/+$/, '') + BLOB_ROUTE_PREFIX.slice(0, -1);
  }

  private sweeper: NodeJS.Timeout | null = null;

  /**
   * Creates the root directory; called once at start. Also starts the sweep of what dead
   * uploads left (a process killed mid-upload leaves its temporary file): at start, then
   * every 10 minutes.
   */
  async init(): Promise<void> {
    await (this.ready ??= fsp.mkdir(this.root, { recursive: true }).then(() => undefined));
    if (!this.sweeper && !this.opts.removeRootOnClose) {
      const sweep = () =>
        void this.sweepTemporary().catch((e: unknown) => this.opts.logger?.warn(errorFields(e), 'local-disk sweep of temporary files failed'));
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
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (depth < 8) await walk(p, depth + 1);
          continue;
        }
        if (!e.name.startsWith('.')) continue;
        const temporary = /\.(part|meta-part)$/.test(e.name);
        const meta = /^\.(.+)\.meta$/.exec(e.name);
        if (!temporary && !meta) continue;
        const st = await fsp.stat(p).catch(() => null);
        if (!st || st.mtimeMs > cutoff) continue;
        if (meta && (await fsp.stat(path.join(dir, meta[1]!)).catch(() => null))) continue;
        await fsp.rm(p, { force: true });
        removed.push(path.relative(this.root, p));
      }
    };
    await walk(this.root, 0);
    return removed;
  }

  private signingKey(): Promise<Buffer> {
    return (this.key ??= this.opts.signingKey().catch((e: unknown) => {
      this.key = null; // retry on the next call
      throw e;
    }));
  }

  private async mac(text: string): Promise<string> {
    return crypto.createHmac('sha256', await this.signingKey()).update(text, 'utf8').digest('base64url');
  }

  /** The file of a key, resolved inside the root; throws on a key that is not ours. */
  pathOf(key: string): string {
    if (!isValidKey(key)) throw invalid('invalid-blob-key', 'Invalid object key');
    const p = path.resolve(this.root, ...key.split('/'));
    if (!p.startsWith(this.root + path.sep)) throw invalid('invalid-blob-key', 'Invalid object key');
    return p;
  }

  private metaPathOf(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.meta`);
  }

  private urlOf(key: string, params: Record<string, string>): string {
    const encoded = key.split('/').map(encodeURIComponent).join('/');
    return `${this.base}/${encoded}?${new URLSearchParams(params).toString()}`;
  }

  async signUpload(input: SignUploadInput, now: Date): Promise<SignedUpload> {
    this.pathOf(input.key);
    if (!Number.isSafeInteger(input.size) || input.size < 0) throw invalidInputSize();
    const md5 = input.md5Hex.toLowerCase();
    if (!MD5_HEX.test(md5)) throw invalid('invalid-input', 'md5 must be 32 hexadecimal digits');
    const expires = Math.floor(now.getTime() / 1000) + input.expiresInSeconds;
    const type = input.contentType ?? '';
    const sig = await this.mac(`v2\nPUT\n${input.key}\n${expires}\n${input.size}\n${md5}\n${type}`);
    // No Content-Type header: the signed type is recorded whatever the client sends.
    const headers: Record<string, string> = {
      'Content-MD5': Buffer.from(md5, 'hex').toString('base64'),
      'Cache-Control': UPLOAD_CACHE_CONTROL,
      'x-ms-blob-type': 'BlockBlob',
    };
    const params: Record<string, string> = { expires: String(expires), size: String(input.size), md5 };
    if (type) params.type = type;
    params.sig = sig;
    return {
      url: this.urlOf(input.key, params),
      headers,
      expiresAt: new Date(expires * 1000),
    };
  }

  async signDownload(input: SignDownloadInput, now: Date): Promise<string> {
    this.pathOf(input.key);
    const expires = Math.floor(now.getTime() / 1000) + input.expiresInSeconds;
    const name = input.fileName ?? '';
    const type = input.contentType;
    const inline = input.inline ? '1' : '';
    const sig = await this.mac(`v2\nGET\n${input.key}\n${expires}\n${name}\n${type}\n${inline}`);
    const params: Record<string, string> = { expires: String(expires), type };
    if (inline) params.inline = inline;
    if (name) params.name = name;
    params.sig = sig;
    return this.urlOf(input.key, params);
  }

  /** Checks a signed URL's signature, then its expiry (a tampered expiry is a bad signature). */
  private async checkSignature(text: string, query: Record<string, string | undefined>): Promise<number> {
    const { expires, sig } = query;
    if (!expires || !sig || !/^\d{1,12}$/.test(expires)) throw SIGNATURE_INVALID();
    if (!safeEqual(sig, await this.mac(text))) throw SIGNATURE_INVALID();
    const exp = Number(expires);
    if (this.opts.clock.nowMs() > exp * 1000) throw forbidden('url-expired', 'The signed URL has expired');
    return exp;
  }

  /** Verifies a PUT's URL and headers before a byte of the body is read. */
  async verifyUpload(req: UploadRequest): Promise<VerifiedUpload> {
    if (!isValidKey(req.key)) throw SIGNATURE_INVALID();
    const { size, md5 } = req.query;
    if (!size || !md5 || !/^\d{1,16}$/.test(size) || !MD5_HEX.test(md5)) throw SIGNATURE_INVALID();
    const type = req.query.type ?? '';
    await this.checkSignature(`v2\nPUT\n${req.key}\n${req.query.expires}\n${size}\n${md5}\n${type}`, req.query);
    if (req.contentLength === undefined || req.chunked) {
      throw invalid('length-required', 'The upload needs a Content-Length header');
    }
    if (req.contentLength !== size) {
      throw invalid('content-length-mismatch', `Content-Length must be the signed size (${size} bytes)`);
    }
    const declared = req.contentMd5 === undefined ? undefined : base64Md5ToHex(req.contentMd5);
    if (declared === undefined) throw invalid('content-md5-missing', 'The upload needs a Content-MD5 header (base64 of the MD5)');
    if (declared !== md5) throw invalid('content-md5-mismatch', 'Content-MD5 does not match the signed MD5');
    return {
      key: req.key,
      size: Number(size),
      md5Hex: md5,
      cacheControl: req.cacheControl?.slice(0, 256),
      contentType: type || undefined,
    };
  }

  /**
   * Streams a verified upload to disk: a temporary file beside the target, a running MD5,
   * fsync, then rename. Any failure (a cut connection, too many or too few bytes, another
   * digest) deletes the temporary file and keeps the previous object, if any.
   */
  async receive(upload: VerifiedUpload, body: Readable): Promise<{ size: number; md5Hex: string }> {
    await this.init();
    const file = this.pathOf(upload.key);
    const dir = path.dirname(file);
    await fsp.mkdir(dir, { recursive: true });
    const tag = crypto.randomBytes(6).toString('hex');
    const tmp = path.join(dir, `.${path.basename(file)}.${tag}.part`);
    const tmpMeta = path.join(dir, `.${path.basename(file)}.${tag}.meta-part`);
    const hash = crypto.createHash('md5');
    let received = 0;
    const out = new FlushingWriter(await fsp.open(tmp, 'wx', 0o640));
    try {
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > upload.size) throw invalid('content-length-mismatch', 'The body is longer than the signed size');
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
          throw invalid('upload-incomplete', 'The upload was interrupted');
        }
        throw e;
      }
      if (received !== upload.size) throw invalid('content-length-mismatch', 'The body is shorter than the signed size');
      const digest = hash.digest('hex');
      if (digest !== upload.md5Hex) throw invalid('bad-digest', 'The MD5 of the body does not match Content-MD5');
      const { ino } = await fsp.stat(tmp);
      const meta: Meta = { size: received, md5: digest, ino, cacheControl: upload.cacheControl, contentType: upload.contentType };
      await writeDurably(tmpMeta, JSON.stringify(meta));
      await fsp.rename(tmpMeta, this.metaPathOf(file));
      await fsp.rename(tmp, file);
      await syncDir(dir);
      return { size: received, md5Hex: digest };
    } catch (e) {
      await out.abandon();
      await fsp.rm(tmp, { force: true }).catch(() => {});
      await fsp.rm(tmpMeta, { force: true }).catch(() => {});
      throw e;
    }
  }

  /** Verifies a GET/HEAD URL; answers the file to serve. */
  async verifyDownload(key: string, query: Record<string, string | undefined>): Promise<DownloadTarget> {
    if (!isValidKey(key)) throw SIGNATURE_INVALID();
    const name = query.name ?? '';
    const type = query.type ?? '';
    const inline = query.inline ?? '';
    await this.checkSignature(`v2\nGET\n${key}\n${query.expires}\n${name}\n${type}\n${inline}`, query);
    const file = this.pathOf(key);
    const found = await this.read(file);
    if (!found) throw new DomainError('not-found', 'blob-not-found', 'No object at this address');
    return {
      path: file,
      size: found.size,
      md5Hex: found.md5,
      cacheControl: found.cacheControl || UPLOAD_CACHE_CONTROL,
      contentType: type || 'application/octet-stream',
      inline: inline === '1',
      fileName: name || undefined,
    };
  }

  /** The object's metadata; the MD5 is recomputed (not stored) when the metadata file is stale. */
  private async read(file: string): Promise<Meta | null> {
    let st: fs.Stats;
    try {
      st = await fsp.stat(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw e;
    }
    if (!st.isFile()) return null;
    let meta: Partial<Meta> | null = null;
    try {
      meta = JSON.parse(await fsp.readFile(this.metaPathOf(file), 'utf8')) as Partial<Meta>;
    } catch {
      meta = null;
    }
    if (meta && meta.ino === st.ino && meta.size === st.size && typeof meta.md5 === 'string' && MD5_HEX.test(meta.md5)) {
      return meta as Meta;
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
    const dir = path.dirname(to);
    await fsp.mkdir(dir, { recursive: true });
    const tag = crypto.randomBytes(6).toString('hex');
    const tmp = path.join(dir, `.${path.basename(to)}.${tag}.part`);
    const tmpMeta = path.join(dir, `.${path.basename(to)}.${tag}.meta-part`);
    try {
      await fsp.copyFile(from, tmp, fs.constants.COPYFILE_FICLONE);
      const fh = await fsp.open(tmp, 'r+');
      const { ino } = await fh.stat();
      await fh.sync();
      await fh.close();
      await writeDurably(tmpMeta, JSON.stringify({ ...found, ino }));
      await fsp.rename(tmpMeta, this.metaPathOf(to));
      await fsp.rename(tmp, to);
    } catch (e) {
      await fsp.rm(tmp, { force: true }).catch(() => {});
      await fsp.rm(tmpMeta, { force: true }).catch(() => {});
      throw e;
    }
  }

  async ping(): Promise<void> {
    await fsp.access(this.root, fs.constants.W_OK);
  }

  /** Deletes every object (operator reset). */
  async deleteAll(): Promise<void> {
    const entries = await fsp.readdir(this.root).catch(() => [] as string[]);
    for (const e of entries) await fsp.rm(path.join(this.root, e), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    if (this.opts.removeRootOnClose) await fsp.rm(this.root, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * Writes an upload's chunks to its temporary file. Chunks are gathered into batches (4 MiB) written
 * with one `writev` while the next batch is received (one write in flight: the socket is
 * not read while two batches wait, so memory stays at about two batches). Every
 * `flushEvery` bytes (64 MiB) it also starts a `datasync`, so the disk writes the file back while the
 * body is still arriving and the final fsync has only the tail left: without it the whole
 * file reaches the disk only after the last byte (the kernel holds gigabytes of dirty pages
 * on a machine with memory), and an upload takes receive time plus flush time.
 */
/** What the writer needs of a file handle (a FileHandle; a recording one in tests). */
export interface WriteTarget {
  writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export class FlushingWriter {
  private readonly batchLimit: number;
  private readonly flushEvery: number;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private position = 0;
  private unflushed = 0;
  private writing: Promise<void> = Promise.resolve();
  private flushing: Promise<void> | null = null;
  private closed = false;

  private readonly fh: WriteTarget;

  constructor(fh: WriteTarget, opts: { batch?: number; flushEvery?: number } = {}) {
    this.fh = fh;
    this.batchLimit = opts.batch ?? 4 * 1024 * 1024;
    this.flushEvery = opts.flushEvery ?? 64 * 1024 * 1024;
  }

  /** Queues a chunk; waits only when a full batch must wait for the write before it. */
  async push(chunk: Buffer): Promise<void> {
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    // Also by count: a slow client's small chunks stay well under the system's iovec limit.
    if (this.batchBytes >= this.batchLimit || this.batch.length >= 256) await this.startWrite();
  }

  private async startWrite(): Promise<void> {
    await this.writing; // a failed write surfaces here (or in finish)
    const chunks = this.batch;
    const bytes = this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    this.writing = writeAllAt(this.fh, chunks, this.position);
    this.writing.catch(() => {}); // awaited later; never an unhandled rejection meanwhile
    this.position += bytes;
    this.unflushed += bytes;
    if (this.unflushed >= this.flushEvery && !this.flushing) {
      this.unflushed = 0;
      // After the write it follows: the flush then covers everything written so far.
      const flushing: Promise<void> = this.writing
        .then(() => this.fh.datasync())
        .finally(() => {
          if (this.flushing === flushing) this.flushing = null;
        });
      this.flushing = flushing;
      flushing.catch(() => {});
    }
  }

  /** Writes what is left, waits for every write and flush, fsyncs and closes. */
  async finish(): Promise<void> {
    if (this.batchBytes > 0) await this.startWrite();
    await this.writing;
    if (this.flushing) await this.flushing;
    await this.fh.sync();
    this.closed = true;
    await this.fh.close();
  }

  /** Waits for what is in flight (ignoring its failures) and closes the file. */
  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing.catch(() => {});
    await this.flushing?.catch(() => {});
    await this.fh.close().catch(() => {});
  }
}

/** `writev` until every byte is written (a regular file may take fewer bytes than asked). */
async function writeAllAt(fh: WriteTarget, chunks: Buffer[], position: number): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await fh.writev(rest, position);
    position += bytesWritten;
    let skip = bytesWritten;
    const next: Buffer[] = [];
    for (const c of rest) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      next.push(skip > 0 ? c.subarray(skip) : c);
      skip = 0;
    }
    if (next.length === rest.length && bytesWritten === 0) throw new Error('writev wrote nothing');
    rest = next;
  }
}

const invalidInputSize = () => invalid('invalid-input', 'size must be a non-negative integer');

/** Content-MD5 is the base64 of the 16-byte digest (RFC 1864); anything else answers undefined-as-mismatch. */
function base64Md5ToHex(value: string): string {
  const v = value.trim();
  if (!/^[A-Za-z0-9+/]{22}==$/.test(v)) return 'malformed';
  return Buffer.from(v, 'base64').toString('hex');
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

async function syncDir(dir: string): Promise<void> {
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
