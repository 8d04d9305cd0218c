// PLY (ascii, binary little- and big-endian), streamed. Why not a library: the maintained
// JS readers (@loaders.gl/ply, three's PLYLoader) parse a whole file held in memory, which
// a 1-billion-point scan is not; PLY's vertex data is a fixed table described by its header,
// which a streaming reader walks a block at a time. Tested against files written by
// CloudCompare, Open3D and PCL (test/pointclouds/ply.test.ts).
//
// Read: the "vertex" element's x, y, z (any numeric type), colour (red/green/blue or
// r/g/b or diffuse_*: 8-bit scaled to 16, 16-bit kept, float 0–1 scaled), intensity
// (intensity, scalar_intensity, scalar_Intensity, i). Other properties and elements are
// skipped. Float coordinates are quantized at 0.1 mm (coarser when the extent needs it).
import fs from 'node:fs/promises';
import path from 'node:path';
import { PointCloudError } from '../errors.ts';
import { emptyBounds, growBounds, RECORD_SIZE, type Bounds, type CloudInfo, type Quantization, type RecordBatch } from '../record.ts';
import { DEFAULT_BATCH_POINTS, type PointCloudReader } from './reader.ts';

type ScalarType = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';
const TYPES: Record<string, ScalarType> = {
  char: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8', short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32', float: 'float32', float32: 'float32', double: 'float64', float64: 'float64',
};
const SIZES: Record<ScalarType, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8 };

interface Property {
  name: string;
  type: ScalarType;
  /** For list properties: the count's type. */
  listCount?: ScalarType;
}

interface Element {
  name: string;
  count: number;
  properties: Property[];
}

export interface PlyHeader {
  format: 'ascii' | 'binary_little_endian' | 'binary_big_endian';
  elements: Element[];
  /** Bytes up to and including "end_header\n". */
  headerLength: number;
}

const MAX_HEADER = 1 << 20;

export function parsePlyHeader(bytes: Uint8Array, fileName: string): PlyHeader {
  const text = new TextDecoder('latin1').decode(bytes);
  const end = text.search(/end_header\r?\n/);
  if (!/^ply\r?\n/.test(text)) throw new PointCloudError('wrong_format', `${fileName} is not a PLY file: it does not start with "ply"`);
  if (end < 0) throw new PointCloudError(bytes.length >= MAX_HEADER ? 'corrupt' : 'truncated', `${fileName}: the PLY header has no end_header line`);
  const headerLength = end + text.slice(end).match(/end_header\r?\n/)![0].length;
  let format: PlyHeader['format'] | null = null;
  const elements: Element[] = [];
  for (const raw of text.slice(0, end).split(/\r?\n/)) {
    const words = raw.trim().split(/\s+/);
    switch (words[0]) {
      case 'format':
        if (words[1] !== 'ascii' && words[1] !== 'binary_little_endian' && words[1] !== 'binary_big_endian') {
          throw new PointCloudError('unsupported', `${fileName}: PLY format "${words[1]}" is not one of ascii, binary_little_endian, binary_big_endian`);
        }
        format = words[1];
        break;
      case 'element': {
        const count = Number(words[2]);
        if (!Number.isSafeInteger(count) || count < 0) throw new PointCloudError('corrupt', `${fileName}: PLY element "${words[1]}" has a bad count "${words[2]}"`);
        elements.push({ name: words[1] ?? '', count, properties: [] });
        break;
      }
      case 'property': {
        const el = elements.at(-1);
        if (!el) throw new PointCloudError('corrupt', `${fileName}: a PLY property comes before any element`);
        if (words[1] === 'list') {
          const listCount = TYPES[words[2] ?? ''];
          const type = TYPES[words[3] ?? ''];
          if (!listCount || !type) throw new PointCloudError('corrupt', `${fileName}: PLY list property "${raw.trim()}" has an unknown type`);
          el.properties.push({ name: words[4] ?? '', type, listCount });
        } else {
          const type = TYPES[words[1] ?? ''];
          if (!type) throw new PointCloudError('corrupt', `${fileName}: PLY property "${raw.trim()}" has an unknown type`);
          el.properties.push({ name: words[2] ?? '', type });
        }
        break;
      }
      default:
        break; // ply, comment, obj_info
    }
  }
  if (!format) throw new PointCloudError('corrupt', `${fileName}: the PLY header has no format line`);
  return { format, elements, headerLength };
}

function reader(type: ScalarType, little: boolean): (v: DataView, o: number) => number {
  switch (type) {
    case 'int8': return (v, o) => v.getInt8(o);
    case 'uint8': return (v, o) => v.getUint8(o);
    case 'int16': return (v, o) => v.getInt16(o, little);
    case 'uint16': return (v, o) => v.getUint16(o, little);
    case 'int32': return (v, o) => v.getInt32(o, little);
    case 'uint32': return (v, o) => v.getUint32(o, little);
    case 'float32': return (v, o) => v.getFloat32(o, little);
    case 'float64': return (v, o) => v.getFloat64(o, little);
  }
}

const COLOR_NAMES = [['red', 'r', 'diffuse_red'], ['green', 'g', 'diffuse_green'], ['blue', 'b', 'diffuse_blue']] as const;
const INTENSITY_NAMES = ['intensity', 'scalar_intensity', 'scalar_Intensity', 'i'];

/** One vertex as numbers: x, y, z, then r, g, b, intensity (NaN when absent). */
type Sink = (x: number, y: number, z: number, r: number, g: number, b: number, intensity: number) => void;

/** Chooses the integer grid of float coordinates: 0.1 mm, or the power of ten that keeps the extent within int32. */
export function quantizationFor(bounds: Bounds): Quantization {
  const extent = Math.max(...[0, 1, 2].map((i) => bounds.max[i]! - bounds.min[i]!), 0);
  let scale = 0.0001;
  while (extent / scale > 2 ** 30) scale *= 10;
  const offset = [0, 1, 2].map((i) => {
    const c = (bounds.min[i]! + bounds.max[i]!) / 2;
    return Number.isFinite(c) ? Math.round(c / scale) * scale : 0;
  }) as [number, number, number];
  return { scale: [scale, scale, scale], offset };
}

const colorTo16 = (type: ScalarType, v: number) =>
  Number.isNaN(v) ? 0 : type === 'uint8' || type === 'int8' ? Math.max(0, Math.min(255, v)) * 257 : type === 'float32' || type === 'float64' ? Math.round(Math.max(0, Math.min(1, v)) * 65535) : Math.max(0, Math.min(65535, Math.round(v)));

class PlyReader implements PointCloudReader {
  readonly format = 'ply' as const;
  info!: CloudInfo;
  private readonly file: string;
  private readonly fileName: string;
  private readonly header: PlyHeader;
  private readonly vertex: Element;
  private readonly vertexIndex: number;
  private intensityScale = 1;

  constructor(file: string, header: PlyHeader) {
    this.file = file;
    this.fileName = path.basename(file);
    this.header = header;
    this.vertexIndex = header.elements.findIndex((e) => e.name === 'vertex');
    if (this.vertexIndex < 0) throw new PointCloudError('corrupt', `${this.fileName}: the PLY file has no vertex element`);
    this.vertex = header.elements[this.vertexIndex]!;
    for (const axis of ['x', 'y', 'z']) {
      if (!this.vertex.properties.some((p) => p.name === axis && !p.listCount)) throw new PointCloudError('corrupt', `${this.fileName}: the PLY vertices have no "${axis}" property`);
    }
  }

  private colorProps(): (Property | undefined)[] {
    return COLOR_NAMES.map((names) => this.vertex.properties.find((p) => (names as readonly string[]).includes(p.name) && !p.listCount));
  }

  /** Walks every vertex, calling `sink`; checks the file holds them all. */
  private async walk(sink: Sink, onBlockEnd: () => Promise<void> | void): Promise<void> {
    const props = this.vertex.properties;
    const index = (name: string) => props.findIndex((p) => p.name === name && !p.listCount);
    const ix = index('x');
    const iy = index('y');
    const iz = index('z');
    const colors = this.colorProps().map((p) => (p ? props.indexOf(p) : -1));
    const ii = props.findIndex((p) => INTENSITY_NAMES.includes(p.name) && !p.listCount);
    const values = new Float64Array(props.length).fill(NaN);
    const fh = await fs.open(this.file, 'r');
    try {
      const block = 4 << 20;
      let position = this.header.headerLength;
      let buffer = new Uint8Array(0);
      let eof = false;
      const more = async (): Promise<boolean> => {
        if (eof) return false;
        const next = new Uint8Array(block);
        const { bytesRead } = await fh.read(next, 0, block, position);
        position += bytesRead;
        if (bytesRead === 0) {
          eof = true;
          return false;
        }
        const joined = new Uint8Array(buffer.length + bytesRead);
        joined.set(buffer);
        joined.set(next.subarray(0, bytesRead), buffer.length);
        buffer = joined;
        return true;
      };
      const emit = () => sink(values[ix]!, values[iy]!, values[iz]!, colors[0]! >= 0 ? values[colors[0]!]! : NaN, colors[1]! >= 0 ? values[colors[1]!]! : NaN, colors[2]! >= 0 ? values[colors[2]!]! : NaN, ii >= 0 ? values[ii]! : NaN);
      const short = (el: Element, done: number) =>
        new PointCloudError('truncated', `${this.fileName} is cut short: the PLY ${el.name} element announces ${el.count} entries, the file ends after ${done}`);

      if (this.header.format === 'ascii') {
        let lineStart = 0;
        for (let e = 0; e <= this.vertexIndex; e++) {
          const el = this.header.elements[e]!;
          for (let done = 0; done < el.count; ) {
            let nl = buffer.indexOf(10, lineStart);
            while (nl < 0) {
              buffer = buffer.subarray(lineStart);
              lineStart = 0;
              if (!(await more())) {
                if (buffer.length && done === el.count - 1) {
                  nl = buffer.length;
                  break;
                }
                throw short(el, done);
              }
              await onBlockEnd();
              nl = buffer.indexOf(10, lineStart);
            }
            const line = new TextDecoder('latin1').decode(buffer.subarray(lineStart, nl)).trim();
            lineStart = nl + 1;
            if (!line) continue;
            if (e === this.vertexIndex) {
              const words = line.split(/\s+/);
              let w = 0;
              for (let p = 0; p < props.length; p++) {
                const prop = props[p]!;
                if (prop.listCount) {
                  w += 1 + Number(words[w]);
                  continue;
                }
                const n = Number(words[w++]);
                if (words[w - 1] === undefined || Number.isNaN(n)) {
                  throw new PointCloudError('corrupt', `${this.fileName}: PLY vertex ${done + 1} has a bad value for "${prop.name}": "${words[w - 1] ?? ''}"`);
                }
                values[p] = n;
              }
              emit();
            }
            done++;
          }
        }
        return;
      }

      const little = this.header.format === 'binary_little_endian';
      let offset = 0;
      const need = async (n: number) => {
        while (buffer.length - offset < n) {
          buffer = buffer.subarray(offset);
          offset = 0;
          if (!(await more())) return false;
          await onBlockEnd();
        }
        return true;
      };
      for (let e = 0; e <= this.vertexIndex; e++) {
        const el = this.header.elements[e]!;
        const fixed = el.properties.every((p) => !p.listCount);
        const stride = fixed ? el.properties.reduce((s, p) => s + SIZES[p.type], 0) : 0;
        const readers = el.properties.map((p) => reader(p.type, little));
        const countReaders = el.properties.map((p) => (p.listCount ? reader(p.listCount, little) : null));
        if (e === this.vertexIndex && !fixed) throw new PointCloudError('unsupported', `${this.fileName}: PLY vertices with list properties are not supported`);
        for (let done = 0; done < el.count; done++) {
          if (fixed) {
            if (!(await need(stride))) throw short(el, done);
            const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
            if (e === this.vertexIndex) {
              // Vertices: as many as the buffer holds in one go.
              const available = Math.min(el.count - done, Math.floor((buffer.length - offset) / stride));
              for (let k = 0; k < available; k++) {
                let o = offset + k * stride;
                for (let p = 0; p < el.properties.length; p++) {
                  values[p] = readers[p]!(view, o);
                  o += SIZES[el.properties[p]!.type];
                }
                emit();
              }
              offset += available * stride;
              done += available - 1;
            } else offset += stride;
          } else {
            for (let p = 0; p < el.properties.length; p++) {
              const prop = el.properties[p]!;
              if (prop.listCount) {
                if (!(await need(SIZES[prop.listCount]))) throw short(el, done);
                const n = countReaders[p]!(new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength), offset);
                offset += SIZES[prop.listCount];
                if (!(await need(n * SIZES[prop.type]))) throw short(el, done);
                offset += n * SIZES[prop.type];
              } else {
                if (!(await need(SIZES[prop.type]))) throw short(el, done);
                offset += SIZES[prop.type];
              }
            }
          }
        }
      }
    } finally {
      await fh.close();
    }
  }

  /** The bounds pass: PLY announces no bounds, and the quantization needs them. */
  async measure(): Promise<void> {
    const bounds = emptyBounds();
    let maxIntensity = 0;
    let count = 0;
    await this.walk(
      (x, y, z, _r, _g, _b, i) => {
        if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return;
        growBounds(bounds, x, y, z);
        if (i > maxIntensity) maxIntensity = i;
        count++;
      },
      () => undefined,
    );
    const ip = this.vertex.properties.find((p) => INTENSITY_NAMES.includes(p.name));
    // Float intensities in [0, 1] are scaled to 16 bits; other values are kept (clamped).
    this.intensityScale = ip && (ip.type === 'float32' || ip.type === 'float64') && maxIntensity <= 1 ? 65535 : 1;
    this.info = {
      pointCount: count,
      quantization: quantizationFor(bounds),
      bounds,
      hasColor: this.colorProps().every(Boolean),
      hasGpsTime: false,
    };
  }

  async *batches(batchPoints = DEFAULT_BATCH_POINTS): AsyncGenerator<RecordBatch> {
    const q = this.info.quantization;
    const colorTypes = this.colorProps().map((p) => p?.type ?? 'uint8');
    const ready: RecordBatch[] = [];
    let bytes = new Uint8Array(batchPoints * RECORD_SIZE);
    let view = new DataView(bytes.buffer);
    let n = 0;
    const hasColor = this.info.hasColor;
    const scale = this.intensityScale;
    const sink: Sink = (x, y, z, r, g, b, intensity) => {
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return;
      const o = n * RECORD_SIZE;
      view.setInt32(o, Math.round((x - q.offset[0]) / q.scale[0]), true);
      view.setInt32(o + 4, Math.round((y - q.offset[1]) / q.scale[1]), true);
      view.setInt32(o + 8, Math.round((z - q.offset[2]) / q.scale[2]), true);
      view.setUint16(o + 12, Number.isNaN(intensity) ? 0 : Math.max(0, Math.min(65535, Math.round(intensity * scale))), true);
      bytes[o + 14] = 0x11; // return 1 of 1
      if (hasColor) {
        view.setUint16(o + 30, colorTo16(colorTypes[0]!, r), true);
        view.setUint16(o + 32, colorTo16(colorTypes[1]!, g), true);
        view.setUint16(o + 34, colorTo16(colorTypes[2]!, b), true);
      }
      if (++n === batchPoints) {
        ready.push({ bytes, count: n });
        bytes = new Uint8Array(batchPoints * RECORD_SIZE);
        view = new DataView(bytes.buffer);
        n = 0;
      }
    };
    // The walk is push-based; batches are handed over at block boundaries.
    const queue: RecordBatch[][] = [];
    let finished = false;
    let failure: unknown = null;
    let wake: (() => void) | null = null;
    let resume: (() => void) | null = null;
    let stopped = false;
    const STOP = new Error('stopped');
    const walking = this.walk(sink, async () => {
      if (stopped) throw STOP;
      if (ready.length) {
        queue.push(ready.splice(0));
        wake?.();
        // Back-pressure: wait until the consumer took this block.
        await new Promise<void>((r) => (resume = r));
      }
    }).then(
      () => {
        if (n) ready.push({ bytes: bytes.subarray(0, n * RECORD_SIZE), count: n });
        if (ready.length) queue.push(ready.splice(0));
        finished = true;
        wake?.();
      },
      (e: unknown) => {
        if (e !== STOP) failure = e;
        finished = true;
        wake?.();
      },
    );
    try {
      for (;;) {
        if (queue.length) {
          for (const b of queue.shift()!) yield b;
          const r = resume as (() => void) | null;
          resume = null;
          r?.();
          continue;
        }
        if (finished) break;
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
      if (failure) throw failure;
    } finally {
      // A consumer that stops early stops the walk at its next block.
      stopped = true;
      const r = resume as (() => void) | null;
      r?.();
      await walking;
    }
  }

  async close(): Promise<void> {}
}

export async function openPly(file: string): Promise<PointCloudReader> {
  const fh = await fs.open(file, 'r');
  let head: Uint8Array;
  try {
    const buf = new Uint8Array(MAX_HEADER);
    const { bytesRead } = await fh.read(buf, 0, MAX_HEADER, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  const r = new PlyReader(file, parsePlyHeader(head, path.basename(file)));
  await r.measure();
  return r;
}
