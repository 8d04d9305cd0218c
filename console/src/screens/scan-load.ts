// A scan into a points layer of the 3D view (docs/console.md "Scan preview"): uncompressed
// LAS streamed by byte ranges (three/las-stream.ts: points drawn as each window arrives,
// bounded, cancellable); LAZ and PLY read whole (capped) and decoded in the page
// (three/point-cloud.ts). Shared by the zone's view and the tag list's.
import { api } from '../api.ts';
import type { ApiPath } from '../paths.ts';
import type { FileItem } from '../types.ts';
import { PREVIEW_EXTENSIONS, decodePoints, download, type PointPreview } from '../three/point-cloud.ts';
import { WholeFileNeeded, streamLas } from '../three/las-stream.ts';
import type { ScanPointsLayer } from '../three/layers/scan-points.ts';

export const MiB = 2 ** 20;
export const mib = (n: number) => `${(n / MiB).toFixed(n < 10 * MiB ? 1 : 0)} MiB`;

export const previewable = (f: FileItem) => (PREVIEW_EXTENSIONS as readonly string[]).includes(f.extension.toLowerCase());

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
