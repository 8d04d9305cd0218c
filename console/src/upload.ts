// Uploads through the signed-URL flow (docs/files.md): sign all files of a drop in one
// call, PUT each file's bytes to its URL with Content-MD5 (XMLHttpRequest: it reports
// upload progress and can be aborted), then register each uploaded file.
import SparkMD5 from 'spark-md5';
import { api } from './api.ts';

export interface UploadProgress {
  name: string;
  /** 0..1 */
  fraction: number;
  state: 'hashing' | 'uploading' | 'registering' | 'done' | 'failed' | 'cancelled';
  error?: string;
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
export function putBlob(url: string, file: Blob, md5: string, onProgress: (f: number) => void, signal: AbortSignal): Promise<void> {
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
    xhr.setRequestHeader('Content-MD5', hexToBase64(md5));
    xhr.setRequestHeader('Cache-Control', 'max-age=2592000');
    xhr.setRequestHeader('x-ms-blob-type', 'BlockBlob');
    xhr.upload.onprogress = (e) => {
      arm();
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onloadend = () => clearTimeout(idle);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`The store answered ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('The upload failed (network)'));
    xhr.onabort = () =>
      reject(stalled ? new Error(`The upload stalled: nothing was sent for ${UPLOAD_STALL_MS / 1000} s`) : new DOMException('Cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    arm();
    xhr.send(file);
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
): Promise<void> {
  const progress: UploadProgress[] = files.map((f) => ({ name: f.name, fraction: 0, state: 'hashing' }));
  const update = (i: number, p: Partial<UploadProgress>) => {
    progress[i] = { ...progress[i]!, ...p };
    report([...progress]);
  };
  report([...progress]);
  const items = await Promise.all(files.map(async (f) => ({ ...splitName(f.name), size: f.size, md5: await md5Hex(f) })));
  let signed: Signed[];
  try {
    signed = (await api<{ files: Signed[] }>('POST', bulkFilesUrl, items)).files;
  } catch (e) {
    files.forEach((_, i) => update(i, { state: 'failed', error: (e as Error).message }));
    return;
  }
  await Promise.all(
    files.map(async (file, i) => {
      const s = signed[i]!;
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
