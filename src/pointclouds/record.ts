// The one point layout inside the pipeline: LAS 1.4 point data record format 7 (36 bytes,
// little-endian), whatever the input. Readers convert to it, the octree moves it, and the
// LAZ encoder compresses it (as format 6, its first 30 bytes, when the cloud has no colour).
//
//   0  X, Y, Z        int32 ×3, in the cloud's scale and offset
//  12  intensity      uint16
//  14  returns        return number (bits 0–3), number of returns (bits 4–7)
//  15  flags          classification flags (0–3), scanner channel (4–5), scan direction (6), edge (7)
//  16  classification uint8
//  17  user data      uint8
//  18  scan angle     int16, 0.006° units
//  20  point source   uint16
//  22  GPS time       float64
//  30  red, green, blue uint16 ×3

export const RECORD_SIZE = 36;
/** The point 14 part (format 6). */
export const POINT14_SIZE = 30;

/** Scale and offset of the integer coordinates: real = int × scale + offset. */
export interface Quantization {
  scale: [number, number, number];
  offset: [number, number, number];
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export const emptyBounds = (): Bounds => ({ min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] });

export function growBounds(b: Bounds, x: number, y: number, z: number): void {
  if (x < b.min[0]) b.min[0] = x;
  if (y < b.min[1]) b.min[1] = y;
  if (z < b.min[2]) b.min[2] = z;
  if (x > b.max[0]) b.max[0] = x;
  if (y > b.max[1]) b.max[1] = y;
  if (z > b.max[2]) b.max[2] = z;
}

const WORDS = RECORD_SIZE >>> 2;
const words = (b: Uint8Array) => (b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2) : null);

/**
 * Copies record `from` of `src` to record `to` of `dst`, byte by byte: the hot loops move
 * tens of millions of records, and a per-record subarray() (an object each) cost more in
 * allocation and collection than the copy itself. For many records, gatherRecords().
 */
export function copyRecord(src: Uint8Array, from: number, dst: Uint8Array, to: number): void {
  let s = from * RECORD_SIZE;
  let d = to * RECORD_SIZE;
  for (const end = s + RECORD_SIZE; s < end; ) dst[d++] = src[s++]!;
}

/**
 * Copies the records `indices[0..count)` of `src`, in that order, to `dst` from record
 * `at` on: nine 32-bit words a record where both buffers are aligned (they are, but for a
 * pooled Buffer), bytes otherwise.
 */
export function gatherRecords(src: Uint8Array, indices: ArrayLike<number>, count: number, dst: Uint8Array, at = 0): void {
  const s32 = words(src);
  const d32 = words(dst);
  if (!s32 || !d32) {
    for (let i = 0; i < count; i++) copyRecord(src, indices[i]!, dst, at + i);
    return;
  }
  for (let i = 0, d = at * WORDS; i < count; i++, d += WORDS) {
    const s = indices[i]! * WORDS;
    d32[d] = s32[s]!;
    d32[d + 1] = s32[s + 1]!;
    d32[d + 2] = s32[s + 2]!;
    d32[d + 3] = s32[s + 3]!;
    d32[d + 4] = s32[s + 4]!;
    d32[d + 5] = s32[s + 5]!;
    d32[d + 6] = s32[s + 6]!;
    d32[d + 7] = s32[s + 7]!;
    d32[d + 8] = s32[s + 8]!;
  }
}

/** Records gathered from several buffers into one that grows (the upper levels' picked points). */
export class RecordSink {
  private bytes: Uint8Array;
  count = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity * RECORD_SIZE);
  }
  /** Appends the records `indices[0..n)` of `src`, in that order. */
  append(src: Uint8Array, indices: ArrayLike<number>, n: number): void {
    const needed = (this.count + n) * RECORD_SIZE;
    if (needed > this.bytes.length) {
      const next = new Uint8Array(Math.max(needed, this.bytes.length * 2));
      next.set(this.bytes.subarray(0, this.count * RECORD_SIZE));
      this.bytes = next;
    }
    gatherRecords(src, indices, n, this.bytes, this.count);
    this.count += n;
  }
  view(): Uint8Array {
    return this.bytes.subarray(0, this.count * RECORD_SIZE);
  }
}

/** A batch of points in the record layout: `count` records at the start of `bytes`. */
export interface RecordBatch {
  bytes: Uint8Array;
  count: number;
}

/** What a reader knows of a cloud before streaming it. */
export interface CloudInfo {
  /** Point count announced by the file (the stream is the truth: a short file fails). */
  pointCount: number;
  /** The integer coordinates' scale and offset (LAS keeps the file's own; float inputs get one chosen from the bounds). */
  quantization: Quantization;
  /** Bounds of the points (from the header for LAS/LAZ, measured for PLY/E57). */
  bounds: Bounds;
  hasColor: boolean;
  hasGpsTime: boolean;
  /** OGC WKT of the coordinate system, when the file has one. */
  wkt?: string;
  /** LAS global encoding bit 0: GPS times are adjusted standard GPS time (else GPS week time). */
  gpsTimeStandard?: boolean;
}
