// A large file from the browser through the multipart extension (docs/files.md "Multipart
// uploads"): start an upload of N bytes (the service answers the part size), hash the file
// once in order in a Web Worker (md5-worker.ts: each part's MD5, then the whole file's unless
// the store computes it from the parts it verified, as local disk does), sign part URLs in
// pages as parts are hashed, PUT up to PARALLEL parts at once straight to the store, then
// complete with the composite (the MD5 of the parts' binary MD5s) and the whole MD5 where
// one was computed. The upload's id is kept in this browser (localStorage, by zone, name, size
// and date of the file): after a reload, the same file dropped again resumes, asking the
// service which parts it holds and sending only the others. Cancel aborts the upload.
import SparkMD5 from 'spark-md5';
import { api, ApiError } from './api.ts';
import type { HashMessage, HashRequest } from './md5-worker.ts';
import { putBytes, splitName, type UploadProgress } from './upload.ts';

/** Files larger than this go in parts (the SDK's and the CLI's default too). */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
/** Parts in flight at once. */
const PARALLEL = 4;
/** Part URLs asked for at once. */
const SIGN_PAGE = 50;
/** Attempts of one part before the upload fails (a network error, a stall). */
const ATTEMPTS = 3;

interface Started {
  id: string;
  partSize: number;
  partCount: number;
  /** The store (`local`, `s3`, `azure`): local disk computes the whole file's MD5 from the parts. Absent from uploads remembered before it was kept. */
  provider?: string;
}
interface SignedPart {
  partNumber: number;
  size: number;
  url: string;
  headers: Record<string, string>;
}

const keyOf = (base: string, f: File) => `scanbase.multipart|${base}|${f.name}|${f.size}|${f.lastModified}`;

function remembered(key: string): Started | null {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null') as Started | null;
    return v && typeof v.id === 'string' && Number.isSafeInteger(v.partSize) && Number.isSafeInteger(v.partCount) ? v : null;
  } catch {
    return null; // unreadable: started afresh
  }
}

/** The parts the service holds, every page. */
async function heldParts(base: string, id: string, signal: AbortSignal): Promise<Map<number, string | null>> {
  const held = new Map<number, string | null>();
  for (let after = 0; ;) {
    const page = await api<{ parts: { partNumber: number; md5: string | null }[]; next: number | null }>(
      'GET', `${base}/${encodeURIComponent(id)}/parts?after=${after}`, undefined, { signal },
    );
    for (const p of page.parts) held.set(p.partNumber, p.md5);
    if (page.next === null) return held;
    after = page.next;
  }
}

const binary = (hexes: readonly string[]) => {
  const out = new Uint8Array(hexes.length * 16);
  hexes.forEach((h, i) => {
    for (let b = 0; b < 16; b++) out[i * 16 + b] = parseInt(h.slice(b * 2, b * 2 + 2), 16);
  });
  return out.buffer;
};

/** Uploads one file in parts into the zone whose multipart-uploads address is `base`; `report` gets its progress. */
export async function uploadInParts(base: string, file: File, report: (p: Partial<UploadProgress>) => void, signal: AbortSignal): Promise<void> {
  const key = keyOf(base, file);
  let upload = remembered(key);
  let held = new Map<number, string | null>();
  if (upload) {
    try {
      held = await heldParts(base, upload.id, signal);
    } catch (e) {
      // Gone (aborted, expired, completed elsewhere): a new upload.
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      upload = null;
      localStorage.removeItem(key);
    }
  }
  if (!upload) {
    upload = await api<Started>('POST', base, { ...splitName(file.name), size: file.size }, { signal });
    localStorage.setItem(key, JSON.stringify({ id: upload.id, partSize: upload.partSize, partCount: upload.partCount, provider: upload.provider }));
  }
  const { id, partSize, partCount } = upload;
  const storeHashesWhole = upload.provider === 'local';
  const sizeOf = (n: number) => Math.min(partSize, file.size - (n - 1) * partSize);

  // Progress: bytes the service holds (counted as parts are found held) plus this session's, with its rate and ETA.
  const startedAt = performance.now();
  let doneBytes = 0;
  let sessionBytes = 0;
  const inFlight = new Map<number, number>();
  const show = (state: UploadProgress['state']) => {
    const flying = [...inFlight.values()].reduce((a, b) => a + b, 0);
    const seconds = (performance.now() - startedAt) / 1000;
    const rate = seconds > 0.5 ? (sessionBytes + flying) / seconds : 0;
    const left = file.size - doneBytes - flying;
    report({ state, fraction: Math.min(1, (doneBytes + flying) / file.size), bytesPerSecond: rate, etaSeconds: rate > 0 ? left / rate : undefined, partsHeld: held.size });
  };
  show('uploading');

  // The hash pass, in a worker; parts to send queue up as their MD5s arrive.
  const partMd5s: string[] = new Array<string>(partCount);
  const queue: number[] = [];
  /** The whole file's MD5 once hashed (null: the store computes it); undefined until the hash pass ends. */
  let whole: string | null | undefined;
  let failure: Error | null = null;
  let waiting: (() => void)[] = [];
  /** Wakes every sender waiting for a part to send (or for the end). */
  const notify = () => {
    const w = waiting;
    waiting = [];
    for (const f of w) f();
  };
  const worker = new Worker(new URL('./md5-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (e: MessageEvent<HashMessage>) => {
    const m = e.data;
    if ('error' in m) failure = new Error(`The file could not be read: ${m.error}`);
    else if ('whole' in m) whole = m.whole;
    else {
      partMd5s[m.partNumber - 1] = m.md5;
      if (held.get(m.partNumber) === m.md5) {
        doneBytes += sizeOf(m.partNumber);
        show('uploading');
      } else {
        queue.push(m.partNumber);
      }
    }
    notify();
  };
  worker.onerror = (e) => {
    failure = new Error(`The checksums could not be computed: ${e.message}`);
    notify();
  };
  worker.postMessage({ file, partSize, whole: !storeHashesWhole } satisfies HashRequest);
  const aborted = () => notify();
  signal.addEventListener('abort', aborted, { once: true });

  const urls = new Map<number, SignedPart>();
  async function urlOf(n: number): Promise<SignedPart> {
    const known = urls.get(n);
    if (known) return known;
    const batch = [n, ...queue.filter((q) => !urls.has(q)).slice(0, SIGN_PAGE - 1)];
    const signed = await api<{ parts: SignedPart[] }>('POST', `${base}/${encodeURIComponent(id)}/part-urls`, {
      parts: batch.map((p) => ({ partNumber: p, md5: partMd5s[p - 1]! })),
    }, { signal });
    for (const s of signed.parts) urls.set(s.partNumber, s);
    return urls.get(n)!;
  }

  async function send(n: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const s = await urlOf(n);
        urls.delete(n);
        await putBytes(s.url, s.headers, file.slice((n - 1) * partSize, (n - 1) * partSize + s.size), (f) => {
          inFlight.set(n, f * s.size);
          show('uploading');
        }, signal);
        inFlight.delete(n);
        doneBytes += s.size;
        sessionBytes += s.size;
        show('uploading');
        return;
      } catch (e) {
        inFlight.delete(n);
        if (signal.aborted || e instanceof ApiError || attempt >= ATTEMPTS) throw e;
      }
    }
  }

  async function sender(): Promise<void> {
    for (;;) {
      if (failure) throw failure;
      signal.throwIfAborted();
      const n = queue.shift();
      if (n !== undefined) {
        await send(n);
        continue;
      }
      if (whole !== undefined) return;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }

  try {
    await Promise.all(Array.from({ length: PARALLEL }, sender));
  } catch (e) {
    if (signal.aborted) {
      // Cancelled: the service drops the parts; this browser forgets the upload.
      localStorage.removeItem(key);
      await api('DELETE', `${base}/${encodeURIComponent(id)}`).catch((err: unknown) => console.warn('abort of the multipart upload failed', err));
    }
    throw e;
  } finally {
    worker.terminate();
    signal.removeEventListener('abort', aborted);
  }

  report({ state: 'registering', fraction: 1, etaSeconds: 0 });
  const partsMd5 = SparkMD5.ArrayBuffer.hash(binary(partMd5s));
  try {
    await api('POST', `${base}/${encodeURIComponent(id)}/complete`, whole ? { md5: whole, partsMd5 } : { partsMd5 }, { signal });
  } catch (e) {
    // Completed by an earlier attempt whose answer was lost: done.
    if (!(e instanceof ApiError && e.code === 'upload-already-completed')) throw e;
  }
  localStorage.removeItem(key);
}
