// Point clouds over API 2 (our extension, docs/point-clouds.md): a point-cloud file's
// conversion to COPC (state, points read, percent, ETA, failure reason), waiting for it to
// end, and its COPC output by byte range.
import type { operations } from './generated/api2.ts';
import type { ScanbaseClient } from './client.ts';
import { ScanbaseError } from './errors.ts';
import type { ProjectRefs } from './tags.ts';

export type PointCloudStatus = operations['getFilePointCloud']['responses'][200]['content']['application/json'];

const cloudPath = (r: ProjectRefs, fileId: string) =>
  `/api/2/accounts/${encodeURIComponent(r.accountId)}/projects/${encodeURIComponent(r.projectId)}/files/${encodeURIComponent(fileId)}/point-cloud`;

/** The conversion's state and progress now. */
export async function pointCloudStatus(client: ScanbaseClient, refs: ProjectRefs, fileId: string): Promise<PointCloudStatus> {
  const res = await client.fetch(cloudPath(refs, fileId));
  return (await res.json()) as PointCloudStatus;
}

export interface WaitOptions {
  /** Between two looks (default 2 s). */
  intervalMs?: number;
  /** Give up after this long: a ScanbaseError `timeout` (default: never). */
  timeoutMs?: number;
  onProgress?: (s: PointCloudStatus) => void;
  signal?: AbortSignal;
}

/** Polls until the conversion is done or failed; answers the last status (a failed one too: its `reason` says why). */
export async function waitForPointCloud(client: ScanbaseClient, refs: ProjectRefs, fileId: string, o: WaitOptions = {}): Promise<PointCloudStatus> {
  const until = o.timeoutMs === undefined ? Infinity : Date.now() + o.timeoutMs;
  for (;;) {
    const s = await pointCloudStatus(client, refs, fileId);
    o.onProgress?.(s);
    if (s.state === 'done' || s.state === 'failed') return s;
    if (Date.now() >= until) {
      throw new ScanbaseError({
        status: 0, errorCode: 'timeout', surface: 'network', method: 'GET', url: cloudPath(refs, fileId),
        message: `the conversion of ${fileId} is still ${s.state} (${s.percent} %) after ${o.timeoutMs! / 1000} s`,
      });
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, o.intervalMs ?? 2000);
      o.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(o.signal!.reason);
      }, { once: true });
    });
  }
}

/** Bytes start..end (inclusive) of the COPC output (206), as the viewer reads it. */
export async function readCopcRange(client: ScanbaseClient, refs: ProjectRefs, fileId: string, start: number, end: number): Promise<Uint8Array> {
  const res = await client.fetch(`${cloudPath(refs, fileId)}/copc`, { headers: { range: `bytes=${start}-${end}` } });
  return new Uint8Array(await res.arrayBuffer());
}
