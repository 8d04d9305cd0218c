// The LAZ encoder, in AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs and
// called through ../chunk-encoder.ts (which says what it writes and why it is ours).
//
// LASzip's entropy coder (LAZ specification 1.4 R1 and its reference encoders, LASzip and
// laz-perf): Amir Said's arithmetic coder with 32-bit registers, adaptive symbol and bit
// models with periodic updates, and the integer (corrector) compressor built on them; then
// the point 14 and RGB 14 items of LASzip's "layered chunked" compressor 3 (their context
// rules below). Everything here must produce the byte streams those decoders expect bit for
// bit: test/pointclouds/laz.test.ts decodes what this writes with laz-perf and compares every
// field. Registers are u32 and wrap as the reference's do; a product of a 13- or 15-bit
// probability and a shifted length stays below 2^32.
const MIN_LENGTH: u32 = 0x01000000;
const MAX_LENGTH: u32 = 0xffffffff;
const BM_LENGTH_SHIFT: u32 = 13;
const BM_MAX_COUNT: u32 = 1 << BM_LENGTH_SHIFT;
const DM_LENGTH_SHIFT: u32 = 15;
const DM_MAX_COUNT: u32 = 1 << DM_LENGTH_SHIFT;
const RECORD_SIZE: i32 = 36;
const POINT14_SIZE: i32 = 30;

class SymbolModel {
  symbols: u32;
  lastSymbol: u32;
  distribution: StaticArray<u32>;
  symbolCount: StaticArray<u32>;
  totalCount: u32 = 0;
  updateCycle: u32;
  symbolsUntilUpdate: u32;

  constructor(symbols: u32) {
    this.symbols = symbols;
    this.lastSymbol = symbols - 1;
    this.distribution = new StaticArray<u32>(symbols);
    const count = new StaticArray<u32>(symbols);
    for (let i: u32 = 0; i < symbols; i++) unchecked((count[i] = 1));
    this.symbolCount = count;
    this.updateCycle = symbols;
    this.symbolsUntilUpdate = symbols;
    this.update();
    this.symbolsUntilUpdate = this.updateCycle = (symbols + 6) >>> 1;
  }

  update(): void {
    const count = this.symbolCount;
    const n = this.symbols;
    if ((this.totalCount += this.updateCycle) > DM_MAX_COUNT) {
      let total: u32 = 0;
      for (let i: u32 = 0; i < n; i++) {
        const v = (unchecked(count[i]) + 1) >>> 1;
        unchecked((count[i] = v));
        total += v;
      }
      this.totalCount = total;
    }
    const scale: u32 = 0x80000000 / this.totalCount;
    const dist = this.distribution;
    let sum: u32 = 0;
    for (let k: u32 = 0; k < n; k++) {
      unchecked((dist[k] = (scale * sum) >>> (31 - DM_LENGTH_SHIFT)));
      sum += unchecked(count[k]);
    }
    let cycle: u32 = (5 * this.updateCycle) >>> 2;
    const maxCycle: u32 = (n + 6) << 3;
    if (cycle > maxCycle) cycle = maxCycle;
    this.updateCycle = cycle;
    this.symbolsUntilUpdate = cycle;
  }
}

class BitModel {
  updateCycle: u32 = 4;
  bitsUntilUpdate: u32 = 4;
  bit0Prob: u32 = 1 << (BM_LENGTH_SHIFT - 1);
  bit0Count: u32 = 1;
  bitCount: u32 = 2;

  update(): void {
    if ((this.bitCount += this.updateCycle) > BM_MAX_COUNT) {
      this.bitCount = (this.bitCount + 1) >>> 1;
      this.bit0Count = (this.bit0Count + 1) >>> 1;
      if (this.bit0Count == this.bitCount) ++this.bitCount;
    }
    const scale: u32 = 0x80000000 / this.bitCount;
    this.bit0Prob = (this.bit0Count * scale) >>> (31 - BM_LENGTH_SHIFT);
    let cycle = (5 * this.updateCycle) >>> 2;
    if (cycle > 64) cycle = 64;
    this.updateCycle = cycle;
    this.bitsUntilUpdate = cycle;
  }
}

class ByteSink {
  ptr: usize;
  capacity: i32;
  length: i32 = 0;
  constructor(capacity: i32) {
    this.capacity = capacity;
    this.ptr = heap.alloc(<usize>capacity);
  }
  ensure(extra: i32): void {
    if (this.length + extra <= this.capacity) return;
    let size = this.capacity * 2;
    while (size < this.length + extra) size *= 2;
    const next = heap.alloc(<usize>size);
    memory.copy(next, this.ptr, <usize>this.length);
    this.ptr = next;
    this.capacity = size;
  }
  @inline putByte(b: u32): void {
    if (this.length == this.capacity) this.ensure(1);
    store<u8>(this.ptr + <usize>this.length, <u8>b);
    this.length++;
  }
  putBytes(src: usize, n: i32): void {
    this.ensure(n);
    memory.copy(this.ptr + <usize>this.length, src, <usize>n);
    this.length += n;
  }
  putUint32(v: u32): void {
    this.ensure(4);
    store<u32>(this.ptr + <usize>this.length, v);
    this.length += 4;
  }
}

class ArithmeticEncoder {
  out: ByteSink;
  base: u32 = 0;
  length: u32 = MAX_LENGTH;
  valid: bool;

  constructor(valid: bool, capacity: i32) {
    this.valid = valid;
    this.out = new ByteSink(capacity);
  }

  @inline makeValid(): void {
    this.valid = true;
  }

  numEncoded(): i32 {
    return this.valid ? this.out.length : 0;
  }

  done(): void {
    let anotherByte = true;
    if (this.length > 2 * MIN_LENGTH) {
      this.addBase(MIN_LENGTH);
      this.length = MIN_LENGTH >>> 1;
    } else {
      this.addBase(MIN_LENGTH >>> 1);
      this.length = MIN_LENGTH >>> 9;
      anotherByte = false;
    }
    this.renorm();
    this.out.putByte(0);
    this.out.putByte(0);
    if (anotherByte) this.out.putByte(0);
  }

  propagateCarry(): void {
    const p = this.out.ptr;
    let i = this.out.length - 1;
    while (i >= 0 && load<u8>(p + <usize>i) == 0xff) {
      store<u8>(p + <usize>i, 0);
      i--;
    }
    if (i >= 0) store<u8>(p + <usize>i, load<u8>(p + <usize>i) + 1);
  }

  renorm(): void {
    let base = this.base;
    let length = this.length;
    const out = this.out;
    do {
      out.putByte(base >>> 24);
      base <<= 8;
      length <<= 8;
    } while (length < MIN_LENGTH);
    this.base = base;
    this.length = length;
  }

  @inline addBase(x: u32): void {
    const sum = this.base + x;
    this.base = sum;
    if (sum < x) this.propagateCarry();
  }

  encodeBit(m: BitModel, sym: u32): void {
    const length = this.length;
    const x = m.bit0Prob * (length >>> BM_LENGTH_SHIFT);
    if (sym == 0) {
      this.length = x;
      ++m.bit0Count;
    } else {
      this.addBase(x);
      this.length = length - x;
    }
    if (this.length < MIN_LENGTH) this.renorm();
    if (--m.bitsUntilUpdate == 0) m.update();
  }

  encodeSymbol(m: SymbolModel, sym: u32): void {
    let length = this.length;
    const dist = m.distribution;
    let x: u32;
    if (sym == m.lastSymbol) {
      x = unchecked(dist[sym]) * (length >>> DM_LENGTH_SHIFT);
      length -= x;
    } else {
      length >>>= DM_LENGTH_SHIFT;
      x = unchecked(dist[sym]) * length;
      length = unchecked(dist[sym + 1]) * length - x;
    }
    const sum = this.base + x;
    this.base = sum;
    this.length = length;
    if (sum < x) this.propagateCarry();
    if (length < MIN_LENGTH) this.renorm();
    const count = m.symbolCount;
    unchecked((count[sym] = count[sym] + 1));
    if (--m.symbolsUntilUpdate == 0) m.update();
  }

  writeBits(bits: u32, sym: u32): void {
    if (bits > 19) {
      this.writeShort(sym & 0xffff);
      sym = sym >>> 16;
      bits -= 16;
    }
    const length = this.length >>> bits;
    this.length = length;
    this.addBase(sym * length);
    if (length < MIN_LENGTH) this.renorm();
  }

  writeShort(sym: u32): void {
    const length = this.length >>> 16;
    this.length = length;
    this.addBase(sym * length);
    if (length < MIN_LENGTH) this.renorm();
  }

  writeInt(sym: u32): void {
    this.writeShort(sym & 0xffff);
    this.writeShort(sym >>> 16);
  }
}

const BITS_HIGH: u32 = 8;

class IntegerCompressor {
  corrBits: u32;
  corrRange: i32;
  corrMin: i32;
  corrMax: i32;
  mBits: StaticArray<SymbolModel>;
  mCorrector: StaticArray<SymbolModel | null>;
  mCorrector0: BitModel = new BitModel();
  k: u32 = 0;

  constructor(bits: u32, contexts: i32) {
    const small = bits > 0 && bits < 32;
    const corrBits: u32 = small ? bits : 32;
    const corrRange: i32 = small ? 1 << bits : 0;
    const mBits = new StaticArray<SymbolModel>(contexts);
    for (let i = 0; i < contexts; i++) unchecked((mBits[i] = new SymbolModel(corrBits + 1)));
    this.mBits = mBits;
    this.corrBits = corrBits;
    this.corrRange = corrRange;
    this.corrMin = small ? -(corrRange / 2) : i32.MIN_VALUE;
    this.corrMax = small ? -(corrRange / 2) + corrRange - 1 : i32.MAX_VALUE;
    // Corrector models are made on first use (most k never occur in a chunk); the models
    // are independent, so when each is made changes no byte.
    this.mCorrector = new StaticArray<SymbolModel | null>(corrBits);
  }

  @inline corrector(k: u32): SymbolModel {
    let m = unchecked(this.mCorrector[k - 1]);
    if (m === null) {
      m = new SymbolModel(k <= BITS_HIGH ? 1 << k : 1 << BITS_HIGH);
      unchecked((this.mCorrector[k - 1] = m));
    }
    return m;
  }

  compress(enc: ArithmeticEncoder, pred: i32, real: i32, context: i32): void {
    let c: i32;
    if (this.corrRange == 0) c = real - pred;
    else {
      c = real - pred;
      if (c < this.corrMin) c += this.corrRange;
      else if (c > this.corrMax) c -= this.corrRange;
    }
    const c1: u32 = c <= 0 ? <u32>-c : <u32>(c - 1);
    const k: u32 = c1 == 0 ? 0 : 32 - clz<u32>(c1);
    this.k = k;
    enc.encodeSymbol(unchecked(this.mBits[context]), k);
    if (k == 0) {
      enc.encodeBit(this.mCorrector0, <u32>c);
      return;
    }
    if (k == 32) return;
    if (c < 0) c += k < 31 ? (1 << k) - 1 : i32.MAX_VALUE;
    else c -= 1;
    if (k <= BITS_HIGH) enc.encodeSymbol(this.corrector(k), <u32>c);
    else {
      const k1 = k - BITS_HIGH;
      enc.encodeSymbol(this.corrector(k), <u32>c >>> k1);
      enc.writeBits(k1, <u32>c & ((1 << k1) - 1));
    }
  }
}

// prettier-ignore
const NUMBER_RETURN_MAP_6CTX: StaticArray<u8> = [
  0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5, 1, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
  2, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 3, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 3, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  3, 3, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 3, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 5, 3, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4,
  5, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 4,
  5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 4, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4,
  5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5,
];

const GPS_MULTI: i32 = 500;
const GPS_MULTI_MINUS: i32 = -10;
const GPS_MULTI_CODE_FULL: u32 = 511;

class Median5 {
  v0: i32 = 0;
  v1: i32 = 0;
  v2: i32 = 0;
  v3: i32 = 0;
  v4: i32 = 0;
  high: bool = true;
  add(x: i32): void {
    if (this.high) {
      if (x < this.v2) {
        this.v4 = this.v3;
        this.v3 = this.v2;
        if (x < this.v0) {
          this.v2 = this.v1;
          this.v1 = this.v0;
          this.v0 = x;
        } else if (x < this.v1) {
          this.v2 = this.v1;
          this.v1 = x;
        } else this.v2 = x;
      } else {
        if (x < this.v3) {
          this.v4 = this.v3;
          this.v3 = x;
        } else this.v4 = x;
        this.high = false;
      }
    } else if (this.v2 < x) {
      this.v0 = this.v1;
      this.v1 = this.v2;
      if (this.v4 < x) {
        this.v2 = this.v3;
        this.v3 = this.v4;
        this.v4 = x;
      } else if (this.v3 < x) {
        this.v2 = this.v3;
        this.v3 = x;
      } else this.v2 = x;
    } else {
      if (this.v1 < x) {
        this.v0 = this.v1;
        this.v1 = x;
      } else this.v0 = x;
      this.high = true;
    }
  }
}

class ModelArray {
  models: StaticArray<SymbolModel | null>;
  symbols: u32;
  constructor(count: i32, symbols: u32) {
    this.symbols = symbols;
    this.models = new StaticArray<SymbolModel | null>(count);
  }
  @inline at(i: i32): SymbolModel {
    let m = unchecked(this.models[i]);
    if (m === null) {
      m = new SymbolModel(this.symbols);
      unchecked((this.models[i] = m));
    }
    return m;
  }
}

class Point14 {
  x: i32 = 0;
  y: i32 = 0;
  z: i32 = 0;
  intensity: i32 = 0;
  returnNum: i32 = 0;
  numReturns: i32 = 0;
  flags: i32 = 0;
  classification: i32 = 0;
  userData: i32 = 0;
  scanAngle: i32 = 0;
  pointSourceId: i32 = 0;
  gpsTime: f64 = 0;
  gpsLo: u32 = 0;
  gpsHi: i32 = 0;

  read(p: usize): void {
    this.x = load<i32>(p);
    this.y = load<i32>(p + 4);
    this.z = load<i32>(p + 8);
    this.intensity = load<u16>(p + 12);
    const returns: i32 = load<u8>(p + 14);
    this.returnNum = returns & 0xf;
    this.numReturns = returns >>> 4;
    this.flags = load<u8>(p + 15);
    this.classification = load<u8>(p + 16);
    this.userData = load<u8>(p + 17);
    this.scanAngle = load<i16>(p + 18);
    this.pointSourceId = load<u16>(p + 20);
    this.gpsTime = load<f64>(p + 22);
    this.gpsLo = load<u32>(p + 22);
    this.gpsHi = load<i32>(p + 26);
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

  @inline get scannerChannel(): i32 {
    return (this.flags >>> 4) & 3;
  }
  @inline get packedFlags(): i32 {
    return (this.flags & 0xf) | (((this.flags >>> 6) & 1) << 4) | (((this.flags >>> 7) & 1) << 5);
  }
}

class ChannelContext {
  changedValues: ModelArray = new ModelArray(8, 128);
  scannerChannel: SymbolModel = new SymbolModel(3);
  rnGpsSame: SymbolModel = new SymbolModel(13);
  nr: ModelArray = new ModelArray(16, 16);
  rn: ModelArray = new ModelArray(16, 16);
  classModels: ModelArray = new ModelArray(64, 256);
  flagModels: ModelArray = new ModelArray(64, 64);
  userData: ModelArray = new ModelArray(64, 256);
  gpsMulti: SymbolModel = new SymbolModel(515);
  gps0Diff: SymbolModel = new SymbolModel(5);
  dx: IntegerCompressor = new IntegerCompressor(32, 2);
  dy: IntegerCompressor = new IntegerCompressor(32, 22);
  dz: IntegerCompressor = new IntegerCompressor(32, 20);
  intensityCompressor: IntegerCompressor = new IntegerCompressor(16, 4);
  scanAngleCompressor: IntegerCompressor = new IntegerCompressor(16, 2);
  pointSourceCompressor: IntegerCompressor = new IntegerCompressor(16, 1);
  gpsCompressor: IntegerCompressor = new IntegerCompressor(32, 9);
  haveLast: bool = false;
  last: Point14 = new Point14();
  lastIntensity: StaticArray<i32> = new StaticArray<i32>(8);
  lastZ: StaticArray<i32> = new StaticArray<i32>(8);
  xMedians: StaticArray<Median5> = medians();
  yMedians: StaticArray<Median5> = medians();
  lastGpsSeq: i32 = 0;
  nextGpsSeq: i32 = 0;
  lastGpsTime: StaticArray<f64> = new StaticArray<f64>(4);
  lastGpsHi: StaticArray<i32> = new StaticArray<i32>(4);
  lastGpsLo: StaticArray<u32> = new StaticArray<u32>(4);
  lastGpsDiff: StaticArray<i32> = new StaticArray<i32>(4);
  multiExtremeCounter: StaticArray<i32> = new StaticArray<i32>(4);
  gpsTimeChange: bool = false;
  /** gpsDiff()'s difference (AssemblyScript has no tuples that do not allocate). */
  diff: i32 = 0;

  setLastGps(seq: i32, p: Point14): void {
    unchecked((this.lastGpsTime[seq] = p.gpsTime));
    unchecked((this.lastGpsHi[seq] = p.gpsHi));
    unchecked((this.lastGpsLo[seq] = p.gpsLo));
  }
  /** Whether the 64-bit difference of the bit patterns (current − `seq`) fits 32 bits; it is left in `diff`. */
  gpsDiff(p: Point14, seq: i32): bool {
    const d: i64 = (<i64>p.gpsHi - <i64>unchecked(this.lastGpsHi[seq])) * 4294967296 + (<i64>p.gpsLo - <i64>unchecked(this.lastGpsLo[seq]));
    this.diff = <i32>d;
    return d >= -2147483648 && d <= 2147483647;
  }
}

function medians(): StaticArray<Median5> {
  const a = new StaticArray<Median5>(12);
  for (let i = 0; i < 12; i++) unchecked((a[i] = new Median5()));
  return a;
}

function fill(a: StaticArray<i32>, v: i32): void {
  for (let i = 0; i < a.length; i++) unchecked((a[i] = v));
}

/** The scanner channel's context, made on first use (a chunk rarely has more than one channel). */
function slot<T>(slots: StaticArray<T | null>, i: i32): T {
  let v = unchecked(slots[i]);
  if (v === null) {
    v = instantiate<T>();
    unchecked((slots[i] = v));
  }
  return v;
}

function returnLevel(n: i32, r: i32): i32 {
  const d = n > r ? n - r : r - n;
  return d < 7 ? d : 7;
}

function roundToInt32(v: f64): i32 {
  const r = v < 0 ? -Math.floor(-v + 0.5) : Math.floor(v + 0.5);
  return r >= 2147483648 || r < -2147483648 || isNaN(r) ? i32.MIN_VALUE : <i32>r;
}

class Point14Encoder {
  contexts: StaticArray<ChannelContext | null> = new StaticArray<ChannelContext | null>(4);
  lastChannel: i32 = -1;
  xy: ArithmeticEncoder;
  z: ArithmeticEncoder;
  cls: ArithmeticEncoder;
  flags: ArithmeticEncoder;
  intensity: ArithmeticEncoder;
  scanAngle: ArithmeticEncoder;
  userData: ArithmeticEncoder;
  pointSource: ArithmeticEncoder;
  gps: ArithmeticEncoder;
  point: Point14 = new Point14();
  foundIndex: i32 = 0;
  foundDiff: i32 = 0;

  constructor(count: i32) {
    this.xy = new ArithmeticEncoder(true, count * 4 + 64);
    this.z = new ArithmeticEncoder(true, count * 2 + 64);
    this.cls = new ArithmeticEncoder(false, 1024);
    this.flags = new ArithmeticEncoder(false, 1024);
    this.intensity = new ArithmeticEncoder(false, count + 64);
    this.scanAngle = new ArithmeticEncoder(false, 1024);
    this.userData = new ArithmeticEncoder(false, 1024);
    this.pointSource = new ArithmeticEncoder(false, 1024);
    this.gps = new ArithmeticEncoder(false, count + 64);
  }

  @inline context(sc: i32): ChannelContext {
    return slot<ChannelContext>(this.contexts, sc);
  }

  compress(p: usize, out: ByteSink): i32 {
    const point = this.point;
    point.read(p);
    const sc = point.scannerChannel;
    if (this.lastChannel == -1) {
      const c = this.context(sc);
      out.putBytes(p, POINT14_SIZE);
      c.last.copy(point);
      c.haveLast = true;
      c.setLastGps(0, point);
      this.lastChannel = sc;
      fill(c.lastZ, point.z);
      fill(c.lastIntensity, point.intensity);
      return sc;
    }
    const prev = this.context(this.lastChannel);
    const changeStream =
      (prev.last.returnNum == 1 ? 1 : 0) | (prev.last.returnNum >= prev.last.numReturns ? 2 : 0) | (prev.gpsTimeChange ? 4 : 0);
    const c = this.context(sc);
    const old = c.haveLast ? c : prev;
    const gpsTimeChange = point.gpsTime != old.last.gpsTime;
    const pointSourceChange = point.pointSourceId != old.last.pointSourceId;
    const scanAngleChange = point.scanAngle != old.last.scanAngle;
    const lastN = old.last.numReturns;
    const lastR = old.last.returnNum;
    const n = point.numReturns;
    const r = point.returnNum;
    const increments = r == (lastR + 1) % 16;
    const decrements = r == (lastR + 15) % 16;
    const miscChange = r != lastR && !increments && !decrements;
    const changedValues: u32 =
      (increments || miscChange ? 1 : 0) |
      (decrements || miscChange ? 2 : 0) |
      (n != lastN ? 4 : 0) |
      (scanAngleChange ? 8 : 0) |
      (gpsTimeChange ? 16 : 0) |
      (pointSourceChange ? 32 : 0) |
      (sc != this.lastChannel ? 64 : 0);
    this.xy.encodeSymbol(prev.changedValues.at(changeStream), changedValues);
    if (sc > this.lastChannel) this.xy.encodeSymbol(prev.scannerChannel, <u32>(sc - this.lastChannel - 1));
    else if (sc < this.lastChannel) this.xy.encodeSymbol(prev.scannerChannel, <u32>(sc - this.lastChannel - 1 + 4));

    if (!c.haveLast) {
      c.haveLast = true;
      c.last.copy(prev.last);
      fill(c.lastZ, prev.last.z);
      fill(c.lastIntensity, prev.last.intensity);
      c.setLastGps(0, prev.last);
    }
    if (n != lastN) this.xy.encodeSymbol(c.nr.at(lastN), <u32>n);
    if (miscChange) {
      if (gpsTimeChange) this.xy.encodeSymbol(c.rn.at(lastR), <u32>r);
      else {
        const diff = r - lastR;
        this.xy.encodeSymbol(c.rnGpsSame, <u32>(diff > 1 ? diff - 2 : diff - 2 + 16));
      }
    }

    // X and Y
    {
      const ctx = (<i32>unchecked(NUMBER_RETURN_MAP_6CTX[n * 16 + r]) << 1) | (gpsTimeChange ? 1 : 0);
      const xm = unchecked(c.xMedians[ctx]);
      let diff = point.x - c.last.x;
      c.dx.compress(this.xy, xm.v2, diff, n == 1 ? 1 : 0);
      xm.add(diff);
      const kx = c.dx.k < 20 ? c.dx.k : 20;
      const kbits = <i32>(kx & ~1);
      const ym = unchecked(c.yMedians[ctx]);
      diff = point.y - c.last.y;
      c.dy.compress(this.xy, ym.v2, diff, kbits | (n == 1 ? 1 : 0));
      ym.add(diff);
    }
    // Z
    {
      const kz = (c.dx.k + c.dy.k) >>> 1;
      const kbits = <i32>((kz < 18 ? kz : 18) & ~1);
      const ctx = returnLevel(n, r);
      c.dz.compress(this.z, unchecked(c.lastZ[ctx]), point.z, kbits | (n == 1 ? 1 : 0));
      unchecked((c.lastZ[ctx] = point.z));
    }
    // Classification
    {
      const ctx = (r == 1 && r >= n ? 1 : 0) | ((c.last.classification & 0x1f) << 1);
      if (point.classification != c.last.classification) this.cls.makeValid();
      this.cls.encodeSymbol(c.classModels.at(ctx), <u32>point.classification);
    }
    // Flags
    {
      const flags = point.packedFlags;
      const lastFlags = c.last.packedFlags;
      if (flags != lastFlags) this.flags.makeValid();
      this.flags.encodeSymbol(c.flagModels.at(lastFlags), <u32>flags);
    }
    // Intensity
    {
      const ctx = (gpsTimeChange ? 1 : 0) | (r >= n ? 2 : 0) | (r == 1 ? 4 : 0);
      if (point.intensity != c.last.intensity) this.intensity.makeValid();
      c.intensityCompressor.compress(this.intensity, unchecked(c.lastIntensity[ctx]), point.intensity, ctx >>> 1);
      unchecked((c.lastIntensity[ctx] = point.intensity));
    }
    // Scan angle
    if (point.scanAngle != c.last.scanAngle) {
      this.scanAngle.makeValid();
      c.scanAngleCompressor.compress(this.scanAngle, c.last.scanAngle, point.scanAngle, gpsTimeChange ? 1 : 0);
    }
    // User data
    {
      if (point.userData != c.last.userData) this.userData.makeValid();
      this.userData.encodeSymbol(c.userData.at(c.last.userData >>> 2), <u32>point.userData);
    }
    // Point source ID
    if (pointSourceChange) {
      this.pointSource.makeValid();
      c.pointSourceCompressor.compress(this.pointSource, c.last.pointSourceId, point.pointSourceId, 0);
    }
    if (gpsTimeChange) this.encodeGpsTime(point, c);

    const channelForNext = sc != this.lastChannel ? sc : 0;
    this.lastChannel = sc;
    c.gpsTimeChange = gpsTimeChange;
    c.last.copy(point);
    return channelForNext;
  }

  /** The first sequence from `start` whose difference fits 32 bits: index and diff in foundIndex / foundDiff (index −1: none). */
  findSeq(c: ChannelContext, p: Point14, start: i32): void {
    for (let i = start; i < 4; i++) {
      if (c.gpsDiff(p, (c.lastGpsSeq + i) & 3)) {
        this.foundIndex = i;
        this.foundDiff = c.diff;
        return;
      }
    }
    this.foundIndex = -1;
    this.foundDiff = 0;
  }

  encodeFull(p: Point14, c: ChannelContext): void {
    c.gpsCompressor.compress(this.gps, unchecked(c.lastGpsHi[c.lastGpsSeq]), p.gpsHi, 8);
    this.gps.writeInt(p.gpsLo);
    c.lastGpsSeq = c.nextGpsSeq = (c.nextGpsSeq + 1) & 3;
    unchecked((c.lastGpsDiff[c.lastGpsSeq] = 0));
    unchecked((c.multiExtremeCounter[c.lastGpsSeq] = 0));
  }

  extreme(c: ChannelContext, seq: i32, diff: i32): void {
    const n = unchecked(c.multiExtremeCounter[seq]) + 1;
    unchecked((c.multiExtremeCounter[seq] = n));
    if (n > 3) {
      unchecked((c.multiExtremeCounter[seq] = 0));
      unchecked((c.lastGpsDiff[seq] = diff));
    }
  }

  encodeGpsTime(p: Point14, c: ChannelContext): void {
    this.gps.makeValid();
    for (;;) {
      const seq = c.lastGpsSeq;
      if (unchecked(c.lastGpsDiff[seq]) == 0) {
        this.findSeq(c, p, 0);
        const index = this.foundIndex;
        if (index == 0) {
          this.gps.encodeSymbol(c.gps0Diff, 0);
          c.gpsCompressor.compress(this.gps, 0, this.foundDiff, 0);
          unchecked((c.lastGpsDiff[seq] = this.foundDiff));
          unchecked((c.multiExtremeCounter[seq] = 0));
        } else if (index > 0) {
          this.gps.encodeSymbol(c.gps0Diff, <u32>(index + 1));
          c.lastGpsSeq = (seq + index) & 3;
          continue;
        } else {
          this.gps.encodeSymbol(c.gps0Diff, 1);
          this.encodeFull(p, c);
        }
        c.setLastGps(c.lastGpsSeq, p);
        return;
      }
      if (c.gpsDiff(p, seq)) {
        const diff = c.diff;
        const lastDiff = unchecked(c.lastGpsDiff[seq]);
        const multi = roundToInt32(<f64>(<f32>diff / <f32>lastDiff));
        if (multi > 0 && multi < GPS_MULTI) {
          const tag = multi == 1 ? 1 : multi < 10 ? 2 : 3;
          this.gps.encodeSymbol(c.gpsMulti, <u32>multi);
          c.gpsCompressor.compress(this.gps, multi * lastDiff, diff, tag);
          if (tag == 1) unchecked((c.multiExtremeCounter[seq] = 0));
        } else if (multi >= GPS_MULTI) {
          this.gps.encodeSymbol(c.gpsMulti, <u32>GPS_MULTI);
          c.gpsCompressor.compress(this.gps, GPS_MULTI * lastDiff, diff, 4);
          this.extreme(c, seq, diff);
        } else if (multi < 0 && multi > GPS_MULTI_MINUS) {
          this.gps.encodeSymbol(c.gpsMulti, <u32>(GPS_MULTI - multi));
          c.gpsCompressor.compress(this.gps, multi * lastDiff, diff, 5);
        } else if (multi <= GPS_MULTI_MINUS) {
          this.gps.encodeSymbol(c.gpsMulti, <u32>(GPS_MULTI - GPS_MULTI_MINUS));
          c.gpsCompressor.compress(this.gps, GPS_MULTI_MINUS * lastDiff, diff, 6);
          this.extreme(c, seq, diff);
        } else {
          this.gps.encodeSymbol(c.gpsMulti, 0);
          c.gpsCompressor.compress(this.gps, 0, diff, 7);
          this.extreme(c, seq, diff);
        }
      } else {
        this.findSeq(c, p, 1);
        const index = this.foundIndex;
        if (index > 0) {
          this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI_CODE_FULL + <u32>index);
          c.lastGpsSeq = (seq + index) & 3;
          continue;
        }
        this.gps.encodeSymbol(c.gpsMulti, GPS_MULTI_CODE_FULL);
        this.encodeFull(p, c);
      }
      c.setLastGps(c.lastGpsSeq, p);
      return;
    }
  }
}

class Rgb14Context {
  haveLast: bool = false;
  last: StaticArray<i32> = new StaticArray<i32>(3);
  used: SymbolModel = new SymbolModel(128);
  diff: ModelArray = new ModelArray(6, 256);
}

function clampByte(v: i32): i32 {
  return v <= 0 ? 0 : v >= 255 ? 255 : v;
}

class Rgb14Encoder {
  contexts: StaticArray<Rgb14Context | null> = new StaticArray<Rgb14Context | null>(4);
  lastChannel: i32 = -1;
  enc: ArithmeticEncoder;

  constructor(count: i32) {
    this.enc = new ArithmeticEncoder(false, count + 64);
  }

  @inline context(sc: i32): Rgb14Context {
    return slot<Rgb14Context>(this.contexts, sc);
  }

  compress(p: usize, sc: i32, out: ByteSink): void {
    const r: i32 = load<u16>(p);
    const g: i32 = load<u16>(p + 2);
    const b: i32 = load<u16>(p + 4);
    if (this.lastChannel == -1) {
      const c = this.context(sc);
      out.putBytes(p, 6);
      unchecked((c.last[0] = r));
      unchecked((c.last[1] = g));
      unchecked((c.last[2] = b));
      c.haveLast = true;
      this.lastChannel = sc;
      return;
    }
    const c = this.context(sc);
    let last = unchecked(this.contexts[this.lastChannel])!.last;
    if (!c.haveLast) {
      c.haveLast = true;
      unchecked((c.last[0] = last[0]));
      unchecked((c.last[1] = last[1]));
      unchecked((c.last[2] = last[2]));
      last = c.last;
    }
    const lr = unchecked(last[0]);
    const lg = unchecked(last[1]);
    const lb = unchecked(last[2]);
    const sym: u32 =
      ((lr ^ r) & 0x00ff ? 1 : 0) |
      ((lr ^ r) & 0xff00 ? 2 : 0) |
      ((lg ^ g) & 0x00ff ? 4 : 0) |
      ((lg ^ g) & 0xff00 ? 8 : 0) |
      ((lb ^ b) & 0x00ff ? 16 : 0) |
      ((lb ^ b) & 0xff00 ? 32 : 0) |
      ((r ^ g) & 0x00ff || (r ^ b) & 0x00ff || (r ^ g) & 0xff00 || (r ^ b) & 0xff00 ? 64 : 0);
    const enc = this.enc;
    if (sym) enc.makeValid();
    enc.encodeSymbol(c.used, sym);
    let diffL = 0;
    let diffH = 0;
    if (sym & 1) {
      diffL = (r & 0xff) - (lr & 0xff);
      enc.encodeSymbol(c.diff.at(0), <u32>(diffL & 0xff));
    }
    if (sym & 2) {
      diffH = (r >>> 8) - (lr >>> 8);
      enc.encodeSymbol(c.diff.at(1), <u32>(diffH & 0xff));
    }
    if (sym & 64) {
      if (sym & 4) enc.encodeSymbol(c.diff.at(2), <u32>(((g & 0xff) - clampByte(diffL + (lg & 0xff))) & 0xff));
      if (sym & 16) {
        diffL = (diffL + (g & 0xff) - (lg & 0xff)) / 2;
        enc.encodeSymbol(c.diff.at(4), <u32>(((b & 0xff) - clampByte(diffL + (lb & 0xff))) & 0xff));
      }
      if (sym & 8) enc.encodeSymbol(c.diff.at(3), <u32>(((g >>> 8) - clampByte(diffH + (lg >>> 8))) & 0xff));
      if (sym & 32) {
        diffH = (diffH + (g >>> 8) - (lg >>> 8)) / 2;
        enc.encodeSymbol(c.diff.at(5), <u32>(((b >>> 8) - clampByte(diffH + (lb >>> 8))) & 0xff));
      }
    }
    unchecked((last[0] = r));
    unchecked((last[1] = g));
    unchecked((last[2] = b));
    this.lastChannel = sc;
  }
}

// ---- The module's interface: one call per chunk; prepare() frees what the last one allocated. ----

let input: usize = 0;
let output: usize = 0;

/** Frees everything the last call allocated and answers room for `bytes` bytes of input. */
export function prepare(bytes: i32): usize {
  __reset();
  input = heap.alloc(<usize>bytes);
  return input;
}

/** Compresses the `count` records prepared into one LAZ chunk; answers its byte length (its bytes are at outputPointer()). */
export function encode(format: i32, count: i32): i32 {
  if (count == 0) return 0;
  const out = new ByteSink(count * 12 + 1024);
  const point = new Point14Encoder(count);
  const rgb: Rgb14Encoder | null = format == 7 ? new Rgb14Encoder(count) : null;
  for (let i = 0; i < count; i++) {
    const p = input + <usize>(i * RECORD_SIZE);
    const channel = point.compress(p, out);
    if (rgb !== null) rgb.compress(p + POINT14_SIZE, channel, out);
  }
  out.putUint32(<u32>count);
  const layers = new StaticArray<ArithmeticEncoder>(format == 7 ? 10 : 9);
  layers[0] = point.xy;
  layers[1] = point.z;
  layers[2] = point.cls;
  layers[3] = point.flags;
  layers[4] = point.intensity;
  layers[5] = point.scanAngle;
  layers[6] = point.userData;
  layers[7] = point.pointSource;
  layers[8] = point.gps;
  if (rgb !== null) layers[9] = rgb.enc;
  for (let i = 0; i < layers.length; i++) layers[i].done();
  for (let i = 0; i < layers.length; i++) out.putUint32(<u32>layers[i].numEncoded());
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i];
    if (layer.numEncoded()) out.putBytes(layer.out.ptr, layer.out.length);
  }
  output = out.ptr;
  return out.length;
}

export function outputPointer(): usize {
  return output;
}

/**
 * The arithmetic-coded body of a LAZ chunk table: `count` (point count, byte size) pairs of
 * u32 prepared by prepare(), each predicted from the one before. Answers its byte length.
 */
export function encodeChunkTable(count: i32): i32 {
  const enc = new ArithmeticEncoder(true, count * 8 + 64);
  const ic = new IntegerCompressor(32, 2);
  let countPred: i32 = 0;
  let sizePred: i32 = 0;
  for (let i = 0; i < count; i++) {
    const points = load<i32>(input + <usize>(i * 8));
    const bytes = load<i32>(input + <usize>(i * 8 + 4));
    ic.compress(enc, countPred, points, 0);
    countPred = points;
    ic.compress(enc, sizePred, bytes, 1);
    sizePred = bytes;
  }
  enc.done();
  output = enc.out.ptr;
  return enc.out.length;
}
