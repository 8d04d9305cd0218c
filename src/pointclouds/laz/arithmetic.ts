// The entropy coder of LASzip (the LAZ specification 1.4 R1 and its reference encoders,
// LASzip and laz-perf): Amir Said's fast arithmetic coder with 32-bit registers, adaptive
// symbol and bit models with periodic updates, and the integer (corrector) compressor
// built on them. Everything here must produce the byte streams those decoders expect bit
// for bit: the tests decode what this writes with laz-perf (the maintained WASM build of
// the reference) and compare every field.
//
// All arithmetic is on unsigned 32-bit values held in JS numbers; a product of a 13- or
// 15-bit probability and a shifted length stays below 2^32, so doubles compute it exactly.

const MIN_LENGTH = 0x01000000;
const MAX_LENGTH = 0xffffffff;
const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;
const TWO_32 = 4294967296;

/** An adaptive model of `symbols` symbols (2…2048). */
export class SymbolModel {
  readonly symbols: number;
  readonly lastSymbol: number;
  readonly distribution: Uint32Array;
  readonly symbolCount: Uint32Array;
  totalCount = 0;
  updateCycle: number;
  symbolsUntilUpdate: number;

  constructor(symbols: number) {
    if (symbols < 2 || symbols > 2048) throw new Error(`invalid number of symbols: ${symbols}`);
    this.symbols = symbols;
    this.lastSymbol = symbols - 1;
    this.distribution = new Uint32Array(symbols);
    this.symbolCount = new Uint32Array(symbols).fill(1);
    this.updateCycle = symbols;
    this.symbolsUntilUpdate = symbols;
    this.update();
    this.symbolsUntilUpdate = this.updateCycle = (symbols + 6) >>> 1;
  }

  update(): void {
    const count = this.symbolCount;
    if ((this.totalCount += this.updateCycle) > DM_MAX_COUNT) {
      let total = 0;
      for (let n = 0; n < this.symbols; n++) total += count[n] = (count[n]! + 1) >>> 1;
      this.totalCount = total;
    }
    const scale = Math.floor(0x80000000 / this.totalCount);
    let sum = 0;
    for (let k = 0; k < this.symbols; k++) {
      this.distribution[k] = (scale * sum) >>> (31 - DM_LENGTH_SHIFT);
      sum += count[k]!;
    }
    this.updateCycle = (5 * this.updateCycle) >>> 2;
    const maxCycle = (this.symbols + 6) << 3;
    if (this.updateCycle > maxCycle) this.updateCycle = maxCycle;
    this.symbolsUntilUpdate = this.updateCycle;
  }
}

/** An adaptive binary model. */
export class BitModel {
  updateCycle = 4;
  bitsUntilUpdate = 4;
  bit0Prob = 1 << (BM_LENGTH_SHIFT - 1);
  bit0Count = 1;
  bitCount = 2;

  update(): void {
    if ((this.bitCount += this.updateCycle) > BM_MAX_COUNT) {
      this.bitCount = (this.bitCount + 1) >>> 1;
      this.bit0Count = (this.bit0Count + 1) >>> 1;
      if (this.bit0Count === this.bitCount) ++this.bitCount;
    }
    const scale = Math.floor(0x80000000 / this.bitCount);
    this.bit0Prob = (this.bit0Count * scale) >>> (31 - BM_LENGTH_SHIFT);
    this.updateCycle = (5 * this.updateCycle) >>> 2;
    if (this.updateCycle > 64) this.updateCycle = 64;
    this.bitsUntilUpdate = this.updateCycle;
  }
}

/** A growable byte buffer. */
export class ByteSink {
  bytes: Uint8Array;
  length = 0;
  constructor(capacity = 1024) {
    this.bytes = new Uint8Array(capacity);
  }
  ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
  putByte(b: number): void {
    if (this.length === this.bytes.length) this.ensure(1);
    this.bytes[this.length++] = b;
  }
  putBytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.bytes.set(src, this.length);
    this.length += src.length;
  }
  putUint32(v: number): void {
    this.ensure(4);
    const b = this.bytes;
    const i = this.length;
    b[i] = v & 0xff;
    b[i + 1] = (v >>> 8) & 0xff;
    b[i + 2] = (v >>> 16) & 0xff;
    b[i + 3] = (v >>> 24) & 0xff;
    this.length += 4;
  }
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * The arithmetic encoder. Bytes go to `out`; a carry walks back over the bytes already
 * written (the reference keeps a ring buffer for that; here the whole output is at hand).
 * `valid` false: the stream counts as empty unless `makeValid()` is called (LAZ 1.4's
 * layers that never change within a chunk are stored as zero bytes).
 */
export class ArithmeticEncoder {
  readonly out: ByteSink;
  /** [base, length]: unsigned 32-bit registers (a typed array keeps them unboxed). */
  private readonly st = new Uint32Array([0, MAX_LENGTH]);
  valid: boolean;

  constructor(valid = true, out = new ByteSink()) {
    this.valid = valid;
    this.out = out;
  }

  makeValid(): void {
    this.valid = true;
  }

  /** Bytes the stream contributes to its chunk (0 for a never-validated layer). */
  numEncoded(): number {
    return this.valid ? this.out.length : 0;
  }

  encodedBytes(): Uint8Array {
    return this.out.view();
  }

  done(): void {
    let anotherByte = true;
    if (this.st[1]! > 2 * MIN_LENGTH) {
      this.addBase(MIN_LENGTH); // one more byte
      this.st[1] = MIN_LENGTH >>> 1;
    } else {
      this.addBase(MIN_LENGTH >>> 1); // two more bytes
      this.st[1] = MIN_LENGTH >>> 9;
      anotherByte = false;
    }
    this.renorm();
    // Zero bytes keep the decoder's 4-byte reads in step.
    this.out.putByte(0);
    this.out.putByte(0);
    if (anotherByte) this.out.putByte(0);
  }

  private propagateCarry(): void {
    const b = this.out.bytes;
    let i = this.out.length - 1;
    while (i >= 0 && b[i] === 0xff) b[i--] = 0;
    if (i >= 0) b[i]!++;
  }

  /** Shifts out the top byte until the interval is long enough again. */
  private renorm(): void {
    const st = this.st;
    let base = st[0]!;
    let length = st[1]!;
    const out = this.out;
    do {
      out.putByte(base >>> 24);
      base = (base << 8) >>> 0;
      length = (length << 8) >>> 0;
    } while (length < MIN_LENGTH);
    st[0] = base;
    st[1] = length;
  }

  /** base += x (mod 2^32), carrying into the bytes already written. */
  private addBase(x: number): void {
    const sum = this.st[0]! + x;
    this.st[0] = sum;
    if (sum >= TWO_32) this.propagateCarry();
  }

  encodeBit(m: BitModel, sym: number): void {
    const st = this.st;
    const length = st[1]!;
    const x = m.bit0Prob * (length >>> BM_LENGTH_SHIFT);
    if (sym === 0) {
      st[1] = x;
      ++m.bit0Count;
    } else {
      this.addBase(x);
      st[1] = length - x;
    }
    if (st[1]! < MIN_LENGTH) this.renorm();
    if (--m.bitsUntilUpdate === 0) m.update();
  }

  encodeSymbol(m: SymbolModel, sym: number): void {
    const st = this.st;
    let length = st[1]!;
    const dist = m.distribution;
    let x: number;
    if (sym === m.lastSymbol) {
      x = dist[sym]! * (length >>> DM_LENGTH_SHIFT);
      length -= x;
    } else {
      length >>>= DM_LENGTH_SHIFT;
      x = dist[sym]! * length;
      length = dist[sym + 1]! * length - x;
    }
    const sum = st[0]! + x;
    st[0] = sum;
    st[1] = length;
    if (sum >= TWO_32) this.propagateCarry();
    if (length < MIN_LENGTH) this.renorm();
    ++m.symbolCount[sym]!;
    if (--m.symbolsUntilUpdate === 0) m.update();
  }

  writeBits(bits: number, sym: number): void {
    if (bits > 19) {
      this.writeShort(sym & 0xffff);
      sym = sym >>> 16;
      bits -= 16;
    }
    const length = this.st[1]! >>> bits;
    this.st[1] = length;
    this.addBase(sym * length);
    if (length < MIN_LENGTH) this.renorm();
  }

  writeShort(sym: number): void {
    const length = this.st[1]! >>> 16;
    this.st[1] = length;
    this.addBase(sym * length);
    if (length < MIN_LENGTH) this.renorm();
  }

  writeInt(sym: number): void {
    this.writeShort(sym & 0xffff);
    this.writeShort(sym >>> 16);
  }
}

/** The arithmetic decoder (used here for LAZ chunk tables; laz-perf decodes the points). */
export class ArithmeticDecoder {
  private value = 0;
  private length = MAX_LENGTH;
  private pos: number;
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array, start = 0) {
    this.bytes = bytes;
    this.pos = start;
    this.value = ((this.byte() << 24) | (this.byte() << 16) | (this.byte() << 8) | this.byte()) >>> 0;
  }

  private byte(): number {
    if (this.pos >= this.bytes.length) throw new Error('LAZ: the compressed data ends early');
    return this.bytes[this.pos++]!;
  }

  private renorm(): void {
    do {
      this.value = ((this.value & 0x00ffffff) * 256 + this.byte()) >>> 0;
      this.length = (this.length & 0x00ffffff) * 256;
    } while (this.length < MIN_LENGTH);
  }

  decodeBit(m: BitModel): number {
    const x = m.bit0Prob * (this.length >>> BM_LENGTH_SHIFT);
    const sym = this.value >= x ? 1 : 0;
    if (sym === 0) {
      this.length = x;
      ++m.bit0Count;
    } else {
      this.value -= x;
      this.length -= x;
    }
    if (this.length < MIN_LENGTH) this.renorm();
    if (--m.bitsUntilUpdate === 0) m.update();
    return sym;
  }

  decodeSymbol(m: SymbolModel): number {
    let y = this.length;
    let x = 0;
    let sym = 0;
    this.length >>>= DM_LENGTH_SHIFT;
    let n = m.symbols;
    let k = n >>> 1;
    do {
      const z = this.length * m.distribution[k]!;
      if (z > this.value) {
        n = k;
        y = z;
      } else {
        sym = k;
        x = z;
      }
    } while ((k = (sym + n) >>> 1) !== sym);
    this.value -= x;
    this.length = y - x;
    if (this.length < MIN_LENGTH) this.renorm();
    ++m.symbolCount[sym]!;
    if (--m.symbolsUntilUpdate === 0) m.update();
    return sym;
  }

  readBits(bits: number): number {
    if (bits > 19) {
      const low = this.readShort();
      const high = this.readBits(bits - 16);
      return (high * 65536 + low) >>> 0;
    }
    this.length = Math.floor(this.length / 2 ** bits);
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < MIN_LENGTH) this.renorm();
    return sym;
  }

  readShort(): number {
    this.length >>>= 16;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < MIN_LENGTH) this.renorm();
    return sym;
  }
}

const BITS_HIGH = 8;

/** LASzip's integer compressor: a corrector (real − prediction) coded by its magnitude class k. */
export class IntegerCompressor {
  private readonly corrBits: number;
  private readonly corrRange: number;
  private readonly corrMin: number;
  private readonly corrMax: number;
  private readonly mBits: SymbolModel[] = [];
  private readonly mCorrector: SymbolModel[] = [];
  private readonly mCorrector0 = new BitModel();
  k = 0;

  constructor(bits = 16, contexts = 1) {
    if (bits && bits < 32) {
      this.corrBits = bits;
      this.corrRange = 2 ** bits;
      this.corrMin = -(this.corrRange / 2);
      this.corrMax = this.corrMin + this.corrRange - 1;
    } else {
      this.corrBits = 32;
      this.corrRange = 0;
      this.corrMin = -2147483648;
      this.corrMax = 2147483647;
    }
    for (let i = 0; i < contexts; i++) this.mBits.push(new SymbolModel(this.corrBits + 1));
    for (let i = 1; i <= this.corrBits; i++) this.mCorrector.push(new SymbolModel(i <= BITS_HIGH ? 1 << i : 1 << BITS_HIGH));
  }

  compress(enc: ArithmeticEncoder, pred: number, real: number, context: number): void {
    let c: number;
    if (this.corrRange === 0) c = (real - pred) | 0;
    else {
      c = real - pred;
      if (c < this.corrMin) c += this.corrRange;
      else if (c > this.corrMax) c -= this.corrRange;
    }
    // The tightest interval [−(2^k − 1), 2^k] holding c; k goes first, then c within it.
    const c1 = c <= 0 ? -c : c - 1;
    const k = c1 === 0 ? 0 : 32 - Math.clz32(c1);
    this.k = k;
    enc.encodeSymbol(this.mBits[context]!, k);
    if (k === 0) {
      enc.encodeBit(this.mCorrector0, c);
      return;
    }
    if (k === 32) return;
    if (c < 0) c += k < 31 ? (1 << k) - 1 : 2147483647;
    else c -= 1;
    if (k <= BITS_HIGH) enc.encodeSymbol(this.mCorrector[k - 1]!, c);
    else {
      const k1 = k - BITS_HIGH;
      enc.encodeSymbol(this.mCorrector[k - 1]!, c >>> k1);
      enc.writeBits(k1, c & ((1 << k1) - 1));
    }
  }
}

/** The decompressor matching IntegerCompressor. */
export class IntegerDecompressor {
  private readonly corrBits: number;
  private readonly corrRange: number;
  private readonly mBits: SymbolModel[] = [];
  private readonly mCorrector: SymbolModel[] = [];
  private readonly mCorrector0 = new BitModel();

  constructor(bits = 16, contexts = 1) {
    this.corrBits = bits && bits < 32 ? bits : 32;
    this.corrRange = bits && bits < 32 ? 2 ** bits : 0;
    for (let i = 0; i < contexts; i++) this.mBits.push(new SymbolModel(this.corrBits + 1));
    for (let i = 1; i <= this.corrBits; i++) this.mCorrector.push(new SymbolModel(i <= BITS_HIGH ? 1 << i : 1 << BITS_HIGH));
  }

  decompress(dec: ArithmeticDecoder, pred: number, context: number): number {
    const k = dec.decodeSymbol(this.mBits[context]!);
    let c: number;
    if (k === 0) c = dec.decodeBit(this.mCorrector0);
    else if (k === 32) c = -2147483648;
    else {
      if (k <= BITS_HIGH) c = dec.decodeSymbol(this.mCorrector[k - 1]!);
      else {
        const k1 = k - BITS_HIGH;
        const high = dec.decodeSymbol(this.mCorrector[k - 1]!);
        c = high * 2 ** k1 + dec.readBits(k1);
      }
      if (c >= 2 ** (k - 1)) c += 1;
      else c -= 2 ** k - 1;
    }
    if (this.corrRange === 0) return (pred + c) | 0;
    let real = pred + c;
    if (real < 0) real += this.corrRange;
    else if (real >= this.corrRange) real -= this.corrRange;
    return real;
  }
}
