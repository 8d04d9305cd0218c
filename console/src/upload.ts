// Uploads through the signed-URL flow (docs/files.md): sign all files of a drop in one
// call, PUT each file's bytes to its URL with Content-MD5 (XMLHttpRequest: it reports
// upload progress and can be aborted), then register each uploaded file. Files over 64 MiB
// go through the multipart extension instead (multipart.ts).
import SparkMD5 from 'spark-md5';
import { api } from './api.ts';
import { MULTIPART_THRESHOLD, uploadInParts } from './multipart.ts';

export interface UploadProgress {
  name: string;
  /** 0..1 */
  fraction: number;
  state: 'hashing' | 'uploading' | 'registering' | 'done' | 'failed' | 'cancelled';
  error?: string;
  /** Files sent in parts: the rate of this session's bytes, and the time left at that rate. */
  bytesPerSecond?: number;
  etaSeconds?: number;
  /** Files sent in parts: parts the service already held when this session started (a resume). */
  partsHeld?: number;
}

interface Signed {
  name: string;
  extension: string;
  size: number;
  md5: string;
  url: string;
  blobName: string;
}

/** The file's MD5 (hex), read in 4 MiB slices so a large scan never sits in memory whole. */
export async function md5Hex(file: Blob): Promise<string> {
  const spark = new SparkMD5.ArrayBuffer();
  const slice = 4 * 1024 * 1024;
  for (let at = 0; at < file.size; at += slice) spark.append(await file.slice(at, at + slice).arrayBuffer());
  return spark.end();
}

const hexToBase64 = (hex: string) => btoa(String.fromCharCode(...(hex.match(/../g) ?? []).map((h) => parseInt(h, 16))));

export function splitName(fileName: string): { name: string; extension: string } {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? { name: fileName.slice(0, dot), extension: fileName.slice(dot + 1).toLowerCase() } : { name: fileName, extension: '' };
}

/** How long an upload may send nothing before it fails (a time limit on progress, not on the whole upload). */
export const UPLOAD_STALL_MS = 60_000;

/** PUTs bytes to a signed upload URL with the headers the stores check (Content-MD5 from the hex digest). */
export const putBlob = (url: string, file: Blob, md5: string, onProgress: (f: number) => void, signal: AbortSignal): Promise<void> =>
  putBytes(url, { 'Content-MD5': hexToBase64(md5), 'Cache-Control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob' }, file, onProgress, signal);

/**
 * PUTs bytes with the given headers (XMLHttpRequest: it reports upload progress and can be
 * aborted); fails when nothing was sent for UPLOAD_STALL_MS or the store refuses.
 */
export function putBytes(url: string, headers: Record<string, string>, body: Blob, onProgress: (f: number) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let stalled = false;
    let idle = 0;
    const arm = () => {
      clearTimeout(idle);
      idle = window.setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, UPLOAD_STALL_MS);
    };
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      arm();
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onloadend = () => clearTimeout(idle);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`The store answered ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('The upload failed (network)'));
    xhr.onabort = () =>
      reject(stalled ? new Error(`The upload stalled: nothing was sent for ${UPLOAD_STALL_MS / 1000} s`) : new DOMException('Cancelled', 'AbortError'));
    if (signal.aborted) {
      reject(new DOMException('Cancelled', 'AbortError'));
      return;
    }
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    arm();
    xhr.send(body);
  });
}

/**
 * Uploads `files` into a work zone (or a connect import job); `report` gets every file's progress. Each file has its
 * own AbortController (`controllers[i]`): cancelling one leaves the others going.
 */
export async function uploadFiles(
  bulkFilesUrl: string,
  files: File[],
  report: (p: UploadProgress[]) => void,
  controllers: AbortController[],
  /** How the uploaded file is registered at the same address: API 2 bulk-files takes POST, a connect import job PUT. */
  registerMethod: 'POST' | 'PUT' = 'POST',
  /** The zone's multipart-uploads address: files over MULTIPART_THRESHOLD go in parts (none: every file in one PUT). */
  multipartUrl?: string,
): Promise<void> {
  const progress: UploadProgress[] = files.map((f) => ({ name: f.name, fraction: 0, state: 'hashing' }));
  const update = (i: number, p: Partial<UploadProgress>) => {
    progress[i] = { ...progress[i]!, ...p };
    report([...progress]);
  };
  report([...progress]);
  // Files over the threshold go in parts (multipart.ts), each on its own; the others through the signed-URL flow.
  const inParts = (f: File) => multipartUrl !== undefined && f.size > MULTIPART_THRESHOLD;
  const large = files.map((f, i) => [f, i] as const).filter(([f]) => inParts(f));
  const small = files.map((f, i) => [f, i] as const).filter(([f]) => !inParts(f));
  await Promise.all([
    ...large.map(async ([file, i]) => {
      const signal = controllers[i]!.signal;
      try {
        await uploadInParts(multipartUrl!, file, (p) => update(i, p), signal);
        update(i, { state: 'done', fraction: 1, etaSeconds: 0 });
      } catch (e) {
        if (signal.aborted) update(i, { state: 'cancelled' });
        else update(i, { state: 'failed', error: (e as Error).message });
      }
    }),
    small.length ? uploadSigned(bulkFilesUrl, small, update, controllers, registerMethod) : Promise.resolve(),
  ]);
}

async function uploadSigned(
  bulkFilesUrl: string, files: (readonly [File, number])[], update: (i: number, p: Partial<UploadProgress>) => void,
  controllers: AbortController[], registerMethod: 'POST' | 'PUT',
): Promise<void> {
  const items = await Promise.all(files.map(async ([f]) => ({ ...splitName(f.name), size: f.size, md5: await md5Hex(f) })));
  let signed: Signed[];
  try {
    signed = (await api<{ files: Signed[] }>('POST', bulkFilesUrl, items)).files;
  } catch (e) {
    files.forEach(([, i]) => update(i, { state: 'failed', error: (e as Error).message }));
    return;
  }
  await Promise.all(
    files.map(async ([file, i], n) => {
      const s = signed[n]!;
      const signal = controllers[i]!.signal;
      try {
        update(i, { state: 'uploading' });
        await putBlob(s.url, file, s.md5, (fraction) => update(i, { fraction }), signal);
        update(i, { state: 'registering', fraction: 1 });
        await api(registerMethod, bulkFilesUrl, [{ name: s.name, extension: s.extension, size: s.size, md5: s.md5, blobName: s.blobName }]);
        update(i, { state: 'done' });
      } catch (e) {
        if (signal.aborted) update(i, { state: 'cancelled' });
        else update(i, { state: 'failed', error: (e as Error).message });
      }
    }),
  );
}
