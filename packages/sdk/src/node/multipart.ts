// Multipart upload of one large file (docs/files.md "Multipart uploads", the API 2
// extension): start an upload of N bytes (the service answers the part size), hash the file
// once in order (each part's MD5, and the whole file's unless the store computes it), sign part URLs in pages as parts
// are hashed, PUT up to `parallel` parts at once straight to the store, then complete with
// the whole MD5 and the composite (MD5 of the parts' MD5s). Memory stays flat: a part is
// streamed from its range of the file. With a journal entry (`state`, saved by `save`) a
// run killed at any point resumes: it asks the service which parts it holds and sends only
// the others (at most the parts that were in flight when it stopped).
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { ScanbaseClient } from '../client.ts';
import { errorFromResponse, ScanbaseError } from '../errors.ts';
import { withRetry } from '../retry.ts';
import { putFile } from './upload.ts';

export interface MultipartTarget {
  accountId: string;
  projectId: string;
  workzoneId: string;
}

/** What the journal keeps of a multipart upload (small: the part MD5s are 33 bytes each). */
export interface MultipartState {
  id?: string;
  blobName?: string;
  partSize?: number;
  partCount?: number;
  /** The MD5 of each part hashed so far, in order (hex). */
  partMd5s: string[];
  /** The whole file's MD5 once the hash pass has read it all (not hashed where the store computes it: `storeHashesWhole`). */
  md5?: string;
  /**
   * The store computes the whole file's MD5 from the bytes (provider `local`, docs/files.md):
   * the client hashes each part only, one MD5 pass instead of two, and takes the whole MD5
   * from the completion's answer (every part is verified against its MD5, and the composite
   * ties the parts to this file).
   */
  storeHashesWhole?: boolean;
}

export interface MultipartFile {
  path: string;
  name: string;
  extension: string;
  size: number;
}

export interface MultipartOptions {
  target: MultipartTarget;
  file: MultipartFile;
  state: MultipartState;
  /** Writes the journal (the state is saved as it is when called). */
  save: () => Promise<void>;
  /** Parts in flight at once: a limiter shared by every file of a batch. */
  slots: Slots;
  /** A part size to ask for (the service decides). */
  partSize?: number;
  signal?: AbortSignal;
  /** Bytes sent (negative: a failed attempt's bytes taken back), and bytes already held at the service when resuming. */
  onBytes: (delta: number) => void;
}

export interface MultipartResult {
  id: string;
  blobName: string;
  md5: string;
  /** Parts found at the service when the run started (a resume), and parts sent by this run. */
  partsHeld: number;
  partsSent: number;
}

/** The service answered the start of a multipart upload with 404 or 405: it has no such extension. */
export class MultipartUnsupported extends Error {
  override readonly name = 'MultipartUnsupported';
  constructor(cause: ScanbaseError) {
    super('The service does not offer multipart uploads', { cause });
  }
}

/** A counting semaphore: at most `size` holders at once. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    signal?.throwIfAborted();
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

const uploadsPath = (t: MultipartTarget) =>
  `/api/2/accounts/${encodeURIComponent(t.accountId)}/projects/${encodeURIComponent(t.projectId)}/workzones/${encodeURIComponent(t.workzoneId)}/multipart-uploads`;

const filesPath = (t: MultipartTarget) =>
  `/api/2/accounts/${encodeURIComponent(t.accountId)}/projects/${encodeURIComponent(t.projectId)}/files`;

/** Part URLs asked for at once (the service signs at most 1000 per call). */
const SIGN_PAGE = 100;
/** A signed URL this close to its expiry is signed again rather than used. */
const URL_MARGIN_MS = 60_000;
/** How far (in parts) the hash pass may run ahead of the parts being sent: they are then read back from the page cache. */
const HASH_LEAD = 64;
const HASH_CHUNK = 1024 * 1024;

interface SignedPart {
  partNumber: number;
  size: number;
  url: string;
  headers: Record<string, string>;
  expiresAt: number;
}

/** A waitable signal: `wait()` resolves at the next `wake()`. */
class Wakeup {
  private waiters: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

export async function uploadMultipart(client: ScanbaseClient, o: MultipartOptions): Promise<MultipartResult> {
  const { state, file, signal } = o;
  const base = uploadsPath(o.target);
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await client.fetch(path, {
      method, signal, headers: body === undefined ? undefined : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (res.status === 204 ? undefined : await res.json()) as T;
  };

  // 1. The upload: a known one and the parts it holds, else a new one.
  let held = new Map<number, string>();
  if (state.id) {
    try {
      held = await listHeld(json, `${base}/${encodeURIComponent(state.id)}/parts`);
    } catch (e) {
      const lost = e instanceof ScanbaseError && ['upload-not-found', 'upload-expired'].includes(e.errorCode);
      if (!lost) throw e;
      Object.assign(state, { id: undefined, blobName: undefined, partSize: undefined, partCount: undefined, partMd5s: [], md5: undefined });
    }
  }
  if (!state.id) {
    let created: { id: string; blobName: string; partSize: number; partCount: number; provider: string };
    try {
      created = await json('POST', base, { name: file.name, extension: file.extension, size: file.size, ...(o.partSize ? { partSize: o.partSize } : {}) });
    } catch (e) {
      // A service without the extension (the vendor's, or one before it): the caller sends the file whole.
      if (e instanceof ScanbaseError && (e.status === 404 || e.status === 405)) throw new MultipartUnsupported(e);
      throw e;
    }
    if (created.partSize !== state.partSize) state.partMd5s = []; // hashed for another part size
    Object.assign(state, {
      id: created.id, blobName: created.blobName, partSize: created.partSize, partCount: created.partCount, storeHashesWhole: created.provider === 'local',
    });
    await o.save();
  }
  const id = state.id!;
  const partSize = state.partSize!;
  const partCount = state.partCount!;
  const sizeOf = (n: number) => Math.min(partSize, file.size - (n - 1) * partSize);
  // A held part with another MD5 than this file's (hashed again since) is sent again.
  for (const [n, md5] of held) if (state.partMd5s[n - 1] !== undefined && state.partMd5s[n - 1] !== md5) held.delete(n);
  let heldBytes = 0;
  for (const n of held.keys()) heldBytes += sizeOf(n);
  o.onBytes(heldBytes);

  // 2. The hash pass (skipped when the journal has every MD5), in order, at most HASH_LEAD parts ahead.
  const wake = new Wakeup();
  let lowestUnsent = 1;
  let failure: unknown;
  const hashDone = state.partMd5s.length === partCount && (state.md5 !== undefined || state.storeHashesWhole === true);
  const hashed = () => (hashDone ? partCount : state.partMd5s.length);
  const hashing = hashDone ? Promise.resolve() : hashFile(file, state, partSize, partCount, signal, async () => {
    wake.wake();
    if (state.partMd5s.length % 16 === 0) await o.save();
    while (!failure && state.partMd5s.length - lowestUnsent >= HASH_LEAD) await wake.wait();
    if (failure) throw failure; // a part failed: the batch stops, no need to read on
  }).then(async () => {
    await o.save();
    wake.wake();
  }, (e: unknown) => {
    failure ??= e;
    wake.wake();
  });

  // 3. The parts to send, in order; URLs signed in pages of hashed parts.
  const queue = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !held.has(n));
  const signed = new Map<number, SignedPart>();
  let signing: Promise<void> | null = null;
  const signFrom = async (from: number) => {
    const page = queue.filter((n) => n >= from && n <= hashed() && !signed.has(n)).slice(0, SIGN_PAGE);
    if (!page.includes(from)) page.unshift(from);
    const answer = await json<{ parts: Omit<SignedPart, 'expiresAt'>[]; expiresIn: number }>('POST', `${base}/${encodeURIComponent(id)}/part-urls`, {
      parts: page.map((n) => ({ partNumber: n, md5: state.partMd5s[n - 1] })),
    });
    const expiresAt = Date.now() + answer.expiresIn * 1000;
    for (const p of answer.parts) signed.set(p.partNumber, { ...p, expiresAt });
  };
  const urlOf = async (n: number): Promise<SignedPart> => {
    for (;;) {
      const s = signed.get(n);
      if (s && s.expiresAt - URL_MARGIN_MS > Date.now()) return s;
      signed.delete(n);
      if (!signing) signing = signFrom(n).finally(() => (signing = null));
      await signing;
    }
  };
  const inFlight = new Set<number>();
  let sent = 0;
  const send = async (n: number) => {
    const part = await urlOf(n);
    let bytes = 0;
    const res = await withRetry('PUT', part.url, () => {
      o.onBytes(-bytes);
      bytes = 0;
      return putFile(part.url, file.path, { ...part.headers, 'content-length': String(part.size) }, (k) => {
        bytes += k;
        o.onBytes(k);
      }, signal, { start: (n - 1) * partSize, length: part.size });
    }, client.retry, signal);
    if (!res.ok) throw await errorFromResponse(res, 'PUT');
    await res.body?.cancel();
    signed.delete(n);
    sent++;
  };
  const workers: Promise<void>[] = [];
  let started = 0;
  /** The lowest part not sent yet: the hash pass keeps within HASH_LEAD parts of it. */
  const moved = () => {
    lowestUnsent = Math.min(...inFlight, queue[started] ?? partCount + 1);
    wake.wake();
  };
  moved();
  try {
    for (const n of queue) {
      while (!failure && hashed() < n) await wake.wait();
      if (failure) throw failure;
      await o.slots.take(signal);
      inFlight.add(n);
      started++;
      moved();
      const w = send(n).finally(() => {
        inFlight.delete(n);
        o.slots.give();
        moved();
      });
      workers.push(w.catch((e: unknown) => {
        failure ??= e;
        wake.wake();
      }));
      if (failure) break;
    }
    await Promise.all(workers);
    await hashing;
    if (failure) throw failure;
  } catch (e) {
    failure ??= e;
    wake.wake();
    await Promise.allSettled([...workers, hashing]);
    throw failure;
  }

  // 4. Complete (a completion whose answer was lost answers 409 with the file). Without the
  // whole MD5 (the store computes it) the file's MD5 is the answer's.
  const completion = { ...(state.md5 === undefined ? {} : { md5: state.md5 }), partsMd5: compositeOf(state.partMd5s) };
  try {
    const done = await json<{ id: string; blobName: string; md5: string }>('POST', `${base}/${encodeURIComponent(id)}/complete`, completion);
    return { id: done.id, blobName: done.blobName, md5: state.md5 ?? done.md5, partsHeld: held.size, partsSent: sent };
  } catch (e) {
    if (e instanceof ScanbaseError && e.errorCode === 'upload-already-completed' && typeof e.errorValues.fileId === 'string') {
      const fileId = e.errorValues.fileId;
      const md5 = state.md5 ?? (await json<{ md5: string }>('GET', `${filesPath(o.target)}/${encodeURIComponent(fileId)}`)).md5;
      return { id: fileId, blobName: state.blobName!, md5, partsHeld: held.size, partsSent: sent };
    }
    throw e;
  }
}

/** Every part the service holds (all pages): part number → MD5. */
async function listHeld(json: <T>(method: string, path: string) => Promise<T>, path: string): Promise<Map<number, string>> {
  const held = new Map<number, string>();
  let after = 0;
  for (;;) {
    const page = await json<{ parts: { partNumber: number; md5: string | null }[]; next: number | null }>('GET', `${path}?after=${after}`);
    for (const p of page.parts) if (p.md5) held.set(p.partNumber, p.md5);
    if (page.next === null || page.next === undefined) return held;
    after = page.next;
  }
}

/** The composite the service checks: MD5 of the parts' binary MD5s, in order. */
export function compositeOf(partMd5s: readonly string[]): string {
  const h = crypto.createHash('md5');
  for (const m of partMd5s) h.update(Buffer.from(m, 'hex'));
  return h.digest('hex');
}

/**
 * One pass over the file: each part's MD5 (appended to state.partMd5s) and the whole file's
 * (state.md5) unless the store computes it (state.storeHashesWhole), reading into one reused
 * buffer. Parts already in the journal are read again for the whole MD5 only (an MD5's state
 * cannot be saved half way), and not at all when there is no whole MD5 to make.
 */
async function hashFile(
  file: MultipartFile, state: MultipartState, partSize: number, partCount: number, signal: AbortSignal | undefined, onPart: () => Promise<void>,
): Promise<void> {
  const whole = state.storeHashesWhole ? null : crypto.createHash('md5');
  const buf = Buffer.allocUnsafe(HASH_CHUNK);
  const fh = await fs.promises.open(file.path, 'r');
  try {
    for (let n = 1; n <= partCount; n++) {
      const known = state.partMd5s[n - 1] !== undefined;
      if (known && !whole) continue;
      const part = known ? null : crypto.createHash('md5');
      const start = (n - 1) * partSize;
      const size = Math.min(partSize, file.size - start);
      for (let done = 0; done < size;) {
        signal?.throwIfAborted();
        const { bytesRead } = await fh.read(buf, 0, Math.min(HASH_CHUNK, size - done), start + done);
        if (bytesRead === 0) throw new Error(`${file.path} is shorter than ${file.size} bytes (changed while uploading?)`);
        const chunk = buf.subarray(0, bytesRead);
        whole?.update(chunk);
        part?.update(chunk);
        done += bytesRead;
      }
      if (part) {
        state.partMd5s[n - 1] = part.digest('hex');
        await onPart();
      }
    }
  } finally {
    await fh.close();
  }
  if (whole) state.md5 = whole.digest('hex');
}
