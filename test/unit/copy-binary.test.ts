// Reading binary COPY data (PostgreSQL's `COPY … TO STDOUT (FORMAT binary)`), by property:
// whatever chunks the data comes in, the reader hands on exactly the rows encoded (values
// byte for byte, NULLs as null, rows of any width, a header extension skipped), and data
// that is cut short, has no signature, or goes on after its end is refused.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { binaryCopyReader, type CopyValues } from '../../src/adapters/postgres/copy-binary.ts';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** The binary COPY encoding of `rows`, with a header extension of `extension` bytes. */
function encode(rows: CopyValues[], extension = 0): Buffer {
  const parts: Buffer[] = [SIGNATURE];
  const int = (n: number, size: 2 | 4) => {
    const b = Buffer.alloc(size);
    if (size === 2) b.writeInt16BE(n);
    else b.writeInt32BE(n);
    return b;
  };
  parts.push(int(0, 4), int(extension, 4), Buffer.alloc(extension, 7));
  for (const row of rows) {
    parts.push(int(row.length, 2));
    for (const v of row) parts.push(...(v === null ? [int(-1, 4)] : [int(v.length, 4), v]));
  }
  parts.push(int(-1, 2));
  return Buffer.concat(parts);
}

/** `data` cut at the given points (any of them, in any order). */
function chunked(data: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...at, data.length]) {
    out.push(Buffer.from(data.subarray(from, c))); // copies: the reader may hand on views
    from = c;
  }
  return out;
}

function readAll(chunks: Buffer[]): CopyValues[] {
  const rows: CopyValues[] = [];
  const reader = binaryCopyReader((r) => rows.push(r));
  for (const c of chunks) reader.push(c);
  reader.end();
  return rows;
}

const value = fc.option(fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)), { freq: 5 });
const rows = fc.array(fc.array(value, { maxLength: 6 }), { maxLength: 20 });
const cuts = fc.array(fc.nat(), { maxLength: 30 });

describe('binary COPY reader', () => {
  test('hands on exactly the encoded rows, whatever chunks the data comes in', () => {
    fc.assert(fc.property(rows, cuts, fc.nat({ max: 40 }), (expected, at, extension) => {
      assert.deepEqual(readAll(chunked(encode(expected, extension), at)), expected);
    }));
  });

  test('data cut short anywhere before its end marker is refused at the end', () => {
    fc.assert(fc.property(rows, fc.nat(), (expected, cut) => {
      const data = encode(expected);
      const short = data.subarray(0, cut % data.length);
      assert.throws(() => readAll([short]), /cut short/);
    }));
  });

  test('data without the signature, rows with OIDs, and bytes after the end are refused', () => {
    const data = encode([[Buffer.from('a')]]);
    const noSignature = Buffer.from(data);
    noSignature[0] = 0x51;
    assert.throws(() => readAll([noSignature]), /no signature/);
    const withOids = Buffer.from(data);
    withOids.writeInt32BE(1 << 16, SIGNATURE.length);
    assert.throws(() => readAll([withOids]), /OIDs/);
    assert.throws(() => readAll([data, Buffer.from([0])]), /after the end/);
    const badLength = Buffer.concat([data.subarray(0, SIGNATURE.length + 8), Buffer.from([0, 1, 0xff, 0xff, 0xff, 0xf0])]);
    assert.throws(() => readAll([badLength]), /value length/);
  });

  test('an exception from onRow propagates from push', () => {
    const reader = binaryCopyReader(() => {
      throw new Error('sink failed');
    });
    assert.throws(() => reader.push(encode([[null]])), /sink failed/);
  });
});
