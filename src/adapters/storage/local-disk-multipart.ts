// Multipart uploads of the local-disk store (docs/storage.md "Multipart uploads"). An upload
// is a directory `{root}/.multipart/{id}/` (never a key: keys never start with "."):
//   upload.json  the plan (key, size, part size, the service's content type)
//   data         the file being built: each part is written at its offset (part-1)*partSize,
//                so completion moves no byte: the file is renamed into place
//   parts.log    one line per event, appended and fdatasynced: "n size md5" once a part's
//                bytes are durable and verified, "n -" before a part is written again
// A part's PUT comes through the service's signed /_blobs URL (src/modules/files/http/blobs.ts) and is
// checked like a whole upload (signature over key, upload, part number, size and MD5;
// Content-Length, Content-MD5, the body's digest). A part is written by one request at a
// time (409 `upload-busy` otherwise). The whole file's MD5 is computed by an in-order
// hasher that follows the parts as they land (reading each part once, from the page cache,
// in part order), so completion only hashes what is left; after a restart it starts over.
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '../../core/errors.ts';
import {
  LOCAL_MULTIPART_LIMITS, checkComposite, checkHeldParts, checkPlan, partCountOf, partRange, partsMd5Hex,
} from '../../core/ports/multipart-plan.ts';
import type {
  CompleteMultipartInput, CompletedMultipart, CreateMultipartInput, MultipartUpload, SignedPart, SignPartsInput, StoredPart,
} from '../../core/ports/object-store.ts';
import { FlushingWriter } from './flushing-writer.ts';
import { type DiskObjects, syncDir, unlessMissing, writeVerifiedBody } from './local-disk-objects.ts';
import { UPLOAD_CACHE_CONTROL, UPLOAD_ID, type SignedBlobUrls, type VerifiedPart } from './local-disk-urls.ts';

interface Plan {
  key: string;
  size: number;
  partSize: number;
  contentType?: string;
}

interface Held {
  size: number;
  md5: string;
}

/** The in-order whole-file hasher of one upload: `offset` bytes (parts 1..next-1) hashed so far. */
interface Cursor {
  hash: crypto.Hash;
  next: number;
  offset: number;
  running: Promise<void> | null;
  /** A read that failed in the background: completion hashes again from the start. */
  failure: unknown;
}

interface Open {
  dir: string;
  plan: Plan;
  held: Map<number, Held>;
  /** Parts being written, and a completion or abort under way. */
  busy: Set<number>;
  closing: boolean;
  cursor: Cursor;
}

const busy = (message: string) => new DomainError('conflict', 'upload-busy', message);
const notFound = () => new DomainError('not-found', 'upload-not-found', 'No such multipart upload (never started, aborted, or completed)');
const READ_CHUNK = 1024 * 1024;

export class DiskMultipart {
  readonly area: string;
  private readonly open = new Map<string, Promise<Open>>();
  private readonly objects: DiskObjects;
  private readonly urls: SignedBlobUrls;

  constructor(objects: DiskObjects, urls: SignedBlobUrls) {
    this.objects = objects;
    this.urls = urls;
    this.area = path.join(objects.root, '.multipart');
  }

  private dirOf(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw notFound();
    return path.join(this.area, uploadId);
  }

  async create(input: CreateMultipartInput): Promise<MultipartUpload> {
    this.objects.pathOf(input.key); // a key that is not ours is refused before anything is written
    checkPlan(input, LOCAL_MULTIPART_LIMITS);
    await this.objects.init();
    const uploadId = crypto.randomBytes(16).toString('hex');
    const dir = this.dirOf(uploadId);
    await fsp.mkdir(dir, { recursive: true });
    const plan: Plan = { key: input.key, size: input.size, partSize: input.partSize, contentType: input.contentType };
    const fh = await fsp.open(path.join(dir, 'data'), 'wx', 0o640);
    await fh.close();
    await fsp.writeFile(path.join(dir, 'parts.log'), '', { flag: 'wx', mode: 0o640 });
    const tmp = path.join(dir, 'upload.json.tmp');
    await fsp.writeFile(tmp, JSON.stringify(plan), { flag: 'wx', mode: 0o640 });
    await fsp.rename(tmp, path.join(dir, 'upload.json'));
    await syncDir(dir);
    return { key: input.key, uploadId, size: input.size, partSize: input.partSize };
  }

  /** The upload's state: loaded once from its directory (the plan, then the log replayed). */
  private async state(upload: Pick<MultipartUpload, 'uploadId'>): Promise<Open> {
    const id = upload.uploadId;
    let found = this.open.get(id);
    if (!found) {
      found = this.load(id);
      this.open.set(id, found);
      found.then(undefined, () => this.open.delete(id)); // a failed load is not kept (its caller gets the failure)
    }
    const s = await found;
    // Removed behind this instance's back (an abort by another instance on the same root).
    if (!(await unlessMissing(fsp.stat(path.join(s.dir, 'upload.json'))))) {
      this.open.delete(id);
      throw notFound();
    }
    return s;
  }

  private async load(uploadId: string): Promise<Open> {
    const dir = this.dirOf(uploadId);
    const planText = await unlessMissing(fsp.readFile(path.join(dir, 'upload.json'), 'utf8'));
    const log = await unlessMissing(fsp.readFile(path.join(dir, 'parts.log'), 'utf8'));
    if (planText === null || log === null) throw notFound();
    const held = new Map<number, Held>();
    for (const line of log.split('\n')) {
      const [n, size, md5] = line.split(' ');
      if (!n) continue;
      if (size === '-' || size === undefined || md5 === undefined) held.delete(Number(n));
      else held.set(Number(n), { size: Number(size), md5 });
    }
    const cursor: Cursor = { hash: crypto.createHash('md5'), next: 1, offset: 0, running: null, failure: undefined };
    return { dir, plan: JSON.parse(planText) as Plan, held, busy: new Set(), closing: false, cursor };
  }

  /** The upload named by a caller: it must be this key's, with this plan. */
  private async stateOf(upload: MultipartUpload): Promise<Open> {
    const s = await this.state(upload);
    if (s.plan.key !== upload.key || s.plan.size !== upload.size || s.plan.partSize !== upload.partSize) throw notFound();
    return s;
  }

  async signParts(input: SignPartsInput, now: Date): Promise<SignedPart[]> {
    await this.stateOf(input.upload);
    const out: SignedPart[] = [];
    for (const p of input.parts) {
      const { size } = partRange(input.upload, p.partNumber);
      const signed = await this.urls.signPart(
        { key: input.upload.key, uploadId: input.upload.uploadId, partNumber: p.partNumber, size, md5Hex: p.md5Hex, expiresInSeconds: input.expiresInSeconds },
        now,
      );
      out.push({ partNumber: p.partNumber, size, ...signed });
    }
    return out;
  }

  async listParts(upload: MultipartUpload): Promise<StoredPart[]> {
    const s = await this.stateOf(upload);
    return [...s.held.entries()].sort(([a], [b]) => a - b).map(([partNumber, h]) => ({ partNumber, size: h.size, md5Hex: h.md5 }));
  }

  /** Writes a verified part at its offset; answers its MD5. */
  async receivePart(part: VerifiedPart, body: Readable): Promise<{ size: number; md5Hex: string }> {
    const s = await this.state(part);
    if (s.plan.key !== part.key) throw notFound();
    const range = partRange(s.plan, part.partNumber);
    if (range.size !== part.size) {
      throw new DomainError('invalid', 'part-mismatch', `Part ${part.partNumber} has ${range.size} bytes`, { partNumber: part.partNumber, expectedSize: range.size });
    }
    if (s.closing) throw busy('The upload is being completed or aborted');
    if (s.busy.has(part.partNumber)) throw busy(`Part ${part.partNumber} is being written by another request`);
    s.busy.add(part.partNumber);
    try {
      if (s.held.delete(part.partNumber)) {
        // Written again: not listed (nor hashed) until the new bytes are durable.
        await this.log(s, `${part.partNumber} -`);
        if (part.partNumber < s.cursor.next) await this.resetCursor(s);
      }
      const fh = await unlessMissing(fsp.open(path.join(s.dir, 'data'), 'r+'));
      if (!fh) throw notFound(); // aborted meanwhile
      const out = new FlushingWriter(fh, { position: range.offset });
      let md5: string;
      try {
        md5 = await writeVerifiedBody(body, out, part);
      } catch (e) {
        await out.abandon();
        throw e;
      }
      await this.log(s, `${part.partNumber} ${part.size} ${md5}`);
      s.held.set(part.partNumber, { size: part.size, md5 });
      this.advance(s);
      return { size: part.size, md5Hex: md5 };
    } finally {
      s.busy.delete(part.partNumber);
    }
  }

  private async log(s: Open, line: string): Promise<void> {
    const fh = await unlessMissing(fsp.open(path.join(s.dir, 'parts.log'), 'a'));
    if (!fh) throw notFound(); // aborted meanwhile
    try {
      await fh.appendFile(`${line}\n`);
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  /**
   * Hashes the parts that follow the cursor and are held, in order, in the background. A
   * failure is kept on the cursor (completion starts the hash over, and reports a second one).
   */
  private advance(s: Open): void {
    const c = s.cursor;
    if (c.running || c.failure !== undefined) return;
    c.running = this.hashForward(s).then(
      () => {
        c.running = null;
      },
      (e: unknown) => {
        c.failure = e;
        c.running = null;
      },
    );
  }

  private async hashForward(s: Open): Promise<void> {
    const c = s.cursor;
    const count = partCountOf(s.plan);
    let fh: fsp.FileHandle | null = null;
    try {
      const buf = Buffer.allocUnsafe(READ_CHUNK);
      while (c.next <= count && s.held.has(c.next) && !s.busy.has(c.next)) {
        fh ??= await fsp.open(path.join(s.dir, 'data'), 'r');
        const { offset, size } = partRange(s.plan, c.next);
        for (let done = 0; done < size;) {
          const { bytesRead } = await fh.read(buf, 0, Math.min(READ_CHUNK, size - done), offset + done);
          if (bytesRead === 0) throw new Error(`part ${c.next} is shorter on disk than recorded`);
          c.hash.update(buf.subarray(0, bytesRead));
          done += bytesRead;
        }
        c.offset = offset + size;
        c.next++;
      }
    } finally {
      await fh?.close();
    }
  }

  private async resetCursor(s: Open): Promise<void> {
    await s.cursor.running; // never rejects (advance keeps the failure)
    s.cursor = { hash: crypto.createHash('md5'), next: 1, offset: 0, running: null, failure: undefined };
  }

  async complete(input: CompleteMultipartInput): Promise<CompletedMultipart> {
    const { upload } = input;
    let s: Open;
    try {
      s = await this.stateOf(upload);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'upload-not-found') await this.refuseIfCompleted(upload);
      throw e;
    }
    if (s.closing || s.busy.size > 0) throw busy('Parts are still being written, or the upload is being completed');
    s.closing = true;
    try {
      const parts = checkHeldParts(upload, [...s.held.entries()].map(([partNumber, h]) => ({ partNumber, size: h.size, md5Hex: h.md5 })));
      const composite = partsMd5Hex(parts.map((p) => p.md5Hex!));
      checkComposite(input.partsMd5Hex, composite);
      // The whole file's MD5: what the cursor has not hashed yet, now.
      await s.cursor.running;
      if (s.cursor.failure !== undefined) await this.resetCursor(s);
      await this.hashForward(s);
      const md5 = s.cursor.hash.copy().digest('hex');
      // Absent: the client left the whole MD5 to the store (each part verified against its own MD5 and the composite).
      if (input.md5Hex !== undefined && md5 !== input.md5Hex.toLowerCase()) {
        throw new DomainError('invalid', 'multipart-checksum-mismatch', 'The assembled file does not have the MD5 sent', { md5 });
      }
      const data = path.join(s.dir, 'data');
      const file = this.objects.pathOf(upload.key);
      const { dir, tmpMeta } = this.objects.temporaryPaths(file);
      await fsp.mkdir(dir, { recursive: true });
      const fh = await fsp.open(data, 'r+');
      let ino: number;
      try {
        // A part written past the end by a plan mix-up cannot happen (sizes are checked), but the size is made exact.
        await fh.truncate(upload.size);
        await fh.sync();
        ino = (await fh.stat()).ino;
      } finally {
        await fh.close();
      }
      await this.objects.publish(file, data, tmpMeta, {
        size: upload.size, md5, ino, cacheControl: UPLOAD_CACHE_CONTROL, contentType: s.plan.contentType, uploadId: upload.uploadId, partsMd5: composite,
      });
      await syncDir(dir);
      await fsp.rm(s.dir, { recursive: true, force: true });
      this.open.delete(upload.uploadId);
      return { size: upload.size, partCount: parts.length, partsMd5Hex: composite, md5Hex: md5 };
    } finally {
      s.closing = false;
    }
  }

  /** 409 `upload-already-completed` when the object at the key came from this upload. */
  private async refuseIfCompleted(upload: MultipartUpload): Promise<void> {
    const meta = await this.objects.read(this.objects.pathOf(upload.key));
    if (meta?.uploadId === upload.uploadId) {
      throw new DomainError('conflict', 'upload-already-completed', 'This upload was completed already', { partsMd5: meta.partsMd5 });
    }
  }

  async abort(upload: Pick<MultipartUpload, 'key' | 'uploadId'>): Promise<void> {
    if (!UPLOAD_ID.test(upload.uploadId)) return;
    const dir = this.dirOf(upload.uploadId);
    const plan = await unlessMissing(fsp.readFile(path.join(dir, 'upload.json'), 'utf8'));
    if (plan !== null && (JSON.parse(plan) as Plan).key !== upload.key) return; // another key's upload: not this caller's
    this.open.delete(upload.uploadId);
    await fsp.rm(dir, { recursive: true, force: true });
  }

  /**
   * The safety net beside the service's sweeper (which aborts by id): upload directories
   * whose log nobody has written for `idleMs` (7 days by default, Azure's expiry of
   * uncommitted blocks) are removed. Wall-clock time (file times are the system's).
   */
  async sweepIdle(idleMs = 7 * 24 * 3600_000): Promise<string[]> {
    const removed: string[] = [];
    const entries = (await unlessMissing(fsp.readdir(this.area))) ?? [];
    for (const id of entries) {
      if (!UPLOAD_ID.test(id)) continue;
      const st = await unlessMissing(fsp.stat(path.join(this.area, id, 'parts.log')));
      const since = st ? st.mtimeMs : 0;
      if (Date.now() - since < idleMs) continue;
      this.open.delete(id);
      await fsp.rm(path.join(this.area, id), { recursive: true, force: true });
      removed.push(id);
    }
    return removed;
  }
}
