// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The LAZ encoder against the maintained decoder: every chunk this project writes must
// decode, with laz-perf, to the exact bytes of every point (formats 6 and 7, all fields
// varying, several scanner channels, GPS times that jump), and its chunk tables must read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_CHUNK_POINTS, encodeChunkTable, encodeLazChunk } from '../../src/pointclouds/laz/chunk-encoder.ts';
import { decodeChunkTable } from '../../src/pointclouds/readers/las.ts';
import { decodeChunkWithLazPerf } from './laz-decode.ts';

function randomRecords(n: number, seed: number): Uint8Array {
  const rec = new Uint8Array(n * 36);
  const v = new DataView(rec.buffer);
  let s = seed;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff);
  let t = 1000.5;
  for (let i = 0; i < n; i++) {
    const o = i * 36;
    const smooth = rnd() < 0.7;
    v.setInt32(o, smooth ? i * 3 : Math.floor(rnd() * 2 ** 32) - 2 ** 31, true);
    v.setInt32(o + 4, smooth ? 1000 - i : Math.floor(rnd() * 1e6), true);
    v.setInt32(o + 8, Math.floor(rnd() * 2e9) - 1e9, true);
    v.setUint16(o + 12, Math.floor(rnd() * 65536), true);
    const nr = 1 + Math.floor(rnd() * 15);
    v.setUint8(o + 14, (1 + Math.floor(rnd() * nr)) | (nr << 4));
    v.setUint8(o + 15, Math.floor(rnd() * 256)); // flags, scanner channel 0–3, scan direction, edge
    v.setUint8(o + 16, Math.floor(rnd() * 256));
    v.setUint8(o + 17, rnd() < 0.5 ? 0 : Math.floor(rnd() * 256));
    v.setInt16(o + 18, Math.floor(rnd() * 60000) - 30000, true);
    v.setUint16(o + 20, rnd() < 0.9 ? 7 : Math.floor(rnd() * 65536), true);
    if (rnd() < 0.7) t += rnd() < 0.5 ? 1e-5 : rnd() * 1000;
    if (rnd() < 0.02) t = rnd() * 1e9;
    v.setFloat64(o + 22, t, true);
    for (let c = 0; c < 3; c++) v.setUint16(o + 30 + c * 2, rnd() < 0.3 ? 0x1234 : Math.floor(rnd() * 65536), true);
  }
  return rec;
}

for (const format of [6, 7] as const) {
  test(`a format ${format} chunk decodes with laz-perf to the same bytes, field by field`, async () => {
    const n = 20_000;
    const rec = randomRecords(n, format * 7919);
    const chunk = encodeLazChunk(format, rec, n);
    const len = format === 7 ? 36 : 30;
    const back = await decodeChunkWithLazPerf(format, len, chunk, n);
    for (let i = 0; i < n; i++) {
      assert.deepEqual(back.subarray(i * len, (i + 1) * len), rec.subarray(i * 36, i * 36 + len), `point ${i}`);
    }
  });
}

test('a layer that never changes is stored as zero bytes (constant classification costs nothing)', async () => {
  const n = 1000;
  const rec = new Uint8Array(n * 36);
  const v = new DataView(rec.buffer);
  for (let i = 0; i < n; i++) {
    v.setInt32(i * 36, i, true);
    rec[i * 36 + 14] = 0x11;
    rec[i * 36 + 16] = 2;
  }
  const chunk = encodeLazChunk(6, rec, n);
  const sizes = new DataView(chunk.buffer, chunk.byteOffset + 30 + 4, 36);
  assert.equal(sizes.getUint32(2 * 4, true), 0, 'classification layer');
  assert.equal(sizes.getUint32(8 * 4, true), 0, 'GPS time layer');
  assert.ok(sizes.getUint32(0, true) > 0, 'xy layer');
  const back = await decodeChunkWithLazPerf(6, 30, chunk, n);
  assert.deepEqual(back, Uint8Array.from({ length: n * 30 }, (_, k) => rec[Math.floor(k / 30) * 36 + (k % 30)]!));
});

test('chunks whose layers outgrow the WebAssembly encoder\'s first buffers, one after a smaller one, decode to the same bytes (noise in every field, 300,000 points)', async () => {
  // Incompressible fields need more than the 4 (xy), 2 (z) and 1 (intensity, GPS time)
  // bytes a point that the encoder's layers start with, and more than 12 a point for the
  // chunk: every buffer grows, and the instance's memory with them. The small chunk first:
  // the large one then reuses memory the small one's models and buffers were in.
  let s = 12345;
  const noise = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  for (const n of [1_000, 300_000]) {
    const rec = new Uint8Array(n * 36);
    const v = new DataView(rec.buffer);
    for (let o = 0; o < rec.length; o += 4) v.setUint32(o, noise(), true);
    const chunk = encodeLazChunk(7, rec, n);
    assert.ok(chunk.length > n * 12 + 1024, `${chunk.length} bytes for ${n} points: the chunk outgrew its first buffer`);
    const back = await decodeChunkWithLazPerf(7, 36, chunk, n);
    assert.ok(Buffer.from(back).equals(Buffer.from(rec)), `${n} points decode to the bytes encoded`);
  }
});

test('a chunk asked for more points than it is given, or more than a chunk may hold, is refused by name before any encoding', () => {
  const rec = new Uint8Array(10 * 36);
  assert.throws(() => encodeLazChunk(7, rec, 11), { name: 'RangeError', message: '11 points asked for, 10 records given' });
  assert.throws(() => encodeLazChunk(7, rec, 3, [0, 1]), { name: 'RangeError', message: '3 points asked for, 2 indices given' });
  assert.throws(() => encodeLazChunk(7, rec, MAX_CHUNK_POINTS + 1), { name: 'RangeError', message: new RegExp(`holds 0…${MAX_CHUNK_POINTS} points here`) });
  assert.equal(encodeLazChunk(7, rec, 0).length, 0);
});

test('a variable chunk table reads back entry for entry', () => {
  const chunks = Array.from({ length: 500 }, (_, i) => ({ points: (i * 7919) % 100_000, bytes: (i * 104729) % 3_000_000 }));
  const decoded = decodeChunkTable(encodeChunkTable(chunks), true, 't.laz');
  assert.deepEqual(decoded, chunks.map((c) => ({ count: c.points, bytes: c.bytes })));
});
