// Uploads from disk (docs/files.md): sign → PUT the bytes to the signed URL with
// Content-MD5 → register, for several files at once (bounded), streaming (memory flat
// in the file size), with progress, cancel (AbortSignal) and resume: with a journal
// file, a batch run again after a crash skips the files already registered, registers
// the ones uploaded but not registered (registration is idempotent per blob) and
// uploads the rest. The signed URL is used as given, whatever store it points at
// (local disk, S3-type, Azure-type): the three headers of step 2 satisfy all of them.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import type { ScanbaseClient } from '../client.ts';
import { errorFromResponse, ScanbaseError } from '../errors.ts';
import { withRetry } from '../retry.ts';
import { RateMeter } from '../rate.ts';
import { JsonJournal } from './journal.ts';
import { MultipartUnsupported, Slots, uploadMultipart, type MultipartState } from './multipart.ts';

export interface UploadTarget {
  accountId: string;
  projectId: string;
  workzoneId: string;
}

export interface UploadFileSpec {
  path: string;
  /** Defaults: the file name without its last extension, and that extension (lower case). */
  name?: string;
  extension?: string;
}

export interface UploadProgress {
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
  /** The file this event is about, and what happened to it. */
  file?: string;
  event: 'hashed' | 'bytes' | 'uploaded' | 'registered' | 'skipped';
  /** That file's bytes sent (or held at the service) and size. */
  fileBytesDone?: number;
  fileBytesTotal?: number;
  /** The batch's rate over the last seconds, and the time left at that rate (undefined while unknown). */
  bytesPerSecond: number;
  etaSeconds: number | undefined;
  /** The same for the file. */
  fileBytesPerSecond?: number;
  fileEtaSeconds?: number;
}

export interface UploadOptions extends UploadTarget {
  files: (string | UploadFileSpec)[];
  /** Files in flight at once (default 4). */
  concurrency?: number;
  /** Files larger than this go multipart (default 64 MiB; docs/files.md "Multipart uploads"). */
  multipartThreshold?: number;
  /** Parts in flight at once across the batch's multipart files (default 4). */
  parallel?: number;
  /** A part size to ask the service for (it decides, within its store's limits). */
  partSize?: number;
  /** The resume journal (a JSON file); without it an interrupted batch starts over. */
  journal?: string;
  signal?: AbortSignal;
  onProgress?: (p: UploadProgress) => void;
}

export interface UploadedFile {
  path: string;
  name: string;
  extension: string;
  size: number;
  md5: string;
  blobName: string;
  /** The file's id (URN) at the service. */
  id: string;
  /** Registered by an earlier run of this batch (resume). */
  skipped: boolean;
}

interface Entry {
  name: string;
  extension: string;
  size: number;
  mtimeMs: number;
  md5: string;
  blobName?: string;
  url?: string;
  urlExpiresAt?: number;
  uploaded?: boolean;
  id?: string;
  /** A file over the threshold: its multipart upload (the MD5 is known once its hash pass ends). */
  multipart?: MultipartState;
}

interface JournalState {
  version: 1;
  target: UploadTarget;
  files: Record<string, Entry>;
}

/** A signed URL this close to its expiry is signed again rather than used. */
const URL_MARGIN_MS = 60_000;
const SIGN_BATCH = 1000;
export const DEFAULT_MULTIPART_THRESHOLD = 64 * 1024 * 1024;

export const splitName = (file: string) => {
  const base = path.basename(file);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? { name: base.slice(0, dot), extension: base.slice(dot + 1).toLowerCase() } : { name: base, extension: 'bin' };
};

/** The PUT's read buffers: reused, so a transfer makes no garbage (see putFile). */
const PUT_BUFFERS = 4;
const PUT_CHUNK = 256 * 1024;

/**
 * PUT of a file to a signed URL with node:http(s), streaming from disk with backpressure:
 * memory stays at a few chunks whatever the size. (Node's fetch keeps a streamed request
 * body in memory until the answer, 96 MiB for a 96 MiB file in the tests; node:http does not.)
 * The file is read into PUT_BUFFERS buffers used in turn, each read again only once the
 * socket has written it out (the write's callback): a stream that allocates a buffer per
 * chunk leaves garbage that V8 collects only after some 64 MiB of external memory, which
 * showed as ~64 MiB of RSS growth per upload in the bench.
 * Answers the store's answer as a Response, for the retry and error paths.
 */
export async function putFile(
  url: string, file: string, headers: Record<string, string>, onChunk: (bytes: number) => void, signal?: AbortSignal,
  range?: { start: number; length: number },
): Promise<Response> {
  const u = new URL(url);
  const req = (u.protocol === 'https:' ? https : http).request(u, { method: 'PUT', headers, signal });
  const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  const send = async () => {
    const fh = await fs.promises.open(file, 'r');
    try {
      const buffers = Array.from({ length: PUT_BUFFERS }, () => Buffer.allocUnsafe(PUT_CHUNK));
      // A write's failure is kept here and thrown by the loop (a rejected promise not yet awaited would be unhandled).
      let failure: Error | undefined;
      const flushed: Promise<void>[] = buffers.map(() => Promise.resolve());
      // A part of the file (multipart.ts) or all of it.
      let position = range?.start ?? 0;
      const end = range ? range.start + range.length : Infinity;
      for (let i = 0; ; i = (i + 1) % PUT_BUFFERS) {
        await flushed[i];
        if (failure) throw failure;
        signal?.throwIfAborted();
        const { bytesRead } = await fh.read(buffers[i]!, 0, Math.min(PUT_CHUNK, end - position), position);
        if (bytesRead === 0) break;
        position += bytesRead;
        onChunk(bytesRead);
        flushed[i] = new Promise<void>((resolve) => {
          req.write(buffers[i]!.subarray(0, bytesRead), (e) => {
            if (e) failure ??= e;
            resolve();
          });
        });
      }
      await Promise.all(flushed);
      if (failure) throw failure;
      await new Promise<void>((resolve) => req.end(resolve));
    } finally {
      await fh.close();
    }
  };
  // The store may answer (and close) before the body is all sent, e.g. a refusal: its answer wins.
  const sent = send().catch((e: unknown) => {
    throw signal?.aborted ? signal.reason : e;
  });
  const res = await Promise.race([answered, sent.then(() => answered)]);
  await sent.catch((e: unknown) => {
    if (!res.statusCode || res.statusCode < 400) throw e;
  });
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
  return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: h });
}

export async function md5OfFile(file: string, signal?: AbortSignal): Promise<string> {
  const hash = crypto.createHash('md5');
  await pipeline(fs.createReadStream(file), hash, { signal });
  return hash.digest('hex');
}

const bulkPath = (t: UploadTarget) =>
  `/api/2/accounts/${encodeURIComponent(t.accountId)}/projects/${encodeURIComponent(t.projectId)}/workzones/${encodeURIComponent(t.workzoneId)}/bulk-files`;

const sameTarget = (a: UploadTarget, b: UploadTarget) =>
  a.accountId === b.accountId && a.projectId === b.projectId && a.workzoneId === b.workzoneId;

export async function uploadFiles(client: ScanbaseClient, o: UploadOptions): Promise<UploadedFile[]> {
  const target: UploadTarget = { accountId: o.accountId, projectId: o.projectId, workzoneId: o.workzoneId };
  const journal = o.journal ? new JsonJournal<JournalState>(o.journal) : undefined;
  const prior = journal?.read();
  const state: JournalState = { version: 1, target, files: prior && sameTarget(prior.target, target) ? prior.files : {} };
  const save = () => journal?.save(() => state) ?? Promise.resolve();
  const specs = o.files.map((f) => (typeof f === 'string' ? { path: f } : f)).map((f) => ({ ...f, path: path.resolve(f.path) }));

  // 1. What each file is (a file changed since the journal was written starts over). A
  // multipart file is hashed by its upload, while its parts are sent.
  const threshold = o.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD;
  for (const spec of specs) {
    const st = await fs.promises.stat(spec.path);
    const known = state.files[spec.path];
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs && Boolean(known.multipart) === st.size > threshold) continue;
    const { name, extension } = { ...splitName(spec.path), ...(spec.name ? { name: spec.name } : {}), ...(spec.extension ? { extension: spec.extension } : {}) };
    const multipart = st.size > threshold;
    state.files[spec.path] = {
      name, extension, size: st.size, mtimeMs: st.mtimeMs,
      md5: multipart ? '' : await md5OfFile(spec.path, o.signal),
      ...(multipart ? { multipart: { partMd5s: [] } } : {}),
    };
  }
  await save();

  const progress = { bytesDone: 0, bytesTotal: 0, filesDone: 0, filesTotal: specs.length };
  const fileDone = new Map<string, number>();
  const meter = new RateMeter();
  const fileMeters = new Map<string, RateMeter>();
  const emit = (event: UploadProgress['event'], file?: string) => {
    if (!o.onProgress) return;
    const overall = meter.sample(progress.bytesDone, progress.bytesTotal);
    const p: UploadProgress = { ...progress, event, file, bytesPerSecond: overall.bytesPerSecond, etaSeconds: overall.etaSeconds };
    const e = file === undefined ? undefined : state.files[file];
    if (file !== undefined && e) {
      const done = fileDone.get(file) ?? 0;
      if (!fileMeters.has(file)) fileMeters.set(file, new RateMeter());
      const r = fileMeters.get(file)!.sample(done, e.size);
      Object.assign(p, { fileBytesDone: done, fileBytesTotal: e.size, fileBytesPerSecond: r.bytesPerSecond, fileEtaSeconds: r.etaSeconds });
    }
    o.onProgress(p);
  };
  const count = (file: string, delta: number) => {
    progress.bytesDone += delta;
    fileDone.set(file, (fileDone.get(file) ?? 0) + delta);
  };
  const slots = new Slots(Math.max(1, o.parallel ?? 4));
  for (const s of specs) progress.bytesTotal += state.files[s.path]!.size;
  // Registered by an earlier run of this batch (the journal said so before this run began).
  const skipped = new Set(specs.filter((s) => state.files[s.path]!.id).map((s) => s.path));
  for (const s of specs) {
    const e = state.files[s.path]!;
    if (e.id) {
      count(s.path, e.size);
      progress.filesDone++;
      emit('skipped', s.path);
    } else if (e.uploaded) count(s.path, e.size); // sent by an earlier run, registered below
  }

  const call = async <T>(method: 'POST' | 'PUT', items: object[]): Promise<T> => {
    const res = await client.fetch(bulkPath(target), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(items), signal: o.signal });
    return (await res.json()) as T;
  };
  const item = (e: Entry) => ({ name: e.name, extension: e.extension, size: e.size, md5: e.md5 });

  const signAll = async (paths: string[]) => {
    for (let i = 0; i < paths.length; i += SIGN_BATCH) {
      const chunk = paths.slice(i, i + SIGN_BATCH);
      const signed = await call<{ expiresIn: number; files: { url: string; blobName: string }[] }>('POST', chunk.map((p) => item(state.files[p]!)));
      const expires = Date.now() + signed.expiresIn * 1000;
      chunk.forEach((p, k) => {
        const e = state.files[p]!;
        Object.assign(e, { url: signed.files[k]!.url, blobName: signed.files[k]!.blobName, urlExpiresAt: expires, uploaded: false });
      });
    }
    await save();
  };

  // 2. Sign what has no usable URL (neither uploaded nor a URL good for a while).
  const usable = (e: Entry) => e.uploaded || (e.url && (e.urlExpiresAt ?? 0) - URL_MARGIN_MS > Date.now());
  await signAll(specs.map((s) => s.path).filter((p) => !state.files[p]!.id && !state.files[p]!.multipart && !usable(state.files[p]!)));

  const put = async (file: string, e: Entry) => {
    let sent = 0;
    const res = await withRetry('PUT', e.url!, () => {
      count(file, -sent);
      sent = 0;
      const headers = {
        'content-length': String(e.size),
        'content-md5': Buffer.from(e.md5, 'hex').toString('base64'),
        'content-type': 'application/octet-stream',
        'cache-control': 'max-age=2592000',
        'x-ms-blob-type': 'BlockBlob',
      };
      return putFile(e.url!, file, headers, (n) => {
        sent += n;
        count(file, n);
        emit('bytes', file);
      }, o.signal);
    }, client.retry, o.signal);
    if (!res.ok) throw await errorFromResponse(res, 'PUT');
    await res.body?.cancel();
  };

  const register = async (e: Entry) => {
    const [registered] = await call<{ id: string }[]>('PUT', [{ ...item(e), blobName: e.blobName }]);
    return registered!.id;
  };

  const large = async (file: string, e: Entry) => {
    const out = await uploadMultipart(client, {
      target, file: { path: file, name: e.name, extension: e.extension, size: e.size }, state: e.multipart!, save, slots,
      partSize: o.partSize, signal: o.signal,
      onBytes: (delta) => {
        count(file, delta);
        emit('bytes', file);
      },
    });
    Object.assign(e, { id: out.id, blobName: out.blobName, md5: out.md5, uploaded: true });
  };

  const one = async (file: string) => {
    const e = state.files[file]!;
    if (e.id) return;
    if (e.multipart) {
      try {
        await large(file, e);
        await save();
        progress.filesDone++;
        emit('registered', file);
        return;
      } catch (err) {
        if (!(err instanceof MultipartUnsupported)) throw err;
        // No extension at this service: the file goes whole (one PUT, as below).
        delete e.multipart;
        e.md5 = await md5OfFile(file, o.signal);
        await save();
      }
    }
    for (let round = 1; ; round++) {
      if (!usable(e)) await signAll([file]);
      if (!e.uploaded) {
        await put(file, e);
        e.uploaded = true;
        await save();
        emit('uploaded', file);
      }
      try {
        e.id = await register(e);
        break;
      } catch (err) {
        // The pending upload expired or was swept before this (resumed) registration: upload again.
        const gone = err instanceof ScanbaseError && ['upload-expired', 'unknown-blob-name', 'blob-not-uploaded'].includes(err.errorCode);
        if (!gone || round > 1) throw err;
        Object.assign(e, { uploaded: false, url: undefined, blobName: undefined, urlExpiresAt: undefined });
        count(file, -e.size);
      }
    }
    await save();
    progress.filesDone++;
    emit('registered', file);
  };

  // 3. Upload and register, `concurrency` files at a time.
  const queue = specs.map((s) => s.path).filter((p) => !state.files[p]!.id);
  const workers = Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 4, queue.length)) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      o.signal?.throwIfAborted();
      await one(next);
    }
  });
  const results = await Promise.allSettled(workers);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;

  return specs.map((s) => {
    const e = state.files[s.path]!;
    return { path: s.path, name: e.name, extension: e.extension, size: e.size, md5: e.md5, blobName: e.blobName!, id: e.id!, skipped: skipped.has(s.path) };
  });
}
