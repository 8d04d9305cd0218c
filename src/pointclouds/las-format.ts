// LAS 1.0–1.4 public header blocks and variable-length records (ASPRS LAS 1.4 R15), and
// the conversion of every point data record format to the pipeline's record layout
// (record.ts). Pure functions over bytes; the file reading is in readers/las.ts.
import { PointCloudError } from './errors.ts';
import { RECORD_SIZE } from './record.ts';

export const LAS_HEADER_14_SIZE = 375;
export const VLR_HEADER_SIZE = 54;
export const EVLR_HEADER_SIZE = 60;

export interface LasHeader {
  versionMajor: number;
  versionMinor: number;
  headerSize: number;
  pointDataOffset: number;
  vlrCount: number;
  /** The point data record format without the compression bits (0–10). */
  pointFormat: number;
  /** True when bit 7 (or 6) of the format byte marks LAZ compression. */
  compressed: boolean;
  recordLength: number;
  pointCount: number;
  scale: [number, number, number];
  offset: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
  evlrOffset: number;
  evlrCount: number;
  globalEncoding: number;
}

export interface Vlr {
  userId: string;
  recordId: number;
  /** Absolute offset of the record's data in the file. */
  dataOffset: number;
  dataLength: number;
  extended: boolean;
}

const cString = (bytes: Uint8Array) => {
  const end = bytes.indexOf(0);
  return new TextDecoder('latin1').decode(end < 0 ? bytes : bytes.subarray(0, end));
};

/** Point data record formats' minimum lengths (extra bytes may follow). */
export const BASE_RECORD_LENGTH = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67] as const;

export function parseLasHeader(bytes: Uint8Array, fileName: string): LasHeader {
  if (bytes.length < 4 || cString(bytes.subarray(0, 4)) !== 'LASF') {
    throw new PointCloudError('not_las', `${fileName} is not a LAS/LAZ file: it does not start with the "LASF" signature`);
  }
  if (bytes.length < 227) throw new PointCloudError('truncated', `${fileName}: the LAS header is cut short (${bytes.length} bytes)`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const versionMajor = v.getUint8(24);
  const versionMinor = v.getUint8(25);
  if (versionMajor !== 1 || versionMinor > 4) {
    throw new PointCloudError('unsupported', `${fileName}: LAS version ${versionMajor}.${versionMinor} is not supported (1.0 to 1.4 are)`);
  }
  const headerSize = v.getUint16(94, true);
  const formatByte = v.getUint8(104);
  const pointFormat = formatByte & 0x3f;
  const compressed = (formatByte & 0xc0) !== 0;
  if (pointFormat > 10) throw new PointCloudError('unsupported', `${fileName}: point data record format ${pointFormat} does not exist in LAS 1.4`);
  const recordLength = v.getUint16(105, true);
  if (recordLength < BASE_RECORD_LENGTH[pointFormat]!) {
    throw new PointCloudError('corrupt', `${fileName}: point records of ${recordLength} bytes are too short for format ${pointFormat}`);
  }
  let pointCount = v.getUint32(107, true);
  let evlrOffset = 0;
  let evlrCount = 0;
  if (versionMinor >= 4 && headerSize >= LAS_HEADER_14_SIZE && bytes.length >= LAS_HEADER_14_SIZE) {
    evlrOffset = Number(v.getBigUint64(235, true));
    evlrCount = v.getUint32(243, true);
    const count64 = Number(v.getBigUint64(247, true));
    if (count64 > 0 || pointCount === 0) pointCount = count64;
  }
  const f64 = (o: number) => v.getFloat64(o, true);
  const header: LasHeader = {
    versionMajor,
    versionMinor,
    headerSize,
    pointDataOffset: v.getUint32(96, true),
    vlrCount: v.getUint32(100, true),
    pointFormat,
    compressed,
    recordLength,
    pointCount,
    scale: [f64(131), f64(139), f64(147)],
    offset: [f64(155), f64(163), f64(171)],
    max: [f64(179), f64(195), f64(211)],
    min: [f64(187), f64(203), f64(219)],
    evlrOffset,
    evlrCount,
    globalEncoding: v.getUint16(6, true),
  };
  if (header.scale.some((s) => !(s > 0) || !Number.isFinite(s))) throw new PointCloudError('corrupt', `${fileName}: the header's scale factors are not positive numbers`);
  if (header.pointDataOffset < headerSize) throw new PointCloudError('corrupt', `${fileName}: the point data starts inside the header`);
  return header;
}

/** Walks the VLRs that follow the header (`bytes` holds the file from 0 to the point data). */
export function parseVlrs(bytes: Uint8Array, header: LasHeader, fileName: string): Vlr[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vlrs: Vlr[] = [];
  let o = header.headerSize;
  for (let i = 0; i < header.vlrCount; i++) {
    if (o + VLR_HEADER_SIZE > bytes.length) throw new PointCloudError('corrupt', `${fileName}: variable-length record ${i + 1} runs past the point data`);
    const dataLength = v.getUint16(o + 20, true);
    vlrs.push({
      userId: cString(bytes.subarray(o + 2, o + 18)),
      recordId: v.getUint16(o + 18, true),
      dataOffset: o + VLR_HEADER_SIZE,
      dataLength,
      extended: false,
    });
    o += VLR_HEADER_SIZE + dataLength;
  }
  return vlrs;
}

/** Parses the EVLR headers held in `bytes` (the file from `start` on). */
export function parseEvlrs(bytes: Uint8Array, start: number, count: number): Vlr[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Vlr[] = [];
  let o = 0;
  for (let i = 0; i < count && o + EVLR_HEADER_SIZE <= bytes.length; i++) {
    const dataLength = Number(v.getBigUint64(o + 20, true));
    out.push({ userId: cString(bytes.subarray(o + 2, o + 18)), recordId: v.getUint16(o + 18, true), dataOffset: start + o + EVLR_HEADER_SIZE, dataLength, extended: true });
    o += EVLR_HEADER_SIZE + dataLength;
  }
  return out;
}

/** The LASzip VLR ("laszip encoded", 22204): compressor, chunk size and items. */
export interface LazInfo {
  compressor: number;
  chunkSize: number;
  items: { type: number; size: number; version: number }[];
}

export function parseLazVlr(data: Uint8Array, fileName: string): LazInfo {
  if (data.length < 34) throw new PointCloudError('corrupt', `${fileName}: the LASzip record is cut short`);
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = v.getUint16(32, true);
  const items = [];
  for (let i = 0; i < count && 34 + i * 6 + 6 <= data.length; i++) {
    items.push({ type: v.getUint16(34 + i * 6, true), size: v.getUint16(36 + i * 6, true), version: v.getUint16(38 + i * 6, true) });
  }
  return { compressor: v.getUint16(0, true), chunkSize: v.getUint32(12, true), items };
}

/**
 * Converts `count` records of `format` (each `recordLength` bytes, at `src`) to the
 * pipeline layout in `dst` (RECORD_SIZE each). Formats 0–5 map their fields to the LAS 1.4
 * ones (3-bit returns to 4-bit, the classification byte's flags to the flag byte, the scan
 * angle rank in degrees to 0.006° units); 6–10 copy point 14 and RGB; NIR, waveform packets
 * and extra bytes are not carried.
 */
/** Format 7 without extra bytes is the pipeline's own layout (record.ts): its records need no conversion. */
export const isRecordLayout = (format: number, recordLength: number) => format === 7 && recordLength === RECORD_SIZE;

export function toRecords(format: number, recordLength: number, src: Uint8Array, count: number, dst: Uint8Array): void {
  if (isRecordLayout(format, recordLength)) {
    // The pipeline's own layout: one copy.
    dst.set(src.subarray(0, count * RECORD_SIZE));
    return;
  }
  const s = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const d = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  const legacy = format <= 5;
  const gpsAt = format === 1 || format === 3 || format === 4 || format === 5 ? 20 : -1;
  const rgbAt = format === 2 ? 20 : format === 3 || format === 5 ? 28 : format === 7 || format === 8 || format === 10 ? 30 : -1;
  // Byte loops, not a subarray() per point: no allocation per point.
  for (let i = 0; i < count; i++) {
    const so = i * recordLength;
    const o = i * RECORD_SIZE;
    if (legacy) {
      for (let k = 0; k < 14; k++) dst[o + k] = src[so + k]!; // X, Y, Z, intensity
      const b = src[so + 14]!;
      const cls = src[so + 15]!;
      dst[o + 14] = (b & 7) | (((b >>> 3) & 7) << 4);
      dst[o + 15] = ((cls >>> 5) & 7) | (b & 0xc0);
      dst[o + 16] = cls & 31;
      dst[o + 17] = src[so + 17]!;
      d.setInt16(o + 18, Math.round(s.getInt8(so + 16) / 0.006), true);
      d.setUint16(o + 20, s.getUint16(so + 18, true), true);
      d.setFloat64(o + 22, gpsAt >= 0 ? s.getFloat64(so + gpsAt, true) : 0, true);
    } else for (let k = 0; k < 30; k++) dst[o + k] = src[so + k]!;
    if (rgbAt >= 0) for (let k = 0; k < 6; k++) dst[o + 30 + k] = src[so + rgbAt + k]!;
    else for (let k = 30; k < 36; k++) dst[o + k] = 0;
  }
}

export const formatHasColor = (format: number) => [2, 3, 5, 7, 8, 10].includes(format);
export const formatHasGpsTime = (format: number) => format !== 0 && format !== 2;

export interface LasHeaderFields {
  pointFormat: number;
  recordLength: number;
  compressed: boolean;
  pointCount: number;
  pointsByReturn: number[];
  scale: [number, number, number];
  offset: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
  pointDataOffset: number;
  vlrCount: number;
  evlrOffset: number;
  evlrCount: number;
  /** Bit 4 (WKT) is required with formats 6–10. */
  globalEncoding: number;
  generatingSoftware: string;
}

/** A LAS 1.4 header block (375 bytes). */
export function writeLas14Header(h: LasHeaderFields): Uint8Array {
  const bytes = new Uint8Array(LAS_HEADER_14_SIZE);
  const v = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('LASF'), 0);
  v.setUint16(6, h.globalEncoding, true);
  v.setUint8(24, 1);
  v.setUint8(25, 4);
  bytes.set(new TextEncoder().encode('OTHER'), 26);
  bytes.set(new TextEncoder().encode(h.generatingSoftware).subarray(0, 31), 58);
  const now = new Date();
  const dayOfYear = Math.floor((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - Date.UTC(now.getUTCFullYear(), 0, 0)) / 86400000);
  v.setUint16(90, dayOfYear, true);
  v.setUint16(92, now.getUTCFullYear(), true);
  v.setUint16(94, LAS_HEADER_14_SIZE, true);
  v.setUint32(96, h.pointDataOffset, true);
  v.setUint32(100, h.vlrCount, true);
  v.setUint8(104, h.pointFormat | (h.compressed ? 0x80 : 0));
  v.setUint16(105, h.recordLength, true);
  // Formats 6–10 set the legacy counts to 0 (LAS 1.4 R15 §2.4).
  v.setUint32(107, h.pointFormat <= 5 && h.pointCount <= 0xffffffff ? h.pointCount : 0, true);
  for (let i = 0; i < 3; i++) {
    v.setFloat64(131 + i * 8, h.scale[i]!, true);
    v.setFloat64(155 + i * 8, h.offset[i]!, true);
    v.setFloat64(179 + i * 16, h.max[i]!, true);
    v.setFloat64(187 + i * 16, h.min[i]!, true);
  }
  v.setBigUint64(227, 0n, true);
  v.setBigUint64(235, BigInt(h.evlrOffset), true);
  v.setUint32(243, h.evlrCount, true);
  v.setBigUint64(247, BigInt(h.pointCount), true);
  for (let i = 0; i < 15; i++) v.setBigUint64(255 + i * 8, BigInt(h.pointsByReturn[i] ?? 0), true);
  return bytes;
}

/** A VLR header (54 bytes) followed by its data. */
export function vlrBytes(userId: string, recordId: number, description: string, data: Uint8Array): Uint8Array {
  if (data.length > 0xffff) throw new Error(`VLR ${userId}/${recordId}: ${data.length} bytes is more than a VLR holds`);
  const out = new Uint8Array(VLR_HEADER_SIZE + data.length);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode(userId).subarray(0, 16), 2);
  v.setUint16(18, recordId, true);
  v.setUint16(20, data.length, true);
  out.set(new TextEncoder().encode(description).subarray(0, 32), 22);
  out.set(data, VLR_HEADER_SIZE);
  return out;
}

/** An EVLR header (60 bytes) for `length` bytes of data. */
export function evlrHeader(userId: string, recordId: number, description: string, length: number): Uint8Array {
  const out = new Uint8Array(EVLR_HEADER_SIZE);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode(userId).subarray(0, 16), 2);
  v.setUint16(18, recordId, true);
  v.setBigUint64(20, BigInt(length), true);
  out.set(new TextEncoder().encode(description).subarray(0, 32), 28);
  return out;
}
