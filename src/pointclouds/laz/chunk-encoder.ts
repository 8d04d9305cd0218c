// One LAZ chunk of LAS 1.4 points (point data record formats 6 and 7), compressed the way
// LASzip 3 does it (compressor 3, "layered chunked"; items POINT14 and RGB14, version 3):
// the first point raw, then the point count, the byte size of each layer, and the layers
// (xy with the change flags, z, classification, flags, intensity, scan angle, user data,
// point source, GPS time; then RGB). A layer whose value never changes in the chunk is
// stored as zero bytes. The context rules follow the LAZ specification and its reference
// encoders (LASzip, laz-perf) so that any LAZ 1.4 reader decodes the result; the tests
// decode it with laz-perf and compare every byte of every point.
import { ArithmeticEncoder, ByteSink, IntegerCompressor, SymbolModel } from './arithmetic.ts';
import { POINT14_SIZE, RECORD_SIZE } from '../record.ts';

// prettier-ignore
const NUMBER_RETURN_MAP_6CTX = [
  [0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5], [1, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
  [2, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3], [3, 3, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
  [4, 3, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], [5, 3, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
  [3, 3, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4], [4, 3, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4],
  [4, 3, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4], [5, 3, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4],
  [5, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4], [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 4],
  [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 4], [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4],
  [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5], [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5],
].flat();
/** |n − r| capped at 7: the z context of a return. */
const returnLevel = (n: number, r: number) => Math.min(7, Math.abs(n - r));

const GPS_MULTI = 500;
const GPS_MULTI_MINUS = -10;
const GPS_MULTI_CODE_FULL = 511;

/** LASzip's running median of the last five values (a small insertion network). */
class Median5 {
  private readonly v = new Int32Array(5);
  private high = true;
  get(): number {
    return this.v[2]!;
  }
  add(x: number): void {
    const v = this.v;
    if (this.high) {
      if (x < v[2]!) {
        v[4] = v[3]!;
        v[3] = v[2]!;
        if (x < v[0]!) {
          v[2] = v[1]!;
          v[1] = v[0]!;
          v[0] = x;
        } else if (x < v[1]!) {
          v[2] = v[1]!;
          v[1] = x;
        } else v[2] = x;
      } else {
        if (x < v[3]!) {
          v[4] = v[3]!;
          v[3] = x;
        } else v[4] = x;
        this.high = false;
      }
    } else if (v[2]! < x) {
      v[0] = v[1]!;
      v[1] = v[2]!;
      if (v[4]! < x) {
        v[2] = v[3]!;
        v[3] = v[4]!;
        v[4] = x;
      } else if (v[3]! < x) {
        v[2] = v[3]!;
        v[3] = x;
      } else v[2] = x;
    } else {
      if (v[1]! < x) {
        v[0] = v[1]!;
        v[1] = x;
      } else v[0] = x;
      this.high = true;
    }
  }
}

/** Models created on first use: a chunk touches few of the 64 class or flag contexts. */
class ModelArray {
  private readonly models: (SymbolModel | undefined)[];
  private readonly symbols: number;
  constructor(count: number, symbols: number) {
    this.symbols = symbols;
    this.models = new Array(count);
  }
  at(i: number): SymbolModel {
    return (this.models[i] ??= new SymbolModel(this.symbols));
  }
}

/** The fields of one point 14 that the contexts look at. */
class Point14 {
  x = 0;
  y = 0;
  z = 0;
  intensity = 0;
  returnNum = 0;
  numReturns = 0;
  flags = 0;
  classification = 0;
  userData = 0;
  scanAngle = 0;
  pointSourceId = 0;
  gpsTime = 0;
  gpsLo = 0;
  gpsHi = 0;

  read(v: DataView, o: number): void {
    this.x = v.getInt32(o, true);
    this.y = v.getInt32(o + 4, true);
    this.z = v.getInt32(o + 8, true);
    this.intensity = v.getUint16(o + 12, true);
    const returns = v.getUint8(o + 14);
    this.returnNum = returns & 0xf;
    this.numReturns = returns >>> 4;
    this.flags = v.getUint8(o + 15);
    this.classification = v.getUint8(o + 16);
    this.userData = v.getUint8(o + 17);
    this.scanAngle = v.getInt16(o + 18, true);
    this.pointSourceId = v.getUint16(o + 20, true);
    this.gpsTime = v.getFloat64(o + 22, true);
    this.gpsLo = v.getUint32(o + 22, true);
    this.gpsHi = v.getInt32(o + 26, true);
  }

  copy(p: Point14): void {
    this.x = p.x;
    this.y = p.y;
    this.z = p.z;
    this.intensity = p.intensity;
    this.returnNum = p.returnNum;
    this.numReturns = p.numReturns;
    this.flags = p.flags;
    this.classification = p.classification;
    this.userData = p.userData;
    this.scanAngle = p.scanAngle;
    this.pointSourceId = p.pointSourceId;
    this.gpsTime = p.gpsTime;
    this.gpsLo = p.gpsLo;
    this.gpsHi = p.gpsHi;
  }

  get scannerChannel(): number {
    return (this.flags >>> 4) & 3;
  }
  /** Classification flags, scan direction and edge of flight line packed as the flag layer codes them. */
  get packedFlags(): number {
    return (this.flags & 0xf) | (((this.flags >>> 6) & 1) << 4) | (((this.flags >>> 7) & 1) << 5);
  }
}

class ChannelContext {
  readonly changedValues = new ModelArray(8, 128);
  readonly scannerChannel = new SymbolModel(3);
  readonly rnGpsSame = new SymbolModel(13);
  readonly nr = new ModelArray(16, 16);
  readonly rn = new ModelArray(16, 16);
  readonly classModels = new ModelArray(64, 256);
  readonly flagModels = new ModelArray(64, 64);
  readonly userData = new ModelArray(64, 256);
  readonly gpsMulti = new SymbolModel(515);
  readonly gps0Diff = new SymbolModel(5);
  readonly dx = new IntegerCompressor(32, 2);
  readonly dy = new IntegerCompressor(32, 22);
  readonly dz = new IntegerCompressor(32, 20);
  readonly intensityCompressor = new IntegerCompressor(16, 4);
  readonly scanAngleCompressor = new IntegerCompressor(16, 2);
  readonly pointSourceCompressor = new IntegerCompressor(16);
  readonly gpsCompressor = new IntegerCompressor(32, 9);
  haveLast = false;
  readonly last = new Point14();
  readonly lastIntensity = new Uint16Array(8);
  readonly lastZ = new Int32Array(8);
  readonly xMedians = Array.from({ length: 12 }, () => new Median5());
  readonly yMedians = Array.from({ length: 12 }, () => new Median5());
  lastGpsSeq = 0;
  nextGpsSeq = 0;
  readonly lastGpsTime = new Float64Array(4);
  readonly lastGpsHi = new Int32Array(4);
  readonly lastGpsLo = new Uint32Array(4);
  readonly lastGpsDiff = new Int32Array(4);
  readonly multiExtremeCounter = new Int32Array(4);
  gpsTimeChange = false;

  setLastGps(seq: number, p: Point14): void {
    this.lastGpsTime[seq] = p.gpsTime;
    this.lastGpsHi[seq] = p.gpsHi;
    this.lastGpsLo[seq] = p.gpsLo;
  }
  setLastGpsFrom(seq: number, other: ChannelContext, otherSeq: number): void {
    this.lastGpsTime[seq] = other.lastGpsTime[otherSeq]!;
    this.lastGpsHi[seq] = other.lastGpsHi[otherSeq]!;
    this.lastGpsLo[seq] = other.lastGpsLo[otherSeq]!;
  }
  /** The 64-bit integer difference of the bit patterns (current − sequence `seq`), or null when it needs more than 32 bits. */
  gpsDiff(p: Point14, seq: number): number | null {
    const d = (p.gpsHi - this.lastGpsHi[seq]!) * 4294967296 + (p.gpsLo - this.lastGpsLo[seq]!);
    return d >= -2147483648 && d <= 2147483647 ? d : null;
  }
}

/** C++ `(int32_t)std::round(float)`: half away from zero, out of range → INT_MIN as x86 does. */
function roundToInt32(v: number): number {
  const r = v < 0 ? -Math.floor(-v + 0.5) : Math.floor(v + 0.5);
  return r >= 2147483648 || r < -2147483648 || Number.isNaN(r) ? -2147483648 : r;
}

class Point14Encoder {
  private readonly contexts: (ChannelContext | undefined)[] = [undefined, undefined, undefined, undefined];
  private lastChannel = -1;
  readonly xy = new ArithmeticEncoder(true);
  readonly z = new ArithmeticEncoder(true);
  readonly cls = new ArithmeticEncoder(false);
  readonly flags = new ArithmeticEncoder(false);
  readonly intensity = new ArithmeticEncoder(false);
  readonly scanAngle = new ArithmeticEncoder(false);
  readonly userData = new ArithmeticEncoder(false);
  readonly pointSource = new ArithmeticEncoder(false);
  readonly gps = new ArithmeticEncoder(false);
  private readonly point = new Point14();

  private context(sc: number): ChannelContext {
    return (this.contexts[sc] ??= new ChannelContext());
  }

  /** Compresses one point; answers the scanner channel the next item sees (LASzip's quirk: 0 unless it changed). */
  compress(view: DataView, o: number, raw: Uint8Array, out: ByteSink): number {
    const point = this.point;
    point.read(view, o);
    const sc = point.scannerChannel;
    if (this.lastChannel === -1) {
      const c = this.context(sc);
      out.putBytes(raw.subarray(o, o + POINT14_SIZE));
      c.last.copy(point);
      c.haveLast = true;
      c.setLastGps(0, point);
      this.lastChannel = sc;
      c.lastZ.fill(point.z);
      c.lastIntensity.fill(point.intensity);
      return sc;
    }
    const prev = this.context(this.lastChannel);
    const changeStream =
      (prev.last.returnNum === 1 ? 1 : 0) | (prev.last.returnNum >= prev.last.numReturns ? 2 : 0) | (prev.gpsTimeChange ? 4 : 0);
    const c = this.context(sc);
    const old = c.haveLast ? c : prev;
    const gpsTimeChange = point.gpsTime !== old.last.gpsTime;
    const pointSourceChange = point.pointSourceId !== old.last.pointSourceId;
    const scanAngleChange = point.scanAngle !== old.last.scanAngle;
    const lastN = old.last.numReturns;
    const lastR = old.last.returnNum;
    const n = point.numReturns;
    const r = point.returnNum;
    const increments = r === (lastR + 1) % 16;
    const decrements = r === (lastR + 15) % 16;
    const miscChange = r !== lastR && !increments && !decrements;
    const changedValues =
      (increments || miscChange ? 1 : 0) |
      (decrements || miscChange ? 2 : 0) |
      (n !== lastN ? 4 : 0) |
      (scanAngleChange ? 8 : 0) |
      (gpsTimeChange ? 16 : 0) |
      (pointSourceChange ? 32 : 0) |
      (sc !== this.lastChannel ? 64 : 0);
    this.xy.encodeSymbol(prev.changedValues.at(changeStream), changedValues);
    if (sc > this.lastChannel) this.xy.encodeSymbol(prev.scannerChannel, sc - this.lastChannel - 1);
    else if (sc < this.lastChannel) this.xy.encodeSymbol(prev.scannerChannel, sc - this.lastChannel - 1 + 4);

    if (!c.haveLast) {
      c.haveLast = true;
      c.last.copy(prev.last);
      c.lastZ.fill(prev.last.z);
      c.lastIntensity.fill(prev.last.intensity);
      c.setLastGps(0, prev.last);
    }
    if (n !== lastN) this.xy.encodeSymbol(c.nr.at(lastN), n);
    if (miscChange) {
      if (gpsTimeChange) this.xy.encodeSymbol(c.rn.at(lastR), r);
      else {
        const diff = r - lastR;
        this.xy.encodeSymbol(c.rnGpsSame, diff > 1 ? diff - 2 : diff - 2 + 16);
      }
    }

    // X and Y
    {
      const ctx = (NUMBER_RETURN_MAP_6CTX[n * 16 + r]! << 1) | (gpsTimeChange ? 1 : 0);
      let median = c.xMedians[ctx]!.get();
      let diff = (point.x - c.last.x) | 0;
      c.dx.compress(this.xy, median, diff, n === 1 ? 1 : 0);
      c.xMedians[ctx]!.add(diff);
      const kbits = Math.min(c.dx.k, 20) & ~1;
      median = c.yMedians[ctx]!.get();
      diff = (point.y - c.last.y) | 0;
      c.dy.compress(this.xy, median, diff, kbits | (n === 1 ? 1 : 0));
      c.yMedians[ctx]!.add(diff);
    }
    // Z
    {
      const kbits = Math.min((c.dx.k + c.dy.k) >>> 1, 18) & ~1;
      const ctx = returnLevel(n, r);
      c.dz.compress(this.z, c.lastZ[ctx]!, point.z, kbits | (n === 1 ? 1 : 0));
      c.lastZ[ctx] = point.z;
    }
    // Classification
    {
      const ctx = (r === 1 && r >= n ? 1 : 0) | ((c.last.classification & 0x1f) << 1);
      if (point.classification !== c.last.classification) this.cls.makeValid();
      this.cls.encodeSymbol(c.classModels.at(ctx), point.classification);
    }
    // Flags
    {
      const flags = point.packedFlags;
      const lastFlags = c.last.packedFlags;
      if (flags !== lastFlags) this.flags.makeValid();
      this.flags.encodeSymbol(c.flagModels.at(lastFlags), flags);
    }
    // Intensity
    {
      const ctx = (gpsTimeChange ? 1 : 0) | (r >= n ? 2 : 0) | (r === 1 ? 4 : 0);
      if (point.intensity !== c.last.intensity) this.intensity.makeValid();
      c.intensityCompressor.compress(this.intensity, c.lastIntensity[ctx]!, point.intensity, ctx >>> 1);
      c.lastIntensity[ctx] = point.intensity;
    }
    // Scan angle
    if (point.scanAngle !== c.last.scanAngle) {
      this.scanAngle.makeValid();
      c.scanAngleCompressor.compress(this.scanAngle, c.last.scanAngle, point.scanAngle, gpsTimeChange ? 1 : 0);
    }
    // User data
    {
      if (point.userData !== c.last.userData) this.userData.makeValid();
      this.userData.encodeSymbol(c.userData.at(c.last.userData >>> 2), point.userData);
    }
    // Point source ID
    if (pointSourceChange) {
      this.pointSource.makeValid();
      c.pointSourceCompressor.compress(this.pointSource, c.last.pointSourceId, point.pointSourceId, 0);
    }
    if (gpsTimeChange) this.encodeGpsTime(point, c);

    const channelForNext = sc !== this.lastChannel ? sc : 0;
    this.lastChannel = sc;
    c.gpsTimeChange = gpsTimeChange;
    c.last.copy(point);
    return channelForNext;
  }

  private findSeq(c: ChannelContext, p: Point14, start: number): { index: number; diff: number } {
    for (let i = start; i < 4; i++) {
      const diff = c.gpsDiff(p, (c.lastGpsSeq + i) & 3);
      if (diff !== null) return { index: i, diff };
    }
    return { index: -1, diff: 0 };
  }

  private encodeFull(p: Point14, c: ChannelContext): void {
    c.gpsCompressor.compress(this.gps, c.lastGpsHi[c.lastGpsSeq]!, p.gpsHi, 8);
    this.gps.writeInt(p.gpsLo);
    c.lastGpsSeq = c.nextGpsSeq = (c.nextGpsSeq + 1) & 3;
    c.lastGpsDiff[c.lastGpsSeq] = 0;
    c.multiExtremeCounter[c.lastGpsSeq] = 0;
  }

  private encodeGpsTime(p: Point14, c: ChannelContext): void {
    this.gps.makeValid();
    for (;;) {
      const seq = c.lastGpsSeq;
      if (c.lastGpsDiff[seq] === 0) {
        const found = this.findSeq(c, p, 0);
        if (found.index === 0) {
          this.gps.encodeSymbol(c.gps0Diff, 0);
          c.gpsCompressor.compress(this.gps, 0, found.diff, 0);
          c.lastGpsDiff[seq] = found.diff;
          c.multiExtremeCounter[seq] = 0;
        } else if (found.index > 0) {
          this.gps.encodeSymbol(c.gps0Diff, found.index + 1);
          c.lastGpsSeq = (seq + found.index) & 3;
          continue;
        } else {
          this.gps.encodeSymbol(c.gps0Diff, 1);
          this.encodeFull(p, c);
        }
        c.setLastGps(c.lastGpsSeq, p);
        return;
      }
      const diff = c.gpsDiff(p, seq);
      if (diff !== null) {
        const lastDiff = c.lastGpsDiff[seq]!;
        const multi = roundToInt32(Math.fround(Math.fround(diff) / Math.fround(lastDiff)));
        const extreme = () => {
          if (++c.multiExtremeCounter[seq]! > 3) {
            c.multiExtremeCounter[seq] = 0;
            c.lastGpsDiff[seq] = diff;
          }
        };
        if (multi > 0 && multi < GPS_MULTI) {
          const tag = multi === 1 ? 1 : multi < 10 ? 2 : 3;
          this.gps.encodeSymbol(c.gpsMulti, multi);
          c.gpsCompressor.compress(this.gps, Math.imul(multi, lastDiff), diff, tag);
          if (tag === 1) c.multiExtremeCounter[seq] = 0;
        } else if (multi >= GPS_MULTI) {
          this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI);
          c.gpsCompressor.compress(this.gps, Math.imul(GPS_MULTI, lastDiff), diff, 4);
          extreme();
        } else if (multi < 0 && multi > GPS_MULTI_MINUS) {
          this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI - multi);
          c.gpsCompressor.compress(this.gps, Math.imul(multi, lastDiff), diff, 5);
        } else if (multi <= GPS_MULTI_MINUS) {
          this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI - GPS_MULTI_MINUS);
          c.gpsCompressor.compress(this.gps, Math.imul(GPS_MULTI_MINUS, lastDiff), diff, 6);
          extreme();
        } else {
          this.gps.encodeSymbol(c.gpsMulti, 0);
          c.gpsCompressor.compress(this.gps, 0, diff, 7);
          extreme();
        }
      } else {
        const found = this.findSeq(c, p, 1);
        if (found.index > 0) {
          this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI_CODE_FULL + found.index);
          c.lastGpsSeq = (seq + found.index) & 3;
          continue;
        }
        this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI_CODE_FULL);
        this.encodeFull(p, c);
      }
      c.setLastGps(c.lastGpsSeq, p);
      return;
    }
  }

  layers(): ArithmeticEncoder[] {
    return [this.xy, this.z, this.cls, this.flags, this.intensity, this.scanAngle, this.userData, this.pointSource, this.gps];
  }
}

class Rgb14Context {
  haveLast = false;
  readonly last = new Uint16Array(3);
  readonly used = new SymbolModel(128);
  readonly diff = new ModelArray(6, 256);
}

const clampByte = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : v);

class Rgb14Encoder {
  private readonly contexts: (Rgb14Context | undefined)[] = [undefined, undefined, undefined, undefined];
  private lastChannel = -1;
  readonly enc = new ArithmeticEncoder(false);

  compress(view: DataView, o: number, raw: Uint8Array, sc: number, out: ByteSink): void {
    const r = view.getUint16(o, true);
    const g = view.getUint16(o + 2, true);
    const b = view.getUint16(o + 4, true);
    if (this.lastChannel === -1) {
      const c = (this.contexts[sc] ??= new Rgb14Context());
      out.putBytes(raw.subarray(o, o + 6));
      c.last[0] = r;
      c.last[1] = g;
      c.last[2] = b;
      c.haveLast = true;
      this.lastChannel = sc;
      return;
    }
    const c = (this.contexts[sc] ??= new Rgb14Context());
    let last = this.contexts[this.lastChannel]!.last;
    if (!c.haveLast) {
      c.haveLast = true;
      c.last.set(last);
      last = c.last;
    }
    const lr = last[0]!;
    const lg = last[1]!;
    const lb = last[2]!;
    const sym =
      ((lr ^ r) & 0x00ff ? 1 : 0) |
      ((lr ^ r) & 0xff00 ? 2 : 0) |
      ((lg ^ g) & 0x00ff ? 4 : 0) |
      ((lg ^ g) & 0xff00 ? 8 : 0) |
      ((lb ^ b) & 0x00ff ? 16 : 0) |
      ((lb ^ b) & 0xff00 ? 32 : 0) |
      ((r ^ g) & 0x00ff || (r ^ b) & 0x00ff || (r ^ g) & 0xff00 || (r ^ b) & 0xff00 ? 64 : 0);
    if (sym) this.enc.makeValid();
    this.enc.encodeSymbol(c.used, sym);
    let diffL = 0;
    let diffH = 0;
    if (sym & 1) {
      diffL = (r & 0xff) - (lr & 0xff);
      this.enc.encodeSymbol(c.diff.at(0), diffL & 0xff);
    }
    if (sym & 2) {
      diffH = (r >>> 8) - (lr >>> 8);
      this.enc.encodeSymbol(c.diff.at(1), diffH & 0xff);
    }
    if (sym & 64) {
      if (sym & 4) this.enc.encodeSymbol(c.diff.at(2), ((g & 0xff) - clampByte(diffL + (lg & 0xff))) & 0xff);
      if (sym & 16) {
        diffL = Math.trunc((diffL + (g & 0xff) - (lg & 0xff)) / 2);
        this.enc.encodeSymbol(c.diff.at(4), ((b & 0xff) - clampByte(diffL + (lb & 0xff))) & 0xff);
      }
      if (sym & 8) this.enc.encodeSymbol(c.diff.at(3), ((g >>> 8) - clampByte(diffH + (lg >>> 8))) & 0xff);
      if (sym & 32) {
        diffH = Math.trunc((diffH + (g >>> 8) - (lg >>> 8)) / 2);
        this.enc.encodeSymbol(c.diff.at(5), ((b >>> 8) - clampByte(diffH + (lb >>> 8))) & 0xff);
      }
    }
    last[0] = r;
    last[1] = g;
    last[2] = b;
    this.lastChannel = sc;
  }
}

/**
 * Compresses `count` points into one LAZ chunk. `records` holds the points in this
 * module's record layout (RECORD_SIZE bytes each: point format 6's 30 bytes, then RGB);
 * `order` lists which records, in order (all of them when omitted). Format 6 leaves RGB out.
 */
export function encodeLazChunk(format: 6 | 7, records: Uint8Array, count: number, order?: ArrayLike<number>): Uint8Array {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const out = new ByteSink(Math.max(1024, count * 12));
  const point = new Point14Encoder();
  const rgb = format === 7 ? new Rgb14Encoder() : null;
  for (let i = 0; i < count; i++) {
    const o = (order ? order[i]! : i) * RECORD_SIZE;
    const channel = point.compress(view, o, records, out);
    if (rgb) rgb.compress(view, o + POINT14_SIZE, records, channel, out);
  }
  if (count === 0) return new Uint8Array(0);
  out.putUint32(count);
  const layers = point.layers();
  if (rgb) layers.push(rgb.enc);
  for (const layer of layers) layer.done();
  for (const layer of layers) out.putUint32(layer.numEncoded());
  for (const layer of layers) if (layer.numEncoded()) out.putBytes(layer.encodedBytes());
  return out.view().slice();
}
