// One LAZ chunk of LAS 1.4 points (point data record formats 6 and 7), compressed the way
// LASzip 3 does it (compressor 3, "layered chunked"; items POINT14 and RGB14, version 3):
// the first point raw, then the point count, the byte size of each layer, and the layers
// (xy with the change flags, z, classification, flags, intensity, scan angle, user data,
// point source, GPS time; then RGB). A layer whose value never changes in the chunk is
// stored as zero bytes. The context rules follow the LAZ specification and its reference
// encoders (LASzip, laz-perf) so that any LAZ 1.4 reader decodes the result; the tests
// decode it with laz-perf and compare every byte of every point.
//
// The encoder itself is this project's, in AssemblyScript (assembly/encoder.ts), compiled
// to WebAssembly by `npm ci` (scripts/build-wasm.mjs): no maintained LAZ encoder is
// published for Node (docs/point-clouds.md), and the same code in TypeScript ran at half
// the speed (docs/decisions.md "The LAZ encoder in WebAssembly"). This module moves the
// records into the instance's memory and the chunk out of it. Each thread (the conversion's
// workers, the server's box filter) has its own instance, made on first use.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { RECORD_SIZE, gatherRecords } from '../record.ts';

interface EncoderExports {
  memory: WebAssembly.Memory;
  prepare(bytes: number): number;
  encode(format: number, count: number): number;
  encodeChunkTable(count: number): number;
  outputPointer(): number;
}

/** The most points one chunk may hold here: 4 Mi, about 250 MiB of the instance's memory. */
export const MAX_CHUNK_POINTS = 1 << 22;

const WASM = new URL('./assembly/encoder.wasm', import.meta.url);
const SOURCE = new URL('./assembly/encoder.ts', import.meta.url);
let instance: EncoderExports | undefined;

/**
 * Loads the encoder now (once per thread): a conversion calls it before its first pass, so
 * that an install without the built module fails at once, not after its count and distribution passes.
 */
export function loadLazEncoder(): void {
  encoder();
}

/** The module built from the current source, or an error that says how to build it. */
function encoder(): EncoderExports {
  if (instance) return instance;
  let bytes: Buffer;
  let builtFrom: string;
  try {
    bytes = fs.readFileSync(WASM);
    builtFrom = fs.readFileSync(new URL(`${WASM.href}.sha256`), 'utf8').trim();
  } catch (e) {
    throw new Error(`the LAZ encoder is not built (${(e as Error).message}): run \`npm run build:wasm\` (npm ci does)`, { cause: e });
  }
  const source = crypto.createHash('sha256').update(fs.readFileSync(SOURCE)).digest('hex');
  if (builtFrom !== source) throw new Error('the LAZ encoder was built from another source than assembly/encoder.ts: run `npm run build:wasm`');
  const module = new WebAssembly.Module(new Uint8Array(bytes));
  instance = new WebAssembly.Instance(module, {
    env: {
      abort: () => {
        throw new Error('the LAZ encoder aborted');
      },
    },
  }).exports as unknown as EncoderExports;
  return instance;
}

/** The bytes the last call wrote, copied out of the instance's memory (which the next call reuses). */
function output(e: EncoderExports, length: number): Uint8Array {
  const at = e.outputPointer();
  return new Uint8Array(e.memory.buffer, at, length).slice();
}

/**
 * Compresses `count` points into one LAZ chunk. `records` holds the points in this
 * module's record layout (RECORD_SIZE bytes each: point format 6's 30 bytes, then RGB);
 * `order` lists which records, in order (all of them when omitted). Format 6 leaves RGB out.
 */
export function encodeLazChunk(format: 6 | 7, records: Uint8Array, count: number, order?: ArrayLike<number>): Uint8Array {
  if (count === 0) return new Uint8Array(0);
  // The instance's 32-bit memory holds the records and the layers (about 60 bytes a point);
  // the converter's nodes hold at most a sampling grid's 262,144 points or maxNodePoints.
  if (!Number.isInteger(count) || count < 0 || count > MAX_CHUNK_POINTS) throw new RangeError(`a LAZ chunk holds 0…${MAX_CHUNK_POINTS} points here, not ${count}`);
  if (order ? order.length < count : records.length < count * RECORD_SIZE) throw new RangeError(`${count} points asked for, ${order ? `${order.length} indices` : `${Math.floor(records.length / RECORD_SIZE)} records`} given`);
  const e = encoder();
  const bytes = count * RECORD_SIZE;
  const at = e.prepare(bytes);
  // The memory's buffer is taken after prepare(), which may have grown it.
  const input = new Uint8Array(e.memory.buffer, at, bytes);
  if (order) gatherRecords(records, order, count, input);
  else input.set(records.subarray(0, bytes));
  return output(e, e.encode(format, count));
}

/** The LAZ chunk table: sizes and point counts of variable chunks, arithmetic-coded. */
export function encodeChunkTable(chunks: { points: number; bytes: number }[]): Uint8Array {
  const e = encoder();
  const at = e.prepare(chunks.length * 8);
  const input = new DataView(e.memory.buffer, at, chunks.length * 8);
  chunks.forEach((c, i) => {
    input.setInt32(i * 8, c.points | 0, true);
    input.setInt32(i * 8 + 4, c.bytes | 0, true);
  });
  const body = output(e, e.encodeChunkTable(chunks.length));
  const out = new Uint8Array(8 + body.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0, true);
  v.setUint32(4, chunks.length, true);
  out.set(body, 8);
  return out;
}
