// A decimated point preview of a scan read whole (docs/console.md "Scan preview"): LAZ and
// PLY, and LAS when its store ignores byte ranges (uncompressed LAS is otherwise read by
// ranges: las-stream.ts). LAS and LAZ through @loaders.gl/las (LAS 1.0–1.3; LAZ decodes
// with laz-perf's WebAssembly), PLY through @loaders.gl/ply. The file is streamed with
// progress up to MAX_BYTES; at most MAX_POINTS points are kept (LAS: the loader reads one point in `skip`; PLY: every k-th point after
// parsing). Positions stay float64 until the scene shifts them to its origin.
export const MAX_POINTS = 200_000;
export const MAX_BYTES = 512 * 1024 * 1024;
export const PREVIEW_EXTENSIONS = ['las', 'laz', 'ply'] as const;

export interface PointPreview {
  /** x, y, z per point. */
  positions: Float64Array;
  /** r, g, b (0–255) per point, when the file has colours. */
  colors: Uint8Array | null;
  count: number;
  /** Points in the file. */
  total: number;
}

export class PreviewError extends Error {}

/** Downloads `url`, reporting the fraction received; refuses more than MAX_BYTES. */
export async function download(url: string, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ArrayBuffer> {
  // No answer within the limit fails; once it answers, a large file streams for as long as bytes arrive.
  const answered = new AbortController();
  const timer = setTimeout(() => answered.abort(new PreviewError('The store did not answer in time.')), 30_000);
  const res = await fetch(url, { signal: signal ? AbortSignal.any([signal, answered.signal]) : answered.signal }).finally(() => clearTimeout(timer));
  if (!res.ok || !res.body) throw new PreviewError(`The scan could not be downloaded (${res.status}).`);
  const total = Number(res.headers.get('content-length') ?? 0);
  if (total > MAX_BYTES) throw new PreviewError(`The scan is ${Math.round(total / 2 ** 20)} MiB: the preview reads scans up to ${MAX_BYTES / 2 ** 20} MiB.`);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > MAX_BYTES) {
      await reader.cancel();
      throw new PreviewError(`The scan is over ${MAX_BYTES / 2 ** 20} MiB: too large for the preview.`);
    }
    chunks.push(value);
    if (total) onProgress(received / total);
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  onProgress(1);
  return out.buffer;
}

/** The point count in a LAS header (legacy 32-bit field, offset 107; LAS 1.4's 64-bit one at 247 when that is 0). */
export function lasPointCount(buffer: ArrayBuffer): number {
  const v = new DataView(buffer);
  if (buffer.byteLength < 227 || String.fromCharCode(v.getUint8(0), v.getUint8(1), v.getUint8(2), v.getUint8(3)) !== 'LASF') {
    throw new PreviewError('Not a LAS file (no LASF signature).');
  }
  const legacy = v.getUint32(107, true);
  return legacy || (buffer.byteLength >= 255 ? Number(v.getBigUint64(247, true)) : 0);
}

interface MeshLike {
  attributes: { POSITION: { value: ArrayLike<number> }; COLOR_0?: { value: ArrayLike<number>; size: number } };
}

/** Keeps one point in `step`, with colours when present (RGBA or RGB, 8-bit). */
function decimate(mesh: MeshLike, step: number, total: number): PointPreview {
  const p = mesh.attributes.POSITION.value;
  const c = mesh.attributes.COLOR_0;
  const n = Math.floor(p.length / 3);
  const count = Math.ceil(n / step);
  const positions = new Float64Array(count * 3);
  const colors = c ? new Uint8Array(count * 3) : null;
  for (let i = 0, k = 0; i < n; i += step, k++) {
    positions[k * 3] = p[i * 3]!;
    positions[k * 3 + 1] = p[i * 3 + 1]!;
    positions[k * 3 + 2] = p[i * 3 + 2]!;
    if (c && colors) for (let j = 0; j < 3; j++) colors[k * 3 + j] = c.value[i * c.size + j]!;
  }
  return { positions, colors, count, total };
}

/** Decodes a downloaded scan into at most MAX_POINTS points. */
export async function decodePoints(buffer: ArrayBuffer, extension: string): Promise<PointPreview> {
  const ext = extension.toLowerCase();
  if (ext === 'las' || ext === 'laz') {
    const total = lasPointCount(buffer);
    const skip = Math.max(1, Math.ceil(total / MAX_POINTS));
    const { LASLoader } = await import('@loaders.gl/las');
    const mesh = (await LASLoader.parse(buffer, { las: { shape: 'mesh', fp64: true, skip, colorDepth: 8 } })) as unknown as MeshLike;
    return decimate(mesh, 1, total);
  }
  if (ext === 'ply') {
    const { PLYLoader } = await import('@loaders.gl/ply');
    const mesh = (await PLYLoader.parse(buffer, {})) as unknown as MeshLike;
    const total = Math.floor(mesh.attributes.POSITION.value.length / 3);
    return decimate(mesh, Math.max(1, Math.ceil(total / MAX_POINTS)), total);
  }
  throw new PreviewError(`No preview for .${ext} files (LAS, LAZ and PLY only).`);
}
