// The decoding side of LASzip's entropy coder (the LAZ specification 1.4 R1 and its
// reference coders, LASzip and laz-perf): Amir Said's arithmetic decoder with 32-bit
// registers, the adaptive symbol and bit models with periodic updates, and the integer
// (corrector) decompressor built on them. The LAS reader decodes LAZ chunk tables with it
// (laz-perf decodes the points); the encoder is assembly/encoder.ts (chunk-encoder.ts).
//
// All arithmetic is on unsigned 32-bit values held in JS numbers; a product of a 13- or
// 15-bit probability and a shifted length stays below 2^32, so doubles compute it exactly.

const MIN_LENGTH = 0x01000000;
const MAX_LENGTH = 0xffffffff;
const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;

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

/** LASzip's integer decompressor: a corrector (real − prediction) read by its magnitude class k, then within it. */
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
