// A streaming E57 writer for the tests and the bench (Debian's CloudCompare has no E57
// plug-in and Debian ships no E57 library, so no independent writer runs here). It follows
// ASTM E2807: 1024-byte pages with a big-endian CRC-32C, the header, one compressed vector
// section per scan (data packets, one bit-packed byte stream per prototype field), the XML
// section last. Its files are checked by an independent reader (web-e57: the Rust `e57`
// crate in WASM) in test/pointclouds/e57.test.ts, so the reader is not only tested against
// its own idea of the format.
import fs from 'node:fs';
import { crc32c, CV_SECTION_HEADER_SIZE, E57_HEADER_SIZE, logicalToPhysical, writeE57Header } from '../../../src/pointclouds/readers/e57-format.ts';

const PAGE = 1024;
const DATA = PAGE - 4;

export interface E57PointIn {
  /** Cartesian x, y, z, or spherical range, azimuth, elevation, in the scan's frame. */
  a: number;
  b: number;
  c: number;
  intensity?: number;
  red?: number;
  green?: number;
  blue?: number;
  /** 0 valid, 2 invalid (the point has no position). */
  invalid?: number;
  returnIndex?: number;
  returnCount?: number;
  time?: number;
}

export interface E57ScanSpec {
  name: string;
  count: number;
  point: (i: number) => E57PointIn;
  coordinates: 'float' | 'double' | 'scaled' | 'spherical';
  pose?: { rotation: [number, number, number, number]; translation: [number, number, number] };
  /** Integer intensity 0…4095 with intensityLimits, or float 0…1. */
  intensity?: 'integer' | 'float';
  color?: boolean;
  invalidState?: boolean;
  returns?: boolean;
  time?: boolean;
  /**
   * The scan's bounds in its XML (in its own frame): cartesianBounds for cartesian
   * coordinates, sphericalBounds' rangeMaximum for spherical ones. 'measured': those of the
   * points written (as scanner software writes them); or given, right or wrong. None by default.
   */
  bounds?: 'measured' | { min: [number, number, number]; max: [number, number, number] } | { rangeMaximum: number };
}

interface FieldSpec {
  name: string;
  xml: string;
  pack: (w: BitWriter, p: E57PointIn) => void;
}

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private bits = 0;
  /** Appends the `bits` low bits of an unsigned value (≤ 32 bits), LSB first. */
  put(value: number, bits: number): void {
    for (let i = 0; i < bits; ) {
      const take = Math.min(8 - this.bits, bits - i);
      const chunk = Math.floor(value / 2 ** i) % 2 ** take;
      this.acc |= chunk << this.bits;
      this.bits += take;
      i += take;
      if (this.bits === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.bits = 0;
      }
    }
  }
  putFloat(v: number, double: boolean): void {
    const b = new Uint8Array(double ? 8 : 4);
    const dv = new DataView(b.buffer);
    if (double) dv.setFloat64(0, v, true);
    else dv.setFloat32(0, v, true);
    for (const x of b) this.put(x, 8);
  }
  /** Whole bytes so far (the partial byte stays), or everything with `flush`. */
  take(flush = false): Uint8Array {
    if (flush && this.bits) {
      this.bytes.push(this.acc);
      this.acc = 0;
      this.bits = 0;
    }
    const out = Uint8Array.from(this.bytes);
    this.bytes = [];
    return out;
  }
}

/** Logical bytes in, pages with their CRC out; `patch` rewrites bytes already written. */
class PagedWriter {
  private readonly fd: number;
  private page = new Uint8Array(DATA);
  private fill = 0;
  private pageNo = 0;
  logical = 0;
  constructor(file: string) {
    this.fd = fs.openSync(file, 'w+');
  }
  private flushPage(): void {
    const out = new Uint8Array(PAGE);
    out.set(this.page);
    new DataView(out.buffer).setUint32(DATA, crc32c(out, 0, DATA), false);
    fs.writeSync(this.fd, out, 0, PAGE, this.pageNo * PAGE);
    this.pageNo++;
    this.page = new Uint8Array(DATA);
    this.fill = 0;
  }
  write(bytes: Uint8Array): void {
    let o = 0;
    while (o < bytes.length) {
      const n = Math.min(DATA - this.fill, bytes.length - o);
      this.page.set(bytes.subarray(o, o + n), this.fill);
      this.fill += n;
      o += n;
      this.logical += n;
      if (this.fill === DATA) this.flushPage();
    }
  }
  align(): void {
    if (this.logical % 4) this.write(new Uint8Array(4 - (this.logical % 4)));
  }
  patch(logical: number, bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const at = logical + i;
      const page = Math.floor(at / DATA);
      if (page === this.pageNo) {
        this.page[at % DATA] = bytes[i]!;
        continue;
      }
      const buf = new Uint8Array(PAGE);
      fs.readSync(this.fd, buf, 0, PAGE, page * PAGE);
      buf[at % DATA] = bytes[i]!;
      new DataView(buf.buffer).setUint32(DATA, crc32c(buf, 0, DATA), false);
      fs.writeSync(this.fd, buf, 0, PAGE, page * PAGE);
    }
  }
  close(): number {
    if (this.fill) {
      this.page.fill(0, this.fill);
      this.flushPage();
    }
    fs.closeSync(this.fd);
    return this.pageNo * PAGE;
  }
}

function fieldsOf(s: E57ScanSpec): FieldSpec[] {
  const f: FieldSpec[] = [];
  const names = s.coordinates === 'spherical' ? ['sphericalRange', 'sphericalAzimuth', 'sphericalElevation'] : ['cartesianX', 'cartesianY', 'cartesianZ'];
  const pick = [(p: E57PointIn) => p.a, (p: E57PointIn) => p.b, (p: E57PointIn) => p.c];
  names.forEach((name, axis) => {
    if (s.coordinates === 'scaled') {
      // 0.1 mm over ±100 km.
      const min = -1_000_000_000;
      const max = 1_000_000_000;
      f.push({ name, xml: `type="ScaledInteger" minimum="${min}" maximum="${max}" scale="0.0001" offset="0"`, pack: (w, p) => w.put(Math.round(pick[axis]!(p) / 0.0001) - min, 31) });
    } else if (s.coordinates === 'float') f.push({ name, xml: 'type="Float" precision="single"', pack: (w, p) => w.putFloat(pick[axis]!(p), false) });
    else f.push({ name, xml: 'type="Float"', pack: (w, p) => w.putFloat(pick[axis]!(p), true) });
  });
  if (s.invalidState) {
    const name = s.coordinates === 'spherical' ? 'sphericalInvalidState' : 'cartesianInvalidState';
    f.push({ name, xml: 'type="Integer" minimum="0" maximum="2"', pack: (w, p) => w.put(p.invalid ?? 0, 2) });
  }
  if (s.intensity === 'integer') f.push({ name: 'intensity', xml: 'type="Integer" minimum="0" maximum="4095"', pack: (w, p) => w.put(p.intensity ?? 0, 12) });
  if (s.intensity === 'float') f.push({ name: 'intensity', xml: 'type="Float" precision="single" minimum="0" maximum="1"', pack: (w, p) => w.putFloat(p.intensity ?? 0, false) });
  if (s.color) {
    for (const [name, key] of [['colorRed', 'red'], ['colorGreen', 'green'], ['colorBlue', 'blue']] as const) {
      f.push({ name, xml: 'type="Integer" minimum="0" maximum="255"', pack: (w, p) => w.put(p[key] ?? 0, 8) });
    }
  }
  if (s.returns) {
    f.push({ name: 'returnIndex', xml: 'type="Integer" minimum="0" maximum="3"', pack: (w, p) => w.put(p.returnIndex ?? 0, 2) });
    f.push({ name: 'returnCount', xml: 'type="Integer" minimum="1" maximum="4"', pack: (w, p) => w.put((p.returnCount ?? 1) - 1, 2) });
  }
  if (s.time) f.push({ name: 'timeStamp', xml: 'type="Float"', pack: (w, p) => w.putFloat(p.time ?? 0, true) });
  return f;
}

const RECORDS_PER_PACKET = 1024;

/** Writes an E57 file of the given scans, streamed. */
export function writeE57(file: string, scans: E57ScanSpec[]): void {
  const out = new PagedWriter(file);
  out.write(new Uint8Array(E57_HEADER_SIZE));
  const xmlScans: string[] = [];
  for (const s of scans) {
    out.align();
    const fields = fieldsOf(s);
    const sectionStart = out.logical;
    const header = new Uint8Array(CV_SECTION_HEADER_SIZE);
    header[0] = 1;
    out.write(header);
    const dataStart = out.logical;
    const writers = fields.map(() => new BitWriter());
    const seen = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    for (let i = 0; i < s.count; ) {
      const n = Math.min(RECORDS_PER_PACKET, s.count - i);
      for (let k = 0; k < n; k++) {
        const p = s.point(i + k);
        fields.forEach((f, j) => f.pack(writers[j]!, p));
        [p.a, p.b, p.c].forEach((v, axis) => {
          seen.min[axis] = Math.min(seen.min[axis]!, v);
          seen.max[axis] = Math.max(seen.max[axis]!, v);
        });
      }
      i += n;
      const buffers = writers.map((w) => w.take(i === s.count));
      const length = 6 + 2 * fields.length + buffers.reduce((a, b) => a + b.length, 0);
      const padded = Math.ceil(length / 4) * 4;
      const packet = new Uint8Array(padded);
      const v = new DataView(packet.buffer);
      packet[0] = 1;
      v.setUint16(2, padded - 1, true);
      v.setUint16(4, fields.length, true);
      let o = 6 + 2 * fields.length;
      buffers.forEach((b, j) => {
        v.setUint16(6 + 2 * j, b.length, true);
        packet.set(b, o);
        o += b.length;
      });
      out.write(packet);
    }
    const sectionHeader = new Uint8Array(CV_SECTION_HEADER_SIZE);
    const hv = new DataView(sectionHeader.buffer);
    sectionHeader[0] = 1;
    hv.setBigUint64(8, BigInt(out.logical - sectionStart), true);
    hv.setBigUint64(16, BigInt(logicalToPhysical(dataStart, PAGE)), true);
    hv.setBigUint64(24, 0n, true);
    out.patch(sectionStart, sectionHeader);
    const pose = s.pose
      ? `<pose type="Structure"><rotation type="Structure"><w type="Float">${s.pose.rotation[0]}</w><x type="Float">${s.pose.rotation[1]}</x><y type="Float">${s.pose.rotation[2]}</y><z type="Float">${s.pose.rotation[3]}</z></rotation><translation type="Structure"><x type="Float">${s.pose.translation[0]}</x><y type="Float">${s.pose.translation[1]}</y><z type="Float">${s.pose.translation[2]}</z></translation></pose>`
      : '';
    const limits =
      (s.intensity === 'integer' ? '<intensityLimits type="Structure"><intensityMinimum type="Integer">0</intensityMinimum><intensityMaximum type="Integer">4095</intensityMaximum></intensityLimits>' : '') +
      (s.color
        ? '<colorLimits type="Structure"><colorRedMinimum type="Integer">0</colorRedMinimum><colorRedMaximum type="Integer">255</colorRedMaximum><colorGreenMinimum type="Integer">0</colorGreenMinimum><colorGreenMaximum type="Integer">255</colorGreenMaximum><colorBlueMinimum type="Integer">0</colorBlueMinimum><colorBlueMaximum type="Integer">255</colorBlueMaximum></colorLimits>'
        : '');
    const prototype = fields.map((f) => `<${f.name} ${f.xml}/>`).join('');
    const float = (name: string, v: number) => `<${name} type="Float">${v}</${name}>`;
    const given = s.bounds === 'measured' ? (s.coordinates === 'spherical' ? { rangeMaximum: seen.max[0]! } : seen) : s.bounds;
    const bounds = !given
      ? ''
      : 'rangeMaximum' in given
        ? `<sphericalBounds type="Structure">${float('rangeMinimum', 0)}${float('rangeMaximum', given.rangeMaximum)}</sphericalBounds>`
        : `<cartesianBounds type="Structure">${['x', 'y', 'z'].map((a, i) => float(`${a}Minimum`, given.min[i]!) + float(`${a}Maximum`, given.max[i]!)).join('')}</cartesianBounds>`;
    xmlScans.push(
      `<vectorChild type="Structure"><guid type="String"><![CDATA[{scan-${xmlScans.length}}]]></guid><name type="String"><![CDATA[${s.name}]]></name>${pose}${limits}${bounds}` +
        `<points type="CompressedVector" fileOffset="${logicalToPhysical(sectionStart, PAGE)}" recordCount="${s.count}"><prototype type="Structure">${prototype}</prototype><codecs type="Vector" allowHeterogeneousChildren="1"></codecs></points></vectorChild>`,
    );
  }
  out.align();
  const xml = new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<e57Root type="Structure" xmlns="http://www.astm.org/COMMIT/E57/2010-e57-v1.0"><formatName type="String"><![CDATA[ASTM E57 3D Imaging Data File]]></formatName><guid type="String"><![CDATA[{file}]]></guid><versionMajor type="Integer">1</versionMajor><versionMinor type="Integer">0</versionMinor><coordinateMetadata type="String"></coordinateMetadata><data3D type="Vector" allowHeterogeneousChildren="1">${xmlScans.join('')}</data3D><images2D type="Vector" allowHeterogeneousChildren="1"></images2D></e57Root>`,
  );
  const xmlStart = out.logical;
  out.write(xml);
  const physicalLength = Math.ceil(out.logical / DATA) * PAGE;
  out.patch(0, writeE57Header({ versionMajor: 1, versionMinor: 0, physicalLength, xmlPhysicalOffset: logicalToPhysical(xmlStart, PAGE), xmlLogicalLength: xml.length, pageSize: PAGE }));
  out.close();
}

/** Flips one byte of page `page`'s data (its CRC no longer matches). */
export function corruptPage(file: string, page: number): void {
  const fd = fs.openSync(file, 'r+');
  const b = new Uint8Array(1);
  fs.readSync(fd, b, 0, 1, page * PAGE + 100);
  b[0]! ^= 0xff;
  fs.writeSync(fd, b, 0, 1, page * PAGE + 100);
  fs.closeSync(fd);
}
