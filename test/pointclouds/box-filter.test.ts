// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The box limit: serving a converted scan through a box (a share link's or a crop's view)
// refuses the nodes outside, serves the inside ones as they are and filters the boundary
// ones; the points a client receives are exactly the input's points inside the box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Copc } from 'copc';
import { convertToCopc, filterChunkToBox, nodeVerdict, type Box } from '../../src/pointclouds/index.ts';
import { syntheticPoint, writeSyntheticLas } from './support/synthetic.ts';
import { readCopcHierarchy } from './support/copc-read.ts';
import { decodeChunkWithLazPerf } from './laz-decode.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-box-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('nodes are outside, inside or on the boundary of a box by their cube', () => {
  const root = { min: [0, 0, 0] as [number, number, number], size: 8 };
  const box: Box = { min: [1, 1, 1], max: [6, 6, 6] };
  assert.equal(nodeVerdict(root, { d: 0, x: 0, y: 0, z: 0 }, box), 'boundary');
  assert.equal(nodeVerdict(root, { d: 2, x: 1, y: 1, z: 1 }, box), 'inside'); // [2, 4]³
  assert.equal(nodeVerdict(root, { d: 2, x: 3, y: 1, z: 1 }, box), 'boundary'); // x in [6, 8]: its points on the face x = 6 are in the box
  assert.equal(nodeVerdict(root, { d: 3, x: 7, y: 2, z: 2 }, box), 'outside'); // x in [7, 8]
  assert.equal(nodeVerdict(root, { d: 2, x: 0, y: 1, z: 1 }, box), 'boundary'); // x in [0, 2]
});

test('serving a converted scan through a box sends exactly the points inside it', async () => {
  const count = 80_000;
  const input = path.join(tmp, 'site.las');
  await writeSyntheticLas(input, { version: '1.4', format: 7, count });
  const output = path.join(tmp, 'site.copc.laz');
  await convertToCopc({ input, output, maxChunkPoints: 20_000, maxNodePoints: 4_000 });
  const box: Box = { min: [500_210.5, 4_000_330.25, -1000], max: [500_640, 4_000_800.5, 1000] };
  const q = (v: number, o: number) => Math.round((v - o) / 0.001) * 0.001 + o;
  let expected = 0;
  for (let i = 0; i < count; i++) {
    const p = syntheticPoint(i, count);
    const [x, y, z] = [q(p.x, 500_000), q(p.y, 4_000_000), q(p.z, 0)];
    if (x >= box.min[0] && x <= box.max[0] && y >= box.min[1] && y <= box.max[1] && z >= box.min[2] && z <= box.max[2]) expected++;
  }

  const copc = await Copc.create(output);
  const { nodes } = await readCopcHierarchy(output);
  const root = { min: copc.info.cube.slice(0, 3) as [number, number, number], size: copc.info.cube[3]! - copc.info.cube[0]! };
  const quantization = { scale: copc.header.scale, offset: copc.header.offset };
  const verdicts = { outside: 0, inside: 0, boundary: 0 };
  let received = 0;
  for (const [k, node] of nodes) {
    if (!node.pointCount) continue;
    const [d, x, y, z] = k.split('-').map(Number) as [number, number, number, number];
    const verdict = nodeVerdict(root, { d, x, y, z }, box);
    verdicts[verdict]++;
    if (verdict === 'outside') continue; // refused
    let chunk = await Copc.loadCompressedPointDataBuffer(output, node);
    let n = node.pointCount;
    if (verdict === 'boundary') ({ chunk, pointCount: n } = await filterChunkToBox(chunk, n, 7, quantization, box));
    if (!n) continue;
    // What the client decodes from what it received.
    const points = await decodeChunkWithLazPerf(7, 36, chunk, n);
    const v = new DataView(points.buffer);
    for (let i = 0; i < n; i++) {
      const px = v.getInt32(i * 36, true) * quantization.scale[0]! + quantization.offset[0]!;
      const py = v.getInt32(i * 36 + 4, true) * quantization.scale[1]! + quantization.offset[1]!;
      assert.ok(px >= box.min[0] && px <= box.max[0] && py >= box.min[1] && py <= box.max[1], `node ${k} (${verdict}) sent a point outside the box: ${px}, ${py}`);
    }
    received += n;
  }
  assert.ok(verdicts.outside > 0 && verdicts.inside > 0 && verdicts.boundary > 0, JSON.stringify(verdicts));
  assert.ok(expected > 1000 && expected < count / 2, `the box holds part of the scan (${expected})`);
  assert.equal(received, expected);
});
