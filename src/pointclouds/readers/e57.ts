// E57 (ASTM E2807), streamed. No maintained E57 library runs in Node here (libE57Format has
// no Node binding and Debian ships none; the one npm WASM build converts a whole file held in
// memory), so this reader follows the standard: the header, the paged file with a CRC-32C per
// page (checked on every page read: a corrupt page fails with reason "checksum"), the XML
// section (fast-xml-parser), and each scan's compressed vector: data packets of one byte
// stream per prototype field, bit-packed integers, scaled integers, single and double floats.
// Cartesian or spherical coordinates, invalid states, intensity and colour (normalised with
// the scan's limits), return index/count, time stamps; several scans, each moved by its pose
// (rotation quaternion, then translation). Index and empty packets are skipped.
//
// Output: one cloud in the file's (posed) frame; each point's point source ID is its scan's
// number (1, 2, …) so scans stay apart. The bounds (which set the quantization) are the
// XML's when it bounds every scan (posed from each scan's own frame), else a first pass
// measures them; a point beyond declared bounds makes the converter measure and read again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { PointCloudError } from '../errors.ts';
import { emptyBounds, growBounds, RECORD_SIZE, type Bounds, type CloudInfo, type RecordBatch } from '../record.ts';
import {
  CRC_SIZE, CV_SECTION_HEADER_SIZE, DATA_PACKET, EMPTY_PACKET, INDEX_PACKET, crc32c, parseE57Header, physicalToLogical, type E57Header,
} from './e57-format.ts';
import { quantizationFor } from './ply.ts';
import { DEFAULT_BATCH_POINTS, DeclaredBoundsExceeded, type PointCloudReader } from './reader.ts';

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

function toNodes(items: unknown[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of items as Record<string, unknown>[]) {
    const name = Object.keys(item).find((k) => k !== ':@');
    if (!name || name === '#text' || name === '#cdata' || name === '?xml') continue;
    const content = (item[name] as unknown[]) ?? [];
    const text = content
      .map((c) => {
        const r = c as Record<string, unknown>;
        if ('#text' in r) return String(r['#text']);
        if ('#cdata' in r) return (r['#cdata'] as Record<string, unknown>[]).map((t) => String(t['#text'] ?? '')).join('');
        return '';
      })
      .join('');
    out.push({ name, attrs: (item[':@'] as Record<string, string>) ?? {}, children: toNodes(content), text: text.trim() });
  }
  return out;
}

const child = (n: XmlNode | undefined, name: string) => n?.children.find((c) => c.name === name);
const num = (n: XmlNode | undefined, fallback: number) => (n && n.text !== '' ? Number(n.text) : fallback);

type FieldName =
  | 'cartesianX' | 'cartesianY' | 'cartesianZ' | 'cartesianInvalidState'
  | 'sphericalRange' | 'sphericalAzimuth' | 'sphericalElevation' | 'sphericalInvalidState'
  | 'intensity' | 'isIntensityInvalid' | 'colorRed' | 'colorGreen' | 'colorBlue' | 'isColorInvalid'
  | 'returnIndex' | 'returnCount' | 'timeStamp' | 'isTimeStampInvalid';

interface Field {
  name: string;
  kind: 'float' | 'double' | 'integer' | 'scaled';
  bits: number;
  min: number;
  max: number;
  scale: number;
  offset: number;
}

interface Scan {
  index: number;
  name: string;
  recordCount: number;
  fileOffset: number;
  fields: Field[];
  rotation: [number, number, number, number];
  translation: [number, number, number];
  intensityLimits: [number, number] | null;
  colorLimits: [[number, number], [number, number], [number, number]] | null;
  /**
   * Where the scan's points are in the file's frame, from its XML (cartesianBounds, or
   * sphericalBounds' maximum range), posed; null when the XML does not bound every kind of
   * coordinate the scan holds (both elements are optional in E57).
   */
  declaredBox: Bounds | null;
}

function parseField(n: XmlNode, fileName: string): Field {
  const type = n.attrs.type;
  const attr = (name: string, fallback: number) => (n.attrs[name] !== undefined ? Number(n.attrs[name]) : fallback);
  if (type === 'Float') {
    const single = n.attrs.precision === 'single';
    return { name: n.name, kind: single ? 'float' : 'double', bits: single ? 32 : 64, min: attr('minimum', -Infinity), max: attr('maximum', Infinity), scale: 1, offset: 0 };
  }
  if (type === 'Integer' || type === 'ScaledInteger') {
    const min = attr('minimum', -(2 ** 63));
    const max = attr('maximum', 2 ** 63 - 1);
    if (!(max >= min)) throw new PointCloudError('corrupt', `${fileName}: E57 field ${n.name} has minimum ${min} above maximum ${max}`);
    const range = max - min;
    const bits = range > 0 ? Math.floor(Math.log2(range)) + 1 : 0;
    return { name: n.name, kind: type === 'Integer' ? 'integer' : 'scaled', bits, min, max, scale: attr('scale', 1), offset: attr('offset', 0) };
  }
  throw new PointCloudError('unsupported', `${fileName}: E57 field ${n.name} of type ${type} is not a number type`);
}

const PROTOTYPE_TAG = 'prototype_';

function parseScans(xml: string, fileName: string): Scan[] {
  let parsed: unknown[];
  try {
    parsed = new XMLParser({
      ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, parseTagValue: false, parseAttributeValue: false, cdataPropName: '#cdata', trimValues: true,
      // The parser refuses a tag named "prototype" (an object-key hazard); E57 has one.
      transformTagName: (name: string) => (name === 'prototype' ? PROTOTYPE_TAG : name),
    }).parse(xml) as unknown[];
  } catch (e) {
    throw new PointCloudError('corrupt', `${fileName}: the E57 XML section does not parse (${(e as Error).message})`);
  }
  const root = toNodes(parsed).find((n) => n.name === 'e57Root');
  if (!root) throw new PointCloudError('corrupt', `${fileName}: the E57 XML section has no e57Root`);
  const data3D = child(root, 'data3D');
  const scans: Scan[] = [];
  for (const [index, scan] of (data3D?.children ?? []).filter((c) => c.name === 'vectorChild').entries()) {
    const points = child(scan, 'points');
    if (!points || points.attrs.type !== 'CompressedVector') throw new PointCloudError('corrupt', `${fileName}: E57 scan ${index + 1} has no points`);
    const prototype = child(points, PROTOTYPE_TAG);
    const fields = (prototype?.children ?? []).map((f) => parseField(f, fileName));
    const pose = child(scan, 'pose');
    const rot = child(pose, 'rotation');
    const tr = child(pose, 'translation');
    const il = child(scan, 'intensityLimits');
    const cl = child(scan, 'colorLimits');
    const rotation: Scan['rotation'] = [num(child(rot, 'w'), 1), num(child(rot, 'x'), 0), num(child(rot, 'y'), 0), num(child(rot, 'z'), 0)];
    const translation: Scan['translation'] = [num(child(tr, 'x'), 0), num(child(tr, 'y'), 0), num(child(tr, 'z'), 0)];
    scans.push({
      index,
      name: child(scan, 'name')?.text ?? `scan ${index + 1}`,
      recordCount: Number(points.attrs.recordCount ?? 0),
      fileOffset: Number(points.attrs.fileOffset ?? 0),
      fields,
      rotation,
      translation,
      intensityLimits: il ? [num(child(il, 'intensityMinimum'), 0), num(child(il, 'intensityMaximum'), 1)] : null,
      colorLimits: cl
        ? [
            [num(child(cl, 'colorRedMinimum'), 0), num(child(cl, 'colorRedMaximum'), 255)],
            [num(child(cl, 'colorGreenMinimum'), 0), num(child(cl, 'colorGreenMaximum'), 255)],
            [num(child(cl, 'colorBlueMinimum'), 0), num(child(cl, 'colorBlueMaximum'), 255)],
          ]
        : null,
      declaredBox: declaredBox(fields, child(scan, 'cartesianBounds'), child(scan, 'sphericalBounds'), rotation, translation),
    });
  }
  return scans;
}

/** Reads logical bytes of the paged file, checking each page's CRC-32C; sequential reads are served from a block of pages. */
class PagedFile {
  private readonly fh: fs.FileHandle;
  private readonly header: E57Header;
  private readonly fileName: string;
  private readonly pages: number;
  private blockStart = -1;
  private blockPages = 0;
  private block = new Uint8Array(0);
  private static readonly BLOCK_PAGES = 1024;

  constructor(fh: fs.FileHandle, header: E57Header, fileName: string) {
    this.fh = fh;
    this.header = header;
    this.fileName = fileName;
    this.pages = Math.floor(header.physicalLength / header.pageSize);
  }

  private get data(): number {
    return this.header.pageSize - CRC_SIZE;
  }

  private async loadBlock(page: number): Promise<void> {
    const size = this.header.pageSize;
    const count = Math.min(PagedFile.BLOCK_PAGES, this.pages - page);
    if (count <= 0) throw new PointCloudError('truncated', `${this.fileName}: E57 data runs past the end of the file (page ${page})`);
    const raw = new Uint8Array(count * size);
    const { bytesRead } = await this.fh.read(raw, 0, raw.length, page * size);
    if (bytesRead < raw.length) throw new PointCloudError('truncated', `${this.fileName} is cut short: E57 page ${page + Math.floor(bytesRead / size)} is missing`);
    const data = new Uint8Array(count * this.data);
    for (let p = 0; p < count; p++) {
      const o = p * size;
      const stored = ((raw[o + size - 4]! << 24) | (raw[o + size - 3]! << 16) | (raw[o + size - 2]! << 8) | raw[o + size - 1]!) >>> 0;
      if (crc32c(raw, o, o + this.data) !== stored) {
        throw new PointCloudError('checksum', `${this.fileName}: E57 page ${page + p} (bytes ${(page + p) * size}–${(page + p + 1) * size - 1}) fails its CRC-32C check: the file is corrupt`);
      }
      data.set(raw.subarray(o, o + this.data), p * this.data);
    }
    this.block = data;
    this.blockStart = page;
    this.blockPages = count;
  }

  /** `length` logical bytes from logical offset `offset`. */
  async read(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const logical = offset + done;
      const page = Math.floor(logical / this.data);
      if (page < this.blockStart || page >= this.blockStart + this.blockPages) await this.loadBlock(page);
      const at = logical - this.blockStart * this.data;
      const n = Math.min(length - done, this.block.length - at);
      out.set(this.block.subarray(at, at + n), done);
      done += n;
    }
    return out;
  }

  logicalOf(physical: number): number {
    if (physical % this.header.pageSize >= this.data) throw new PointCloudError('corrupt', `${this.fileName}: E57 offset ${physical} points into a page checksum`);
    return physicalToLogical(physical, this.header.pageSize);
  }
}

/**
 * A field's byte stream across packets: bytes appended, values taken LSB-first, a column
 * at a time (integer reads of up to five bytes, no per-value allocation). The buffer keeps
 * PAD zero bytes past its end so that a read of the last value's neighbours stays in bounds.
 */
class BitStream {
  private static readonly PAD = 8;
  private bytes = new Uint8Array(BitStream.PAD);
  private length = 0;
  private bit = 0;
  append(chunk: Uint8Array): void {
    const start = this.bit >>> 3;
    const rest = this.length - start;
    const need = rest + chunk.length + BitStream.PAD;
    if (need > this.bytes.length || start > 0) {
      const next = need > this.bytes.length ? new Uint8Array(Math.max(need, this.bytes.length * 2)) : this.bytes;
      if (next === this.bytes) next.copyWithin(0, start, this.length);
      else next.set(this.bytes.subarray(start, this.length));
      this.bytes = next;
    }
    this.bytes.set(chunk, rest);
    this.length = rest + chunk.length;
    this.bytes.fill(0, this.length, this.length + BitStream.PAD);
    this.bit -= start * 8;
  }
  available(bits: number): number {
    return bits ? Math.floor((this.length * 8 - this.bit) / bits) : Infinity;
  }
  /** The next `bits` (≤ 32) bits as an unsigned integer. */
  private take32(bits: number): number {
    const b = this.bytes;
    const byte = this.bit >>> 3;
    const shift = this.bit & 7;
    let v = (b[byte]! | (b[byte + 1]! << 8) | (b[byte + 2]! << 16) | (b[byte + 3]! << 24)) >>> 0;
    if (shift) v = ((v >>> shift) | (b[byte + 4]! << (32 - shift))) >>> 0;
    this.bit += bits;
    return bits >= 32 ? v : (v & (0xffffffff >>> (32 - bits))) >>> 0;
  }
  /** An unsigned value of `bits` bits (exact up to 53 bits). */
  take(bits: number): number {
    if (bits <= 32) return this.take32(bits);
    const low = this.take32(32);
    return low + this.take32(bits - 32) * 4294967296;
  }
  /** `n` values of `bits` bits into `out`, each as (value + min) × scale + offset. */
  takeColumn(bits: number, n: number, out: Float64Array, min: number, scale: number, offset: number): void {
    const identity = scale === 1 && offset === 0;
    if (bits <= 32) {
      for (let r = 0; r < n; r++) {
        const v = this.take32(bits) + min;
        out[r] = identity ? v : v * scale + offset;
      }
    } else {
      for (let r = 0; r < n; r++) {
        const v = this.take(bits) + min;
        out[r] = identity ? v : v * scale + offset;
      }
    }
  }
  /** `n` IEEE floats (single or double) into `out`. */
  takeFloats(double: boolean, n: number, out: Float64Array): void {
    const size = double ? 8 : 4;
    if ((this.bit & 7) === 0) {
      const v = new DataView(this.bytes.buffer, this.bytes.byteOffset + (this.bit >>> 3), n * size);
      if (double) for (let r = 0; r < n; r++) out[r] = v.getFloat64(r * 8, true);
      else for (let r = 0; r < n; r++) out[r] = v.getFloat32(r * 4, true);
      this.bit += n * size * 8;
      return;
    }
    const tmp = new Uint8Array(size);
    const v = new DataView(tmp.buffer);
    for (let r = 0; r < n; r++) {
      for (let i = 0; i < size; i++) tmp[i] = this.take32(8);
      out[r] = double ? v.getFloat64(0, true) : v.getFloat32(0, true);
    }
  }
}

/** The values of one scan, record by record, as a map of field name → Float64Array column. */
type Columns = Map<string, Float64Array>;

async function* scanColumns(file: PagedFile, scan: Scan, fileName: string, maxRecords: number): AsyncGenerator<{ columns: Columns; count: number }> {
  if (scan.recordCount === 0) return;
  const sectionAt = file.logicalOf(scan.fileOffset);
  const section = await file.read(sectionAt, CV_SECTION_HEADER_SIZE);
  const sv = new DataView(section.buffer);
  if (section[0] !== 1) throw new PointCloudError('corrupt', `${fileName}: E57 scan "${scan.name}": no compressed vector section at offset ${scan.fileOffset}`);
  let at = file.logicalOf(Number(sv.getBigUint64(16, true)));
  const streams = scan.fields.map(() => new BitStream());
  let decoded = 0;
  while (decoded < scan.recordCount) {
    const head = await file.read(at, 4);
    const type = head[0]!;
    const length = (head[2]! | (head[3]! << 8)) + 1;
    if (type === DATA_PACKET) {
      const packet = await file.read(at, length);
      const pv = new DataView(packet.buffer);
      const count = pv.getUint16(4, true);
      if (count !== scan.fields.length) {
        throw new PointCloudError('corrupt', `${fileName}: E57 scan "${scan.name}": a data packet has ${count} byte streams, the prototype ${scan.fields.length} fields`);
      }
      let o = 6 + count * 2;
      for (let s = 0; s < count; s++) {
        const n = pv.getUint16(6 + s * 2, true);
        if (o + n > packet.length) throw new PointCloudError('corrupt', `${fileName}: E57 scan "${scan.name}": a data packet's streams overrun it`);
        streams[s]!.append(packet.subarray(o, o + n));
        o += n;
      }
      // Records complete in every stream (a 0-bit field is constant and always complete).
      let ready = Math.min(scan.recordCount - decoded, ...scan.fields.map((f, i) => (f.kind === 'float' ? streams[i]!.available(32) : f.kind === 'double' ? streams[i]!.available(64) : streams[i]!.available(f.bits))));
      while (ready > 0) {
        const n = Math.min(ready, maxRecords);
        const columns: Columns = new Map();
        scan.fields.forEach((f, i) => {
          const col = new Float64Array(n);
          const s = streams[i]!;
          if (f.kind === 'float' || f.kind === 'double') s.takeFloats(f.kind === 'double', n, col);
          else if (f.bits === 0) col.fill(f.kind === 'scaled' ? f.min * f.scale + f.offset : f.min);
          else if (f.kind === 'integer') s.takeColumn(f.bits, n, col, f.min, 1, 0);
          else s.takeColumn(f.bits, n, col, f.min, f.scale, f.offset);
          columns.set(f.name, col);
        });
        decoded += n;
        ready -= n;
        yield { columns, count: n };
      }
    } else if (type !== INDEX_PACKET && type !== EMPTY_PACKET) {
      throw new PointCloudError('corrupt', `${fileName}: E57 scan "${scan.name}": unknown packet type ${type} at logical offset ${at}`);
    }
    at += length;
    at += (4 - (at % 4)) % 4;
  }
}

/** Rotation (unit quaternion w, x, y, z) as a 3×3 matrix, row-major. */
function rotationMatrix([w, x, y, z]: [number, number, number, number]): number[] {
  const n = Math.hypot(w, x, y, z) || 1;
  [w, x, y, z] = [w / n, x / n, y / n, z / n];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

const hasAll = (fields: Field[], names: string[]) => names.every((n) => fields.some((f) => f.name === n));

/** Which positions a scan's records hold (a record uses its cartesian one unless invalid). */
const coordinatesOf = (fields: Field[]) => ({
  cartesian: hasAll(fields, ['cartesianX', 'cartesianY', 'cartesianZ']),
  spherical: hasAll(fields, ['sphericalRange', 'sphericalAzimuth', 'sphericalElevation']),
});

/**
 * A scan's XML bounds as a box in the file's frame (its eight corners posed), or null when
 * a kind of coordinate the scan holds has no bounds (or malformed ones). The bounds are in
 * the scan's own frame (E57 8.4.3); spherical ones bound the range, so the box is the cube
 * of that radius around the scanner.
 */
function declaredBox(fields: Field[], cartesian: XmlNode | undefined, spherical: XmlNode | undefined, rotation: Scan['rotation'], translation: Scan['translation']): Bounds | null {
  const { cartesian: holdsCartesian, spherical: holdsSpherical } = coordinatesOf(fields);
  if (!holdsCartesian && !holdsSpherical) return null;
  const local = emptyBounds();
  if (holdsCartesian) {
    const [x0, y0, z0, x1, y1, z1] = ['xMinimum', 'yMinimum', 'zMinimum', 'xMaximum', 'yMaximum', 'zMaximum'].map((n) => num(child(cartesian, n), NaN)) as [number, number, number, number, number, number];
    if (![x0, y0, z0, x1, y1, z1].every(Number.isFinite) || x0 > x1 || y0 > y1 || z0 > z1) return null;
    growBounds(local, x0, y0, z0);
    growBounds(local, x1, y1, z1);
  }
  if (holdsSpherical) {
    const range = num(child(spherical, 'rangeMaximum'), NaN);
    if (!(Number.isFinite(range) && range >= 0)) return null;
    growBounds(local, -range, -range, -range);
    growBounds(local, range, range, range);
  }
  const m = rotationMatrix(rotation);
  const [tx, ty, tz] = translation;
  const posed = emptyBounds();
  for (const x of [local.min[0], local.max[0]])
    for (const y of [local.min[1], local.max[1]])
      for (const z of [local.min[2], local.max[2]]) growBounds(posed, m[0]! * x + m[1]! * y + m[2]! * z + tx, m[3]! * x + m[4]! * y + m[5]! * z + ty, m[6]! * x + m[7]! * y + m[8]! * z + tz);
  return posed;
}

interface PosedPoint {
  x: number;
  y: number;
  z: number;
  intensity: number;
  r: number;
  g: number;
  b: number;
  returnNumber: number;
  numberOfReturns: number;
  time: number;
}

/** Walks a scan's valid points, posed (intensity and colour normalised to 16 bits); yields after each block of records. */
async function* walkScan(file: PagedFile, scan: Scan, fileName: string, onPoint: (p: PosedPoint) => void): AsyncGenerator<void> {
  const { cartesian, spherical } = coordinatesOf(scan.fields);
  if (!cartesian && !spherical) throw new PointCloudError('unsupported', `${fileName}: E57 scan "${scan.name}" has neither cartesian nor spherical coordinates`);
  const m = rotationMatrix(scan.rotation);
  const [tx, ty, tz] = scan.translation;
  const field = (name: string) => scan.fields.find((f) => f.name === name);
  const limits = (name: string, fromXml: [number, number] | null | undefined): [number, number] => {
    if (fromXml && fromXml[1] > fromXml[0]) return fromXml;
    const f = field(name);
    if (f && Number.isFinite(f.min) && Number.isFinite(f.max) && f.max > f.min) return f.kind === 'scaled' ? [f.min * f.scale + f.offset, f.max * f.scale + f.offset] : [f.min, f.max];
    return [0, 1];
  };
  const il = limits('intensity', scan.intensityLimits);
  const cls = ['colorRed', 'colorGreen', 'colorBlue'].map((n, i) => limits(n, scan.colorLimits?.[i]));
  const to16 = (v: number, [lo, hi]: [number, number]) => Math.max(0, Math.min(65535, Math.round(((v - lo) / (hi - lo)) * 65535)));
  const p: PosedPoint = { x: 0, y: 0, z: 0, intensity: 0, r: 0, g: 0, b: 0, returnNumber: 1, numberOfReturns: 1, time: 0 };
  for await (const { columns, count } of scanColumns(file, scan, fileName, 65_536)) {
    const col = (n: FieldName) => columns.get(n);
    const [cx, cy, cz, cInvalid] = [col('cartesianX'), col('cartesianY'), col('cartesianZ'), col('cartesianInvalidState')];
    const [sr, sa, se, sInvalid] = [col('sphericalRange'), col('sphericalAzimuth'), col('sphericalElevation'), col('sphericalInvalidState')];
    const [inten, intenInvalid] = [col('intensity'), col('isIntensityInvalid')];
    const [red, green, blue, colorInvalid] = [col('colorRed'), col('colorGreen'), col('colorBlue'), col('isColorInvalid')];
    const [ri, rc, ts] = [col('returnIndex'), col('returnCount'), col('timeStamp')];
    for (let i = 0; i < count; i++) {
      let x: number;
      let y: number;
      let z: number;
      if (cartesian && !(cInvalid && cInvalid[i]! !== 0)) {
        x = cx![i]!;
        y = cy![i]!;
        z = cz![i]!;
      } else if (spherical && !(sInvalid && sInvalid[i]! !== 0)) {
        const r = sr![i]!;
        const az = sa![i]!;
        const el = se![i]!;
        x = r * Math.cos(el) * Math.cos(az);
        y = r * Math.cos(el) * Math.sin(az);
        z = r * Math.sin(el);
      } else continue; // no position (invalid, or a direction only)
      p.x = m[0]! * x + m[1]! * y + m[2]! * z + tx;
      p.y = m[3]! * x + m[4]! * y + m[5]! * z + ty;
      p.z = m[6]! * x + m[7]! * y + m[8]! * z + tz;
      p.intensity = inten && !(intenInvalid && intenInvalid[i]) ? to16(inten[i]!, il) : 0;
      const colored = red && green && blue && !(colorInvalid && colorInvalid[i]);
      p.r = colored ? to16(red[i]!, cls[0]!) : 0;
      p.g = colored ? to16(green![i]!, cls[1]!) : 0;
      p.b = colored ? to16(blue![i]!, cls[2]!) : 0;
      p.numberOfReturns = rc ? Math.max(1, Math.min(15, rc[i]!)) : 1;
      p.returnNumber = ri ? Math.max(1, Math.min(15, ri[i]! + 1)) : 1;
      p.time = ts ? ts[i]! : 0;
      onPoint(p);
    }
    yield;
  }
}

class E57Reader implements PointCloudReader {
  readonly format = 'e57' as const;
  info!: CloudInfo;
  /** `info` is what the XML declares, unchecked against the points. */
  unchecked = false;
  readonly scans: Scan[];
  private readonly file: PagedFile;
  private readonly fh: fs.FileHandle;
  private readonly fileName: string;

  constructor(fh: fs.FileHandle, file: PagedFile, scans: Scan[], fileName: string) {
    this.fh = fh;
    this.file = file;
    this.scans = scans;
    this.fileName = fileName;
  }

  /**
   * What the XML says when it bounds every scan (one pass over the points saved: the
   * converter's count pass is then the only decode before the spill), else measure().
   * The count is then the announced one (records with no valid position included).
   */
  describe(): boolean {
    const boxes = this.scans.map((s) => s.declaredBox);
    if (!boxes.every((b): b is Bounds => b !== null)) return false;
    const bounds = emptyBounds();
    for (const b of boxes) {
      growBounds(bounds, ...b.min);
      growBounds(bounds, ...b.max);
    }
    this.info = { ...this.features(), pointCount: this.scans.reduce((n, s) => n + s.recordCount, 0), quantization: quantizationFor(bounds), bounds };
    this.unchecked = true;
    return true;
  }

  private features(): Pick<CloudInfo, 'hasColor' | 'hasGpsTime'> {
    return {
      hasColor: this.scans.some((s) => hasAll(s.fields, ['colorRed', 'colorGreen', 'colorBlue'])),
      hasGpsTime: this.scans.some((s) => s.fields.some((f) => f.name === 'timeStamp')),
    };
  }

  async measure(): Promise<void> {
    const bounds = emptyBounds();
    let count = 0;
    for (const scan of this.scans) {
      const points = walkScan(this.file, scan, this.fileName, (p) => {
        growBounds(bounds, p.x, p.y, p.z);
        count++;
      });
      for await (const _ of points);
    }
    this.info = { ...this.features(), pointCount: count, quantization: quantizationFor(bounds), bounds };
    this.unchecked = false;
  }

  async *batches(batchPoints = DEFAULT_BATCH_POINTS): AsyncGenerator<RecordBatch> {
    const q = this.info.quantization;
    let bytes = new Uint8Array(batchPoints * RECORD_SIZE);
    let view = new DataView(bytes.buffer);
    let n = 0;
    for (const scan of this.scans) {
      const source = scan.index + 1;
      const ready: RecordBatch[] = [];
      const points = walkScan(this.file, scan, this.fileName, (p) => {
        const o = n * RECORD_SIZE;
        const x = Math.round((p.x - q.offset[0]) / q.scale[0]);
        const y = Math.round((p.y - q.offset[1]) / q.scale[1]);
        const z = Math.round((p.z - q.offset[2]) / q.scale[2]);
        // Measured bounds hold every point; declared ones may not, and an int32 would wrap.
        if (this.unchecked && ((x | 0) !== x || (y | 0) !== y || (z | 0) !== z)) throw new DeclaredBoundsExceeded(this.fileName);
        view.setInt32(o, x, true);
        view.setInt32(o + 4, y, true);
        view.setInt32(o + 8, z, true);
        view.setUint16(o + 12, p.intensity, true);
        bytes[o + 14] = (p.returnNumber & 0xf) | ((p.numberOfReturns & 0xf) << 4);
        view.setUint16(o + 20, source, true);
        view.setFloat64(o + 22, p.time, true);
        view.setUint16(o + 30, p.r, true);
        view.setUint16(o + 32, p.g, true);
        view.setUint16(o + 34, p.b, true);
        if (++n === batchPoints) {
          ready.push({ bytes, count: n });
          bytes = new Uint8Array(batchPoints * RECORD_SIZE);
          view = new DataView(bytes.buffer);
          n = 0;
        }
      });
      for await (const _ of points) yield* ready.splice(0);
    }
    if (n) yield { bytes: bytes.subarray(0, n * RECORD_SIZE), count: n };
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

export async function openE57(file: string): Promise<PointCloudReader> {
  const fileName = path.basename(file);
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const first = new Uint8Array(64);
    await fh.read(first, 0, 64, 0);
    const header = parseE57Header(first);
    if (!header) throw new PointCloudError('wrong_format', `${fileName} is not an E57 file: it does not start with "ASTM-E57"`);
    if (header.versionMajor !== 1) throw new PointCloudError('unsupported', `${fileName}: E57 version ${header.versionMajor}.${header.versionMinor} is not supported (1.x is)`);
    if (!(header.pageSize > CRC_SIZE && header.pageSize <= 1 << 20)) throw new PointCloudError('corrupt', `${fileName}: E57 page size ${header.pageSize} is invalid`);
    if (header.physicalLength > size) throw new PointCloudError('truncated', `${fileName} is cut short: the E57 header announces ${header.physicalLength} bytes, the file has ${size}`);
    if (header.physicalLength % header.pageSize !== 0) throw new PointCloudError('corrupt', `${fileName}: the E57 length ${header.physicalLength} is not a whole number of ${header.pageSize}-byte pages`);
    if (header.xmlLogicalLength > 64 << 20) throw new PointCloudError('unsupported', `${fileName}: the E57 XML section (${header.xmlLogicalLength} bytes) is larger than 64 MiB`);
    const paged = new PagedFile(fh, header, fileName);
    const xml = new TextDecoder().decode(await paged.read(paged.logicalOf(header.xmlPhysicalOffset), header.xmlLogicalLength));
    const scans = parseScans(xml, fileName);
    if (!scans.length) throw new PointCloudError('empty', `${fileName}: the E57 file has no 3D scan`);
    const reader = new E57Reader(fh, paged, scans, fileName);
    if (!reader.describe()) await reader.measure();
    return reader;
  } catch (e) {
    await fh.close();
    throw e;
  }
}
