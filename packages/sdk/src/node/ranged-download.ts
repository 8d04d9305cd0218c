// Large downloads (docs/files.md "Multipart uploads", downloads): the object in ranges of
// `chunkSize`, `parallel` at once, each written at its offset of `<dest>.part`; the ranges
// done are kept in `<dest>.part.json` (with the object's size and ETag), so a run after an
// interruption fetches only the others. Every range is asked with `If-Range: <ETag>`: an
// object that changed meanwhile answers 200 (whole) and the download starts over. The
// finished file's MD5 is checked (one sequential read) before it is renamed into place.
import fs from 'node:fs';
import type { ScanbaseClient } from '../client.ts';
import { errorFromResponse, ScanbaseError } from '../errors.ts';
import { isConnectionFailure, withRetry } from '../retry.ts';
import { RateMeter, type RateSample } from '../rate.ts';
import { downloadInterrupted, signedBlobUrl } from './download.ts';
import { Slots } from './multipart.ts';
import { md5OfFile } from './upload.ts';

export interface RangedDownloadOptions {
  accountId: string;
  projectId: string;
  blobName: string;
  dest: string;
  /** The finished file's MD5 (hex): checked. */
  md5?: string;
  /** Ranges in flight at once (default 4) and their size (default 16 MiB). */
  parallel?: number;
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: { bytesDone: number; bytesTotal: number } & RateSample) => void;
}

interface RangeState {
  size: number;
  etag: string;
  chunkSize: number;
  done: number[];
}

const readState = (f: string): RangeState | null => {
  try {
    return JSON.parse(fs.readFileSync(f, 'utf8')) as RangeState;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
};

class ObjectChanged extends Error {}

export async function downloadRanged(client: ScanbaseClient, o: RangedDownloadOptions): Promise<{ bytes: number; rangesFetched: number; rangesKept: number }> {
  const part = `${o.dest}.part`;
  const stateFile = `${o.dest}.part.json`;
  const url = await signedBlobUrl(client, o);
  const chunkSize = o.chunkSize ?? 16 * 1024 * 1024;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchRanges(client, o, url, part, stateFile, chunkSize);
    } catch (e) {
      if (!(e instanceof ObjectChanged) || attempt > 0) throw e;
      await fs.promises.rm(stateFile, { force: true });
    }
  }
}

async function fetchRanges(client: ScanbaseClient, o: RangedDownloadOptions, url: string, part: string, stateFile: string, chunkSize: number) {
  // The object's size and ETag: its first byte.
  const probe = await withRetry('GET', url, () => client.rawFetch(url, { headers: { range: 'bytes=0-0' }, signal: o.signal }), client.retry, o.signal);
  if (probe.status !== 206 && probe.status !== 200) throw await errorFromResponse(probe, 'GET');
  await probe.body?.cancel();
  const etag = probe.headers.get('etag') ?? '';
  const size = probe.status === 206 ? Number(probe.headers.get('content-range')?.split('/')[1]) : Number(probe.headers.get('content-length'));
  if (!Number.isSafeInteger(size)) throw new Error(`GET ${url}: no object size in the answer`);

  let state = readState(stateFile);
  if (!state || state.size !== size || state.etag !== etag || state.chunkSize !== chunkSize || !fs.existsSync(part)) {
    state = { size, etag, chunkSize, done: [] };
    await fs.promises.writeFile(part, '');
  }
  const kept = state.done.length;
  const done = new Set(state.done);
  const chunks = Math.ceil(size / chunkSize);
  const meter = new RateMeter();
  let bytesDone = 0;
  for (const c of done) bytesDone += Math.min(chunkSize, size - c * chunkSize);
  const progress = () => o.onProgress?.({ bytesDone, bytesTotal: size, ...meter.sample(bytesDone, size) });
  let saving = Promise.resolve();
  const save = () => {
    const snapshot = JSON.stringify({ ...state, done: [...done] });
    saving = saving.then(async () => {
      await fs.promises.writeFile(`${stateFile}.tmp`, snapshot);
      await fs.promises.rename(`${stateFile}.tmp`, stateFile);
    });
    return saving;
  };
  await save();

  const fh = await fs.promises.open(part, 'r+');
  const slots = new Slots(Math.max(1, o.parallel ?? 4));
  let fetched = 0;
  let failure: unknown;
  const one = async (c: number) => {
    const start = c * chunkSize;
    const end = Math.min(size, start + chunkSize) - 1;
    for (let resume = 0; ; resume++) {
      let got = 0;
      const res = await withRetry('GET', url, () => client.rawFetch(url, { headers: { range: `bytes=${start}-${end}`, ...(etag ? { 'if-range': etag } : {}) }, signal: o.signal }), client.retry, o.signal);
      if (res.status === 200) {
        await res.body?.cancel();
        throw new ObjectChanged('the object changed since the download began');
      }
      if (res.status !== 206) throw await errorFromResponse(res, 'GET');
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          await fh.write(chunk, 0, chunk.length, start + got);
          got += chunk.length;
          bytesDone += chunk.length;
          progress();
        }
      } catch (e) {
        bytesDone -= got;
        if (!isConnectionFailure(e)) throw e;
        // A range cut once more than it may be fetched again: the ranges done stay in the .part and its state.
        if (resume >= 5) throw downloadInterrupted({ dest: o.dest, kept: part, url, cuts: resume + 1, bytesKept: bytesDone, bytesTotal: size, cause: e });
        continue;
      }
      if (got !== end - start + 1) throw new Error(`GET ${url}: range ${start}-${end} answered ${got} bytes`);
      break;
    }
    done.add(c);
    fetched++;
    await save();
  };
  try {
    const running: Promise<void>[] = [];
    try {
      for (let c = 0; c < chunks && !failure; c++) {
        if (done.has(c)) continue;
        await slots.take(o.signal);
        running.push(one(c).then(() => slots.give(), (e: unknown) => {
          failure ??= e;
          slots.give();
        }));
      }
    } catch (e) {
      failure ??= e; // an abort while waiting for a slot
    }
    // Every range in flight settles (its bytes and its state written, or its failure kept) before
    // the file is closed: the state file is final when this call returns.
    await Promise.all(running);
    if (failure) throw failure;
    await fh.truncate(size);
    await fh.sync();
  } finally {
    await fh.close();
    await saving;
  }
  if (o.md5 && (await md5OfFile(part, o.signal)) !== o.md5.toLowerCase()) {
    await fs.promises.rm(part, { force: true });
    await fs.promises.rm(stateFile, { force: true });
    throw new ScanbaseError({ status: 0, errorCode: 'md5-mismatch', message: `${o.dest}: the downloaded bytes do not have the expected MD5`, surface: 'http', method: 'GET', url });
  }
  await fs.promises.rename(part, o.dest);
  await fs.promises.rm(stateFile, { force: true });
  return { bytes: size, rangesFetched: fetched, rangesKept: kept };
}
