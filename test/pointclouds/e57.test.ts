// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The E57 reader against files that an independent reader (web-e57: the Rust `e57` crate
// compiled to WASM) reads the same way: several scans with poses, cartesian (single, double,
// scaled integer) and spherical coordinates, invalid points, integer and float intensity,
// colour, returns, time stamps; a corrupt page fails its CRC-32C with a clear reason; the
// XML's bounds used when every scan has them, and wrong ones survived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertE57 } from 'web-e57';
import { convertToCopc, openPointCloud, PointCloudError } from '../../src/pointclouds/index.ts';
import { RECORD_SIZE } from '../../src/pointclouds/record.ts';
import { DeclaredBoundsExceeded } from '../../src/pointclouds/readers/reader.ts';
import { corruptPage, writeE57, type E57ScanSpec } from './support/e57-writer.ts';
import { readCopcPoints } from './support/copc-read.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-e57-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const quarterTurn: [number, number, number, number] = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]; // 90° about z
const scans: E57ScanSpec[] = [
  {
    name: 'cartesian single, colour, integer intensity, invalid points',
    count: 3000, coordinates: 'float', intensity: 'integer', color: true, invalidState: true,
    point: (i) => ({ a: i * 0.01, b: Math.sin(i), c: 1, intensity: i % 4096, red: i % 256, green: 10, blue: 20, invalid: i % 100 === 0 ? 2 : 0 }),
  },
  {
    name: 'spherical, float intensity, posed',
    count: 2000, coordinates: 'spherical', intensity: 'float', pose: { rotation: quarterTurn, translation: [10, 20, 30] },
    point: (i) => ({ a: 5, b: i * 0.001, c: 0.1, intensity: 0.5 }),
  },
  {
    name: 'scaled integers, returns and time, no intensity or colour',
    count: 1500, coordinates: 'scaled', returns: true, time: true, pose: { rotation: [1, 0, 0, 0], translation: [-5, 0, 2] },
    point: (i) => ({ a: i * 0.001, b: -i * 0.002, c: 3.25, returnIndex: i % 2, returnCount: 2, time: 1000 + i }),
  },
];

test('the test writer’s E57 files read the same in an independent reader (web-e57)', () => {
  const file = path.join(tmp, 'three-scans.e57');
  writeE57(file, scans);
  const xyz = convertE57(new Uint8Array(fs.readFileSync(file)), 'XYZ').trim().split('\n');
  assert.equal(xyz.length, 2970 + 2000 + 1500);
  // Second scan, point 0: spherical (5, 0, 0.1) turned 90° about z, then moved.
  const [x, y, z] = xyz[2970]!.split(/\s+/).map(Number) as [number, number, number];
  assert.ok(Math.abs(x - (10 - 0)) < 1e-9 && Math.abs(y - (20 + 5 * Math.cos(0.1))) < 1e-9 && Math.abs(z - (30 + 5 * Math.sin(0.1))) < 1e-9, xyz[2970]);
});

test('an E57 file with several posed scans reads every valid point, posed, with its scan, intensity and colour', async () => {
  const file = path.join(tmp, 'three-scans.e57');
  writeE57(file, scans);
  const reader = await openPointCloud(file);
  assert.equal(reader.info.pointCount, 2970 + 2000 + 1500);
  assert.equal(reader.info.hasColor, true);
  const q = reader.info.quantization;
  const points: { x: number; y: number; z: number; intensity: number; red: number; source: number; returns: number; time: number }[] = [];
  for await (const b of reader.batches(1000)) {
    const v = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    for (let i = 0; i < b.count; i++) {
      const o = i * RECORD_SIZE;
      points.push({
        x: v.getInt32(o, true) * q.scale[0] + q.offset[0], y: v.getInt32(o + 4, true) * q.scale[1] + q.offset[1], z: v.getInt32(o + 8, true) * q.scale[2] + q.offset[2],
        intensity: v.getUint16(o + 12, true), red: v.getUint16(o + 30, true), source: v.getUint16(o + 20, true), returns: b.bytes[o + 14]!, time: v.getFloat64(o + 22, true),
      });
    }
  }
  await reader.close();
  assert.equal(points.length, 6470);
  const near = (a: number, b: number) => Math.abs(a - b) <= 0.0001;
  // Scan 1, point 1 (point 0 is invalid): x 0.01, y sin 1, z 1; intensity 1/4095; red 1/255 → 257.
  assert.ok(near(points[0]!.x, 0.01) && near(points[0]!.y, Math.sin(1)) && near(points[0]!.z, 1));
  assert.equal(points[0]!.intensity, Math.round((1 / 4095) * 65535));
  assert.equal(points[0]!.red, 257);
  assert.equal(points[0]!.source, 1);
  // Scan 2, point 0.
  const s2 = points[2970]!;
  assert.ok(near(s2.x, 10) && near(s2.y, 20 + 5 * Math.cos(0.1)) && near(s2.z, 30 + 5 * Math.sin(0.1)), JSON.stringify(s2));
  assert.equal(s2.intensity, 32768);
  assert.equal(s2.source, 2);
  // Scan 3, point 3: translated, return 2 of 2, time 1003.
  const s3 = points[2970 + 2000 + 3]!;
  assert.ok(near(s3.x, -5 + 0.003) && near(s3.y, -0.006) && near(s3.z, 5.25), JSON.stringify(s3));
  assert.equal(s3.returns, 2 | (2 << 4));
  assert.equal(s3.time, 1003);
  assert.equal(s3.red, 0);
});

test('an E57 file with a corrupt page fails its CRC-32C check with a clear reason', async () => {
  const file = path.join(tmp, 'corrupt.e57');
  writeE57(file, [scans[0]!]);
  corruptPage(file, 5);
  await assert.rejects(openPointCloud(file), (e: unknown) => e instanceof PointCloudError && e.reason === 'checksum' && /page 5 .* fails its CRC-32C check/.test(e.message));
});

test('an E57 file cut short fails as truncated', async () => {
  const file = path.join(tmp, 'short.e57');
  writeE57(file, [scans[0]!]);
  fs.truncateSync(file, 2048);
  await assert.rejects(openPointCloud(file), (e: unknown) => e instanceof PointCloudError && e.reason === 'truncated');
});

test('an E57 file converts to COPC with every valid point', async () => {
  const file = path.join(tmp, 'convert.e57');
  writeE57(file, scans);
  const output = path.join(tmp, 'convert.copc.laz');
  const result = await convertToCopc({ input: file, output, maxChunkPoints: 2000, maxNodePoints: 500 });
  assert.equal(result.pointCount, 6470);
  const stats = await readCopcPoints(output);
  assert.equal(stats.count, 6470);
  assert.equal(stats.sums.PointSourceId, 2970 * 1 + 2000 * 2 + 1500 * 3);
});

/** Every point of a reader, in real coordinates (x, y, z) with its scan. */
async function realPoints(file: string): Promise<{ info: Awaited<ReturnType<typeof openPointCloud>>['info']; points: number[][] }> {
  const reader = await openPointCloud(file);
  const q = reader.info.quantization;
  const points: number[][] = [];
  try {
    for await (const b of reader.batches(1000)) {
      const v = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
      for (let i = 0; i < b.count; i++) {
        const o = i * RECORD_SIZE;
        points.push([0, 1, 2].map((a) => v.getInt32(o + 4 * a, true) * q.scale[a]! + q.offset[a]!).concat(v.getUint16(o + 20, true)));
      }
    }
  } finally {
    await reader.close();
  }
  return { info: reader.info, points };
}

test('an E57 whose XML bounds every scan is opened from its XML (no measuring pass): the declared bounds, posed, and the same points as measured', async () => {
  const bounded = path.join(tmp, 'bounded.e57');
  const plain = path.join(tmp, 'plain.e57');
  writeE57(bounded, scans.map((s) => ({ ...s, bounds: 'measured' })));
  writeE57(plain, scans);
  // In web-e57 too: the bounds are well-formed E57.
  assert.equal(convertE57(new Uint8Array(fs.readFileSync(bounded)), 'XYZ').trim().split('\n').length, 6470);
  const declared = await realPoints(bounded);
  const measured = await realPoints(plain);
  // The announced count (records, invalid ones included), not the 6,470 valid ones: nothing was decoded to open it.
  assert.equal(declared.info.pointCount, 3000 + 2000 + 1500);
  assert.equal(measured.info.pointCount, 6470);
  // y and z reach the spherical scan's declared cube (range 5 around its scanner at 10, 20, 30),
  // beyond its points (which keep to y ≤ 25, z ≈ 30.5); x the first scan's (0 … 29.99).
  assert.deepEqual(declared.info.bounds.max.map((v) => Math.round(v * 1e6) / 1e6), [29.99, 25, 35]);
  for (let a = 0; a < 3; a++) {
    assert.ok(declared.info.bounds.min[a]! <= measured.info.bounds.min[a]! + 1e-6 && declared.info.bounds.max[a]! >= measured.info.bounds.max[a]! - 1e-6, `axis ${a}: the declared box holds the measured one`);
  }
  assert.equal(declared.points.length, 6470);
  declared.points.forEach((p, i) => {
    const m = measured.points[i]!;
    assert.ok(p.every((v, a) => Math.abs(v - m[a]!) <= 1e-4), `point ${i}: ${JSON.stringify(p)} against ${JSON.stringify(m)}`);
  });
});

test('an E57 whose declared bounds are wrong converts every point where it is: beyond what their quantization holds, the converter measures and reads again', async () => {
  // 400 km away (as a georeferenced scan), declared as a 1 m box at the origin: an int32 of
  // 0.1 mm steps around that box reaches 214 km, so these points cannot be held with it.
  const far: E57ScanSpec = {
    name: 'far from its declared box', count: 1200, coordinates: 'double', bounds: { min: [0, 0, 0], max: [1, 1, 1] },
    point: (i) => ({ a: 400_000 + i * 0.01, b: 4_000_000 + (i % 7), c: 100 + i * 0.001 }),
  };
  // Declared too small but within reach: read with the declared quantization, counted again over the measured bounds.
  const near: E57ScanSpec = { ...scans[2]!, bounds: { min: [0, 0, 0], max: [0.5, 0.5, 0.5] } };
  for (const [name, scan, min, max] of [
    ['far', far, [400_000, 4_000_000, 100], [400_011.99, 4_000_006, 101.199]],
    ['near', near, [-5, -2.998, 5.25], [-3.501, 0, 5.25]],
  ] as const) {
    const file = path.join(tmp, `wrong-${name}.e57`);
    writeE57(file, [scan]);
    if (name === 'far') {
      // Read alone, the points refuse the declared quantization (instead of wrapping around).
      const reader = await openPointCloud(file);
      assert.equal(reader.unchecked, true);
      await assert.rejects(async () => {
        for await (const _ of reader.batches()) continue;
      }, DeclaredBoundsExceeded);
      // Measured first (as the mesher does, which cannot start over), it reads through.
      await reader.measure!();
      assert.equal(reader.unchecked, false);
      let read = 0;
      for await (const b of reader.batches()) read += b.count;
      assert.equal(read, scan.count);
      await reader.close();
    }
    const output = path.join(tmp, `wrong-${name}.copc.laz`);
    const result = await convertToCopc({ input: file, output, maxChunkPoints: 500, maxNodePoints: 200 });
    assert.equal(result.pointCount, scan.count, name);
    const stats = await readCopcPoints(output);
    assert.equal(stats.count, scan.count, name);
    for (let a = 0; a < 3; a++) {
      assert.ok(Math.abs(stats.min[a]! - min[a]!) <= 2e-4 && Math.abs(stats.max[a]! - max[a]!) <= 2e-4, `${name}, axis ${a}: ${stats.min[a]}…${stats.max[a]} where the points are ${min[a]}…${max[a]}`);
    }
  }
});
