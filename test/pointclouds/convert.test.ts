// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The converter end to end: LAS/LAZ in, COPC out, read back by copc.js (the COPC authors'
// maintained reader, over laz-perf) with the same point count, bounds and content; a run
// killed with SIGKILL resumes from its checkpoint; bad inputs fail with a clear reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertToCopc, openPointCloud, PointCloudError } from '../../src/pointclouds/index.ts';
import { GRID } from '../../src/pointclouds/octree.ts';
import { syntheticPoint, writeSyntheticLas } from './support/synthetic.ts';
import { readCopcHierarchy, readCopcPoints, readFirstFrame } from './support/copc-read.ts';
import { Getter } from 'copc';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-convert-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Sums of the input's fields as the LAS file stores them (quantized to its 1 mm scale). */
function inputSums(count: number) {
  const q = (v: number, o: number) => Math.round((v - o) / 0.001) * 0.001 + o;
  const s = { X: 0, Y: 0, Z: 0, Intensity: 0, Classification: 0, ReturnNumber: 0, Red: 0 };
  for (let i = 0; i < count; i++) {
    const p = syntheticPoint(i, count);
    s.X += q(p.x, 500_000);
    s.Y += q(p.y, 4_000_000);
    s.Z += q(p.z, 0);
    s.Intensity += p.intensity;
    s.Classification += p.classification;
    s.ReturnNumber += p.returnNumber;
    s.Red += p.red;
  }
  return s;
}

test('a LAS 1.4 file (format 7) becomes a COPC file that copc.js reads with the same points, bounds and fields', async () => {
  const count = 150_000;
  const input = path.join(tmp, 'terrain.las');
  const written = await writeSyntheticLas(input, { version: '1.4', format: 7, count });
  const output = path.join(tmp, 'terrain.copc.laz');
  const progress: number[] = [];
  const result = await convertToCopc({ input, output, maxChunkPoints: 40_000, maxNodePoints: 8_000, onProgress: (p) => progress.push(p.percent) });
  assert.equal(result.pointCount, count);
  assert.equal(progress.at(-1), 100);
  assert.ok(progress.every((p, i) => i === 0 || p >= progress[i - 1]!), 'progress never goes back');
  assert.equal(fs.existsSync(`${output}.work`), false, 'the work directory is removed');

  const h = await readCopcHierarchy(output);
  assert.equal(h.header.pointCount, count);
  assert.equal(h.header.pointDataRecordFormat, 7);
  assert.deepEqual(h.header.min, written.min);
  assert.deepEqual(h.header.max, written.max);
  assert.ok(h.nodes.size > 10, `an octree, not one node (${h.nodes.size})`);
  const cube = { min: h.info.cube.slice(0, 3), size: h.info.cube[3]! - h.info.cube[0]! };
  assert.ok(Math.abs(h.info.spacing - cube.size / GRID) < cube.size * 1e-12, `the root spacing is one cell of the ${GRID}³ sampling grid (${h.info.spacing})`);
  const hasChildren = new Set([...h.nodes.keys()].map((k) => {
    const [d, x, y, z] = k.split('-').map(Number) as [number, number, number, number];
    return `${d - 1}-${x >> 1}-${y >> 1}-${z >> 1}`;
  }));
  const stats = await readCopcPoints(output, (key, get, n) => {
    const [d, x, y, z] = key.split('-').map(Number) as [number, number, number, number];
    const size = cube.size / 2 ** d;
    const lo = [cube.min[0]! + x * size, cube.min[1]! + y * size, cube.min[2]! + z * size];
    const cells = new Set<number>();
    for (let i = 0; i < n; i++) {
      const c = ['X', 'Y', 'Z'].map((dim, a) => {
        const v = get(dim, i);
        assert.ok(v >= lo[a]! - 1e-6 && v <= lo[a]! + size + 1e-6, `point ${i} of node ${key} lies in its cube`);
        return Math.min(GRID - 1, Math.max(0, Math.floor(((v - lo[a]!) / size) * GRID)));
      });
      cells.add((c[0]! * GRID + c[1]!) * GRID + c[2]!);
    }
    // A node with children is a sample: one point per cell of its grid, so an upper level
    // (the root above all) holds a bounded, coarse share of the cloud whatever its size.
    if (hasChildren.has(key)) assert.ok(cells.size >= n - n * 0.001, `node ${key}: ${n} points in ${cells.size} cells of its ${GRID}³ grid`);
  });
  const root = h.nodes.get('0-0-0-0')!;
  assert.ok(root.pointCount <= GRID * GRID * 3, `the root is a coarse sample: ${root.pointCount} points`);
  assert.equal(stats.count, count);
  assert.deepEqual(stats.min, written.min);
  assert.deepEqual(stats.max, written.max);
  const expected = inputSums(count);
  for (const [k, v] of Object.entries(expected)) assert.ok(Math.abs(stats.sums[k]! - v) < Math.abs(v) * 1e-12 + 1e-3, `${k}: ${stats.sums[k]} vs ${v}`);
});

test('the first frame of a 1 M-point terrain (header, root hierarchy page, root node) takes at most 4 reads and 512 kB', async () => {
  // The target for the console's first frame: the root is a coarse sample (one point
  // per cell of a GRID³ grid), whatever the number of points below it.
  const count = 1_000_000;
  const input = path.join(tmp, 'first-frame.las');
  await writeSyntheticLas(input, { version: '1.4', format: 7, count });
  const output = path.join(tmp, 'first-frame.copc.laz');
  await convertToCopc({ input, output });
  const frame = await readFirstFrame(Getter.file(output));
  assert.ok(frame.requests <= 4, `${frame.requests} reads`);
  assert.ok(frame.bytes <= 512_000, `${frame.bytes} bytes`);
  assert.ok(frame.points >= 1_000 && frame.points <= 20_000, `the root holds ${frame.points} points`);
  const stats = await readCopcPoints(output);
  assert.equal(stats.count, count, 'every point is in one node');
  fs.rmSync(input);
  fs.rmSync(output);
});

test('a LAS 1.2 file (format 1, no colour) becomes format 6, and the COPC output reads back as a LAZ input', async () => {
  const count = 30_000;
  const input = path.join(tmp, 'legacy.las');
  await writeSyntheticLas(input, { version: '1.2', format: 1, count, extraBytes: 3 });
  const output = path.join(tmp, 'legacy.copc.laz');
  await convertToCopc({ input, output, maxChunkPoints: 10_000, maxNodePoints: 3_000, workers: 1 });
  const h = await readCopcHierarchy(output);
  assert.equal(h.header.pointDataRecordFormat, 6);
  const stats = await readCopcPoints(output);
  assert.equal(stats.count, count);
  assert.equal(stats.sums.Classification, inputSums(count).Classification);
  // Our LAZ reader (chunk table + laz-perf) on a variable-chunk LAZ 1.4 file, and LAZ → COPC.
  const laz = await openPointCloud(output, 'laz');
  let n = 0;
  for await (const b of laz.batches()) n += b.count;
  await laz.close();
  assert.equal(n, count);
  const again = path.join(tmp, 'again.copc.laz');
  await convertToCopc({ input: output, format: 'laz', output: again, maxChunkPoints: 10_000, maxNodePoints: 3_000 });
  const s2 = await readCopcPoints(again);
  assert.equal(s2.count, count);
  for (const [k, v] of Object.entries(stats.sums)) assert.ok(Math.abs(s2.sums[k]! - v) <= Math.abs(v) * 1e-12, `${k}: ${s2.sums[k]} vs ${v} (the sums' order differs)`);
});

test('the output is the same byte for byte whatever the number of workers that distribute the input, from the file itself or from its spill', async () => {
  const count = 60_000;
  const input = path.join(tmp, 'clustered.las');
  // A third of the points within 2 cm of one spot: their level-7 cell holds more than a chunk
  // may keep in memory, so its chunk (segments from every worker) is split on disk.
  await writeSyntheticLas(input, {
    version: '1.4', format: 7, count,
    point: (i) => {
      const p = syntheticPoint(i, count);
      return i % 3 === 0 ? { ...p, x: 500_400 + (i % 20) * 0.001, y: 4_000_400 + (i % 17) * 0.001 } : p;
    },
  });
  const settings = { maxChunkPoints: 5_000, maxNodePoints: 1_500 };
  const convert = async (from: string, format: 'las' | 'laz', workers: number) => {
    const output = path.join(tmp, `workers-${format}-${workers}.copc.laz`);
    const result = await convertToCopc({ input: from, format, output, workers, ...settings });
    assert.equal(result.pointCount, count);
    return fs.readFileSync(output);
  };
  const one = await convert(input, 'las', 1);
  assert.ok(one.equals(await convert(input, 'las', 2)), 'two workers (two ranges of the LAS file) give the same file as one');
  assert.ok(one.equals(await convert(input, 'las', 3)), 'three workers give the same file as one');
  // A LAZ input is decoded once, to a spill file the workers then read by range.
  const laz = path.join(tmp, 'workers-las-1.copc.laz');
  const fromSpill = await convert(laz, 'laz', 1);
  assert.ok(fromSpill.equals(await convert(laz, 'laz', 3)), 'three workers reading the spill give the same file as one');
  const stats = await readCopcPoints(path.join(tmp, 'workers-laz-3.copc.laz'));
  assert.equal(stats.count, count);
});

test('a LAS file whose header bounds are far too wide is counted again over the measured bounds: the same COPC file as with the right header', async () => {
  const count = 40_000;
  const right = path.join(tmp, 'right-bounds.las');
  await writeSyntheticLas(right, { version: '1.4', format: 7, count });
  const wrong = path.join(tmp, 'wrong-bounds.las');
  const bytes = fs.readFileSync(right);
  // LAS 1.4 header: max X at byte 179 (then min X, max Y, min Y, max Z, min Z), doubles.
  bytes.writeDoubleLE(bytes.readDoubleLE(179) + 5_000, 179);
  fs.writeFileSync(wrong, bytes);
  const settings = { maxChunkPoints: 8_000, maxNodePoints: 2_000, workers: 2 };
  await convertToCopc({ input: right, output: path.join(tmp, 'right-bounds.copc.laz'), ...settings });
  await convertToCopc({ input: wrong, output: path.join(tmp, 'wrong-bounds.copc.laz'), ...settings });
  assert.ok(fs.readFileSync(path.join(tmp, 'wrong-bounds.copc.laz')).equals(fs.readFileSync(path.join(tmp, 'right-bounds.copc.laz'))));
});

test('a conversion killed with SIGKILL mid-indexing resumes from its checkpoint and never leaves a partial output', async () => {
  const count = 300_000;
  const input = path.join(tmp, 'resume.las');
  await writeSyntheticLas(input, { version: '1.4', format: 6, count });
  const output = path.join(tmp, 'resume.copc.laz');
  const options = { input, output, maxChunkPoints: 20_000, maxNodePoints: 5_000, workers: 1 };
  const child = spawn(process.execPath, [...process.execArgv, path.join(import.meta.dirname, 'support/convert-child.ts'), JSON.stringify(options), '3'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let killedAt = '';
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    for (const line of buffered.split('\n').slice(0, -1)) {
      const p = JSON.parse(line) as { phase: string; checkpoints?: number };
      if (!killedAt && p.phase === 'held') {
        killedAt = `${p.checkpoints} chunks indexed`;
        child.kill('SIGKILL');
      }
    }
    buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c, signal) => resolve(signal ? null : c)));
  assert.equal(code, null, `the child was killed (at ${killedAt || 'never'})`);
  assert.equal(fs.existsSync(output), false, 'no output after the kill');
  const done = fs.readdirSync(`${output}.work`).filter((f) => f.endsWith('.done.json'));
  assert.ok(done.length > 0, 'some chunks were checkpointed before the kill');
  const result = await convertToCopc(options);
  assert.equal(result.resumed, true);
  const stats = await readCopcPoints(output);
  assert.equal(stats.count, count);
});

test('a file whose content is not what its extension says fails with the reason, before any work', async () => {
  const fake = path.join(tmp, 'scan.e57');
  await writeSyntheticLas(fake, { version: '1.4', format: 6, count: 10 });
  await assert.rejects(convertToCopc({ input: fake, output: path.join(tmp, 'x.copc.laz') }), (e: unknown) => {
    assert.ok(e instanceof PointCloudError);
    assert.equal(e.reason, 'wrong_format');
    assert.match(e.message, /scan\.e57 is not an E57 file: its content looks like a LAS file/);
    return true;
  });
  const text = path.join(tmp, 'notes.ply');
  fs.writeFileSync(text, 'hello world\n');
  await assert.rejects(openPointCloud(text), /notes\.ply is not a PLY file: its content looks like text/);
});

test('a LAS file cut short fails as truncated, naming the sizes', async () => {
  const input = path.join(tmp, 'short.las');
  await writeSyntheticLas(input, { version: '1.2', format: 3, count: 1000 });
  fs.truncateSync(input, fs.statSync(input).size - 500);
  await assert.rejects(openPointCloud(input), (e: unknown) => e instanceof PointCloudError && e.reason === 'truncated' && /cut short/.test(e.message));
});
