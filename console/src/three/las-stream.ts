// A streamed preview of an uncompressed LAS scan (docs/console.md "Scan preview"): the
// header is read with one Range request, then evenly spaced windows of point records are
// fetched (a few at a time) and decoded as they arrive, so a scan of several GiB shows at
// most MAX_POINTS points after reading a few MiB. Point records are fixed-size and
// uncompressed, which is what makes ranges of them readable on their own; LAZ's chunks
// are not (whole-file path in point-cloud.ts). Reads LAS 1.0 to 1.4 (the 64-bit count).
import { MAX_POINTS, PreviewError, type PointPreview } from './point-cloud.ts';

/** LAS 1.4's header is 375 bytes; older ones are shorter (the point data offset says where points start). */
const HEADER_BYTES = 375;
/** Windows of records fetched when the file holds more than MAX_POINTS points, and at once. */
const WINDOWS = 128;
const PARALLEL = 4;
/** Where RGB (three uint16) sits in a record of each point data format. */
const RGB_AT: Record<number, number> = { 2: 20, 3: 28, 5: 28, 7: 30, 8: 30, 10: 30 };

/** This file or store cannot be read by ranges: the whole-file path (point-cloud.ts) can still read it. */
export class WholeFileNeeded extends PreviewError {}

/** How long one ranged read may take. */
const RANGE_TIMEOUT_MS = 30_000;

export interface LasHeader {
  pointOffset: number;
  format: number;
  recordLength: number;
  count: number;
  scale: [number, number, number];
  offset: [number, number, number];
}

/** The fields of a LAS header a preview needs; refuses what is not an uncompressed LAS. */
export function parseLasHeader(buffer: ArrayBuffer): LasHeader {
  const v = new DataView(buffer);
  if (buffer.byteLength < 227 || String.fromCharCode(v.getUint8(0), v.getUint8(1), v.getUint8(2), v.getUint8(3)) !== 'LASF') {
    throw new PreviewError('Not a LAS file (no LASF signature).');
  }
  const rawFormat = v.getUint8(104);
  // LAZ sets bit 7 (and 6) of the format: its records are compressed.
  if (rawFormat & 0x80) throw new WholeFileNeeded('This LAS file is compressed (LAZ).');
  const format = rawFormat & 0x3f;
  const legacy = v.getUint32(107, true);
  const count = legacy || (buffer.byteLength >= 255 ? Number(v.getBigUint64(247, true)) : 0);
  const recordLength = v.getUint16(105, true);
  if (recordLength < 12) throw new PreviewError(`A LAS point record of ${recordLength} bytes is too short to hold X, Y and Z.`);
  const d = (at: number) => v.getFloat64(at, true);
  return { pointOffset: v.getUint32(96, true), format, recordLength, count, scale: [d(131), d(139), d(147)], offset: [d(155), d(163), d(171)] };
}

/** Record windows [first, count) to read: all records when they fit, else WINDOWS evenly spaced ones of MAX_POINTS in all. */
export function recordWindows(total: number, maxPoints = MAX_POINTS, windows = WINDOWS): { first: number; count: number }[] {
  if (total <= 0) return [];
  if (total <= maxPoints) {
    const per = Math.ceil(total / Math.min(windows, Math.ceil(total / 1000)));
    const out = [];
    for (let first = 0; first < total; first += per) out.push({ first, count: Math.min(per, total - first) });
    return out;
  }
  const per = Math.floor(maxPoints / windows);
  return Array.from({ length: windows }, (_, j) => ({ first: Math.floor((j * (total - per)) / (windows - 1)), count: per }));
}

/** Bytes `start`..`end` (inclusive) of `url`; refuses an answer that is not that range (a store ignoring Range would send the whole file). */
async function range(url: string, start: number, end: number, signal: AbortSignal): Promise<ArrayBuffer> {
  // Each window has its time limit (a window is at most a few hundred KiB).
  const res = await fetch(url, { headers: { range: `bytes=${start}-${end}` }, signal: AbortSignal.any([signal, AbortSignal.timeout(RANGE_TIMEOUT_MS)]) });
  if (res.status !== 206) {
    await res.body?.cancel();
    if (res.ok) throw new WholeFileNeeded('The store answered the whole scan instead of a byte range: it does not support Range requests.');
    throw new PreviewError(`The scan could not be read (${res.status}).`);
  }
  return res.arrayBuffer();
}

export interface StreamProgress {
  preview: PointPreview;
  /** Bytes received so far (header and records). */
  bytes: number;
  /** Windows read of all. */
  fraction: number;
}

/**
 * Reads the LAS scan at `url` by ranges, calling `onProgress` with the points so far after
 * each window; answers the last preview. `signal` cancels (the points so far stay drawn).
 */
export async function streamLas(url: string, onProgress: (p: StreamProgress) => void, signal: AbortSignal): Promise<PointPreview> {
  const head = await range(url, 0, HEADER_BYTES - 1, signal);
  const h = parseLasHeader(head);
  const windows = recordWindows(h.count);
  const kept = windows.reduce((n, w) => n + w.count, 0);
  const positions = new Float64Array(kept * 3);
  const rgbAt = RGB_AT[h.format];
  const colors = rgbAt !== undefined && rgbAt + 6 <= h.recordLength ? new Uint8Array(kept * 3) : null;
  /** 16-bit colours (the LAS rule) unless the first window's never exceed 255 (files that store 8-bit). */
  let colourShift: number | null = null;
  let bytes = head.byteLength;
  let count = 0;
  let done = 0;
  const preview = (): PointPreview => ({ positions: positions.subarray(0, count * 3), colors: colors ? colors.subarray(0, count * 3) : null, count, total: h.count });

  const decode = (buf: ArrayBuffer) => {
    const v = new DataView(buf);
    const n = Math.floor(buf.byteLength / h.recordLength);
    if (colors && colourShift === null) {
      let max = 0;
      for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) max = Math.max(max, v.getUint16(i * h.recordLength + rgbAt! + c * 2, true));
      colourShift = max > 255 ? 8 : 0;
    }
    for (let i = 0; i < n; i++, count++) {
      const at = i * h.recordLength;
      for (let a = 0; a < 3; a++) positions[count * 3 + a] = v.getInt32(at + a * 4, true) * h.scale[a]! + h.offset[a]!;
      if (colors) for (let c = 0; c < 3; c++) colors[count * 3 + c] = v.getUint16(at + rgbAt! + c * 2, true) >> colourShift!;
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < windows.length) {
      const w = windows[next++]!;
      const start = h.pointOffset + w.first * h.recordLength;
      const buf = await range(url, start, start + w.count * h.recordLength - 1, signal);
      bytes += buf.byteLength;
      decode(buf);
      done++;
      onProgress({ preview: preview(), bytes, fraction: done / windows.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, windows.length) }, worker));
  return preview();
}
