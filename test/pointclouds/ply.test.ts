// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The PLY reader against files written by an independent writer: Debian's CloudCompare
// (installed by scripts/setup.mjs; run headless with -SILENT) re-writes a cloud as binary
// little-endian and ASCII PLY; both must read back to the same points and colours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertToCopc, openPointCloud, PointCloudError } from '../../src/pointclouds/index.ts';
import { RECORD_SIZE } from '../../src/pointclouds/record.ts';
import { readCopcPoints } from './support/copc-read.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-ply-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const CLOUDCOMPARE = '/usr/bin/CloudCompare';
const N = 5000;
const point = (i: number) => [i * 0.01, Math.sin(i / 50) * 3, (i % 70) * 0.02, i % 256, (i * 3) % 256, 200] as const;

function writeAsciiPly(file: string) {
  const lines = ['ply', 'format ascii 1.0', `element vertex ${N}`, 'property float x', 'property float y', 'property float z', 'property uchar red', 'property uchar green', 'property uchar blue', 'end_header'];
  for (let i = 0; i < N; i++) lines.push(point(i).join(' '));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

/** CloudCompare re-writes `input` as PLY (BINARY_LE or ASCII); answers the file it wrote. */
function cloudCompare(input: string, format: 'BINARY_LE' | 'ASCII'): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'cc-'));
  const copy = path.join(dir, 'cloud.ply');
  fs.copyFileSync(input, copy);
  const r = spawnSync('xvfb-run', ['-a', CLOUDCOMPARE, '-SILENT', '-NO_TIMESTAMP', '-O', copy, '-C_EXPORT_FMT', 'PLY', '-PLY_EXPORT_FMT', format, '-SAVE_CLOUDS'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // With -NO_TIMESTAMP CloudCompare saves over the file it opened.
  assert.match(r.stdout, /saved successfully/, r.stdout);
  const header = fs.readFileSync(copy).subarray(0, 300).toString('latin1');
  assert.match(header, format === 'ASCII' ? /format ascii 1\.0/ : /format binary_little_endian 1\.0/);
  assert.match(header, /CloudCompare/i, 'the file is CloudCompare\'s');
  return copy;
}

async function readAll(file: string) {
  const reader = await openPointCloud(file);
  const q = reader.info.quantization;
  const out: number[][] = [];
  for await (const b of reader.batches(777)) {
    const v = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    for (let i = 0; i < b.count; i++) {
      const o = i * RECORD_SIZE;
      out.push([0, 4, 8].map((k, a) => v.getInt32(o + k, true) * q.scale[a]! + q.offset[a]!).concat([30, 32, 34].map((k) => v.getUint16(o + k, true))));
    }
  }
  await reader.close();
  return { info: reader.info, points: out };
}

const available = fs.existsSync(CLOUDCOMPARE) && spawnSync('which', ['xvfb-run']).status === 0;

for (const format of ['BINARY_LE', 'ASCII'] as const) {
  test(`a ${format} PLY written by CloudCompare reads every point with its colour`, { skip: !available && 'CloudCompare or xvfb-run is missing (npm run setup installs them)' }, async () => {
    const source = path.join(tmp, `source-${format}.ply`);
    writeAsciiPly(source);
    const { info, points } = await readAll(cloudCompare(source, format));
    assert.equal(info.hasColor, true);
    assert.equal(points.length, N);
    for (const i of [0, 1, 1234, N - 1]) {
      const [x, y, z, r, g, b] = point(i);
      const p = points[i]!;
      assert.ok(Math.abs(p[0]! - x) < 1e-3 && Math.abs(p[1]! - y) < 1e-3 && Math.abs(p[2]! - z) < 1e-3, `point ${i}: ${p}`);
      assert.deepEqual(p.slice(3), [r * 257, g * 257, b * 257]);
    }
  });
}

test('a PLY file converts to COPC, and one cut short fails as truncated', async () => {
  const source = path.join(tmp, 'plain.ply');
  writeAsciiPly(source);
  const out = path.join(tmp, 'plain.copc.laz');
  await convertToCopc({ input: source, output: out, maxChunkPoints: 2000, maxNodePoints: 500 });
  assert.equal((await readCopcPoints(out)).count, N);
  const text = fs.readFileSync(source, 'utf8');
  fs.writeFileSync(source, text.slice(0, Math.floor(text.length / 2)));
  await assert.rejects(openPointCloud(source), (e: unknown) => e instanceof PointCloudError && e.reason === 'truncated' && /announces 5000 entries/.test(e.message));
});
