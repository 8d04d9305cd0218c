// A scan into a points layer of the 3D view (docs/console.md "Scan preview"): uncompressed
// LAS streamed by byte ranges (three/las-stream.ts: points drawn as each window arrives,
// bounded, cancellable); LAZ and PLY read whole (capped) and decoded in the page
// (three/point-cloud.ts). Shared by the zone's view and the tag list's. A point cloud whose
// conversion to COPC is done is streamed by level of detail instead (showScan below,
// three/layers/copc-points.ts); while it converts, the status and the preview above.
import lazPerfWasm from 'laz-perf/lib/web/laz-perf.wasm?url';
import { ApiError, api, fetchWithTimeout, problemOf, uuidOf } from '../api.ts';
import { accessToken, refresh } from '../auth.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import type { FileItem } from '../types.ts';
import { PREVIEW_EXTENSIONS, PreviewError, decodePoints, download, type PointPreview } from '../three/point-cloud.ts';
import { WholeFileNeeded, streamLas } from '../three/las-stream.ts';
import { ScanPointsLayer } from '../three/layers/scan-points.ts';
import { CopcPointsLayer, copcByRanges, lazPerfModule, type RangeGetter } from '../three/layers/copc-points.ts';
import type { ZoneView } from '../three/view.ts';
import type { Pose } from '../three/layer.ts';
import { describeConversion, isPointCloud, type Conversion } from './point-cloud-state.tsx';

export const MiB = 2 ** 20;
export const mib = (n: number) => `${(n / MiB).toFixed(n < 10 * MiB ? 1 : 0)} MiB`;

export const previewable = (f: FileItem) => (PREVIEW_EXTENSIONS as readonly string[]).includes(f.extension.toLowerCase());
/** What the zone's view can draw: a preview, or a point cloud's COPC once converted (E57 too). */
export const viewable = (f: FileItem) => previewable(f) || isPointCloud(f);

export interface ScanReading {
  bytes: number;
  size: number;
  points: number;
  streamed: boolean;
  done: boolean;
  /** 0..1 while reading; null once settled. */
  fraction: number | null;
  status: string;
}

declare global {
  // The last preview's reading, for the browser tests (docs/console.md).
  var __scanbasePreview: ScanReading | undefined;
}

/** How often a converting file's state is read again. */
const CONVERSION_POLL_MS = 2000;

/**
 * Reads `f` into `layer`, reporting as it goes. A cancel (`signal`) keeps the points that
 * arrived; an error is thrown after the last report.
 */
export async function loadScan(base: string | ApiPath, f: FileItem, layer: ScanPointsLayer, report: (r: ScanReading) => void, signal: AbortSignal): Promise<void> {
  const reading: ScanReading = { bytes: 0, size: f.size, points: 0, streamed: false, done: false, fraction: 0, status: '' };
  globalThis.__scanbasePreview = reading;
  const tell = (p: Partial<ScanReading>) => {
    Object.assign(reading, p);
    report({ ...reading });
  };
  // Placed by the file's pose, as its COPC is (streamCopc): on the tag list's "Show a scan's
  // points" as in the zone's view, so the points sit where the boxes were drawn on them.
  layer.setPose(poseOf(f));
  const shown = (p: PointPreview) => {
    layer.setPreview(p);
    reading.points = p.count;
  };
  tell({});
  try {
    const { urls } = await api<{ urls: Record<string, string> }>('POST', `${base}/blobs`, [f.blobName], { signal });
    const url = urls[f.blobName]!;
    let preview: PointPreview | null = null;
    if (f.extension.toLowerCase() === 'las') {
      try {
        reading.streamed = true;
        preview = await streamLas(
          url,
          (p) => {
            shown(p.preview);
            tell({
              bytes: p.bytes,
              fraction: p.fraction,
              status: `${p.preview.count.toLocaleString('en')} points of ${p.preview.total.toLocaleString('en')}; ${mib(p.bytes)} read of ${mib(f.size)}`,
            });
          },
          signal,
        );
      } catch (e) {
        if (!(e instanceof WholeFileNeeded)) throw e;
        tell({ streamed: false, status: `${e.message} Reading the whole file…` });
      }
    }
    if (!preview) {
      const bytes = await download(url, (fraction) => tell({ fraction }), signal);
      tell({ bytes: bytes.byteLength, status: 'Decoding…' });
      preview = await decodePoints(bytes, f.extension);
      shown(preview);
    }
    tell({
      points: preview.count,
      done: true,
      fraction: null,
      status: `${preview.count.toLocaleString('en')} points shown of ${preview.total.toLocaleString('en')}; ${mib(reading.bytes)} read of ${mib(f.size)}`,
    });
  } catch (e) {
    if (signal.aborted) {
      tell({ fraction: null, status: `Cancelled: ${reading.points.toLocaleString('en')} points shown; ${mib(reading.bytes)} read of ${mib(f.size)}` });
      return;
    }
    tell({ fraction: null, status: '' });
    throw e;
  }
}

/**
 * Byte ranges of a converted file's COPC through the service (GET …/files/{f}/point-cloud/copc,
 * the caller's bearer token; a 401 refreshes the session once). `end` is exclusive.
 */
export function copcRangeGetter(url: string, signal: AbortSignal): RangeGetter {
  return async (begin, end) => {
    const send = (token: string | null) =>
      fetchWithTimeout(url, { headers: { range: `bytes=${begin}-${end - 1}`, ...(token ? { authorization: `Bearer ${token}` } : {}) }, signal });
    let res = await send(await accessToken());
    if (res.status === 401) res = await send((await refresh())?.accessToken ?? null);
    if (res.status !== 206) {
      if (res.ok) {
        await res.body?.cancel();
        throw new PreviewError(`The service answered ${res.status} instead of a byte range of the COPC.`);
      }
      throw await problemOf(res);
    }
    return new Uint8Array(await res.arrayBuffer());
  };
}

/** Waits `ms`, or less when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** A file's pose as the view places its scan (its translation and rotation, when it has them). */
export const poseOf = (f: FileItem): Pose => ({ translation: f.translation ?? null, rotation: f.rotation ?? null });

/**
 * Draws `f` in the view as layer `id`: a point cloud converted to COPC streams by level of
 * detail; one still converting shows its conversion's state (and, when the file can be
 * previewed, the preview meanwhile), then streams once done; a failed conversion, a file
 * that is not a point cloud or a caller without the COPC's read permission gets the
 * preview (loadScan). `signal` stops everything.
 */
export async function showScan(view: ZoneView, base: string | ApiPath, f: FileItem, id: string, report: (r: ScanReading) => void, signal: AbortSignal): Promise<void> {
  const label = `${f.name}.${f.extension}`;
  const statusUrl = apiPath`${base}/files/${uuidOf(f.id)}/point-cloud`;
  const previewStop = new AbortController();
  signal.addEventListener('abort', () => previewStop.abort(), { once: true });
  const shown: { preview: Promise<void> | null } = { preview: null };
  const startPreview = () => {
    if (shown.preview || !previewable(f)) return;
    // Placed by loadScan as the COPC that replaces it will be (streamCopc), so the scan does not jump then.
    const layer = new ScanPointsLayer(id, label);
    view.add(layer);
    shown.preview = loadScan(base, f, layer, report, previewStop.signal);
  };
  let conversion: Conversion | null = null;
  while (isPointCloud(f) && !signal.aborted) {
    try {
      conversion = await api<Conversion>('GET', statusUrl, undefined, { signal });
    } catch (e) {
      if (signal.aborted) return;
      if (!(e instanceof ApiError)) throw e;
      conversion = null; // no conversion this caller may read: the preview
      break;
    }
    if (conversion.state === 'done' || conversion.state === 'failed') break;
    startPreview();
    // The preview's own report is replaced by the conversion's while no preview runs.
    if (!shown.preview) report({ bytes: 0, size: f.size, points: 0, streamed: true, done: false, fraction: conversion.percent / 100, status: describeConversion(conversion) });
    await pause(CONVERSION_POLL_MS, signal);
  }
  if (signal.aborted) return;
  if (conversion?.state !== 'done') {
    if (conversion?.state === 'failed' && !previewable(f)) throw new PreviewError(describeConversion(conversion));
    startPreview();
    if (!shown.preview) throw new PreviewError(`No preview for .${f.extension} files until their conversion to COPC is done.`);
    return shown.preview;
  }
  previewStop.abort();
  await streamCopc(view, base, f, id, report, signal);
}

/** Adds the COPC layer of a converted file and reports what it reads and draws. */
async function streamCopc(view: ZoneView, base: string | ApiPath, f: FileItem, id: string, report: (r: ScanReading) => void, signal: AbortSignal): Promise<void> {
  const url = String(apiPath`${base}/files/${uuidOf(f.id)}/point-cloud/copc`);
  const layer = new CopcPointsLayer(id, `${f.name}.${f.extension}`, copcByRanges(copcRangeGetter(url, signal)), lazPerfModule(lazPerfWasm));
  layer.setPose(poseOf(f));
  const reading: ScanReading = { bytes: 0, size: f.size, points: 0, streamed: true, done: false, fraction: null, status: 'Reading the COPC header…' };
  globalThis.__scanbasePreview = reading;
  const tell = () => {
    const s = layer.stats;
    Object.assign(reading, {
      bytes: s.bytes,
      points: s.pointsDrawn,
      done: s.firstFrame !== null,
      status: `${s.pointsDrawn.toLocaleString('en')} points drawn of ${s.pointCount.toLocaleString('en')} (level of detail); ${s.requests} reads, ${mib(s.bytes)}`,
    });
    report({ ...reading });
  };
  layer.onChange = tell;
  const failed = new Promise<never>((_, reject) => {
    layer.onError = (e) => reject(e instanceof Error ? e : new Error(String(e)));
  });
  view.add(layer);
  tell();
  // The layer streams for as long as it is shown; a read that fails ends it with the error.
  await Promise.race([failed, new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))]);
}
