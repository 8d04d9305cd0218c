// Downloads to disk with progress and resume: the blob's link answers 302 to a signed
// URL; the bytes go to `<dest>.part`, and a run after an interruption (or a connection
// lost half way) asks for the rest with `Range: bytes=<have>-` and `If-Range: <ETag>`
// (an object that changed meanwhile comes whole, with 200, and the part starts over).
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ScanbaseClient } from '../client.ts';
import { errorFromResponse, ScanbaseError } from '../errors.ts';
import { isConnectionFailure, withRetry } from '../retry.ts';
import { md5OfFile } from './upload.ts';

export interface DownloadOptions {
  accountId: string;
  projectId: string;
  blobName: string;
  dest: string;
  /** When given, the finished file's MD5 (hex) is checked. */
  md5?: string;
  signal?: AbortSignal;
  onProgress?: (p: { bytesDone: number; bytesTotal: number | undefined }) => void;
  /** Ranges asked for after lost connections before giving up (default 5). */
  resumes?: number;
}

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';
/** A file's size; 0 when there is none. */
const size = (f: string) => fs.promises.stat(f).then((s) => s.size, (e) => (missing(e) ? 0 : Promise.reject(e)));
const readIfExists = (f: string) => fs.promises.readFile(f, 'utf8').catch((e) => (missing(e) ? undefined : Promise.reject(e)));

/** The signed download URL of a blob (GET …/blobs/{blobName}, 302). */
export async function signedBlobUrl(client: ScanbaseClient, o: Pick<DownloadOptions, 'accountId' | 'projectId' | 'blobName' | 'signal'>): Promise<string> {
  const path = `/api/2/accounts/${encodeURIComponent(o.accountId)}/projects/${encodeURIComponent(o.projectId)}/blobs/${encodeURIComponent(o.blobName)}`;
  const res = await client.fetch(path, { redirect: 'manual', signal: o.signal });
  await res.body?.cancel();
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`GET ${path}: expected 302 with Location, got ${res.status}`);
  return new URL(location, client.baseUrl).href;
}

/**
 * A download whose answers were cut more times than it resumes (`download-interrupted`,
 * status 0): how often, how far it got, and where the bytes received are kept for the next call.
 */
export function downloadInterrupted(d: { dest: string; kept: string; url: string; cuts: number; bytesKept: number; bytesTotal: number | undefined; cause: unknown }): ScanbaseError {
  return new ScanbaseError({
    status: 0, errorCode: 'download-interrupted', surface: 'network', method: 'GET', url: d.url, cause: d.cause,
    errorValues: { bytesKept: d.bytesKept, bytesTotal: d.bytesTotal ?? null, cuts: d.cuts },
    message: `${d.dest}: the answer was cut ${d.cuts} times, the last after ${d.bytesKept}${d.bytesTotal ? ` of ${d.bytesTotal}` : ''} bytes `
      + `(${d.cause instanceof Error ? d.cause.message : String(d.cause)}); the bytes received are kept in ${d.kept}: the same download resumes from there`,
  });
}

export async function downloadFile(client: ScanbaseClient, o: DownloadOptions): Promise<{ bytes: number; resumedFrom: number }> {
  const part = `${o.dest}.part`;
  const etagFile = `${o.dest}.part.etag`;
  const url = await signedBlobUrl(client, o);
  const resumedFrom = await size(part);
  for (let resume = 0; ; resume++) {
    const have = await size(part);
    const etag = await readIfExists(etagFile);
    const headers: Record<string, string> = {};
    if (have > 0) {
      headers.range = `bytes=${have}-`;
      if (etag) headers['if-range'] = etag;
    }
    const res = await withRetry('GET', url, () => client.rawFetch(url, { headers, signal: o.signal }), client.retry, o.signal);
    if (res.status === 416 && have > 0) {
      // Nothing left to send: the part is already whole (checked below) or bigger than the object.
      await res.body?.cancel();
      break;
    }
    if (res.status !== 200 && res.status !== 206) throw await errorFromResponse(res, 'GET');
    const append = res.status === 206;
    const newEtag = res.headers.get('etag');
    if (newEtag) await fs.promises.writeFile(etagFile, newEtag);
    const total = append
      ? Number(res.headers.get('content-range')?.split('/')[1]) || undefined
      : Number(res.headers.get('content-length')) || undefined;
    let done = append ? have : 0;
    const counter = new Transform({
      transform(chunk: Buffer, _e, cb) {
        done += chunk.length;
        o.onProgress?.({ bytesDone: done, bytesTotal: total });
        cb(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), counter, fs.createWriteStream(part, { flags: append ? 'a' : 'w' }), { signal: o.signal });
      break;
    } catch (e) {
      if (!isConnectionFailure(e)) throw e;
      // Cut once more than it may resume: the bytes received stay in the .part for the next call.
      if (resume >= (o.resumes ?? 5)) throw downloadInterrupted({ dest: o.dest, kept: part, url, cuts: resume + 1, bytesKept: await size(part), bytesTotal: total, cause: e });
    }
  }
  if (o.md5 && (await md5OfFile(part, o.signal)) !== o.md5.toLowerCase()) {
    await fs.promises.rm(part, { force: true });
    throw new ScanbaseError({ status: 0, errorCode: 'md5-mismatch', message: `${o.dest}: the downloaded bytes do not have the expected MD5`, surface: 'http', method: 'GET', url });
  }
  const bytes = await size(part);
  await fs.promises.rename(part, o.dest);
  await fs.promises.rm(etagFile, { force: true });
  return { bytes, resumedFrom };
}
