// The console's COPC layer (console/src/three/layers/copc-points.ts) picks nodes by
// screen-space error from the camera within a point budget: checked without a browser on a
// scan converted by the project's converter and read through copc.js and laz-perf in Node
// (the browser test, test/e2e/console-copc.test.ts, checks it on screen through the service).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PerspectiveCamera, Vector3 } from 'three';
import { createLazPerf } from 'laz-perf';
import { CopcPointsLayer, MAX_ERROR_PX, copcByRanges } from '../../console/src/three/layers/copc-points.ts';
import type { LayerContext } from '../../console/src/three/layer.ts';
import { convertToCopc } from '../../src/pointclouds/index.ts';
import { writeSyntheticLas } from '../pointclouds/support/synthetic.ts';

let dir: string;
let copc: string;
const lazPerf = createLazPerf();

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'scanbase-copc-lod-'));
  const las = path.join(dir, 'scan.las');
  await writeSyntheticLas(las, { version: '1.4', format: 7, count: 200_000 });
  copc = path.join(dir, 'scan.copc.laz');
  // Small nodes: several levels from a small scan.
  await convertToCopc({ input: las, output: copc, workers: 1, maxNodePoints: 5_000 });
});
after(() => fsp.rm(dir, { recursive: true, force: true }));

interface Inside {
  wanted: string[];
  nodes: Map<string, { pointCount: number }>;
  loading: Set<string>;
  held: Map<string, unknown>;
}

/** A layer over the file, opened (header and root hierarchy read), with its reads counted. */
async function openLayer(budget?: number): Promise<{ layer: CopcPointsLayer; inside: Inside; origin: () => Vector3 }> {
  const fh = await fsp.open(copc);
  after(() => fh.close());
  const get = async (begin: number, end: number) => {
    const buf = new Uint8Array(end - begin);
    await fh.read(buf, 0, end - begin, begin);
    return buf;
  };
  const layer = new CopcPointsLayer('scan:test', 'scan', copcByRanges(get), lazPerf, budget);
  let origin: Vector3 | null = null;
  let opened!: () => void;
  const ready = new Promise<void>((r) => (opened = r));
  const ctx: LayerContext = {
    claimOrigin: (c) => (origin ??= c.clone()),
    origin: () => origin,
    requestRender: () => undefined,
    changed: () => opened(),
  };
  layer.onError = (e) => assert.fail(String(e));
  layer.attach(ctx);
  await ready;
  return { layer, inside: layer as unknown as Inside, origin: () => origin! };
}

/** A camera at `at` (local frame) looking at `target`, 1280 × 800. */
function frame(at: Vector3, target: Vector3) {
  const camera = new PerspectiveCamera(50, 1280 / 800, 0.1, 1e7);
  camera.up.set(0, 0, 1);
  camera.position.copy(at);
  camera.lookAt(target);
  camera.updateMatrixWorld();
  return { camera, width: 1280, height: 800 };
}

const depth = (key: string) => Number(key.split('-')[0]);

test('COPC layer: from afar only the coarse levels are picked, root first; closer to a corner picks deeper nodes there and none outside the view', async () => {
  const { layer, inside } = await openLayer();
  const box = layer.bounds()!;
  const centre = box.getCenter(new Vector3());
  const size = box.getSize(new Vector3()).length();
  layer.beforeRender(frame(centre.clone().add(new Vector3(0, -size * 3, size * 2)), centre));
  const afar = [...inside.wanted];
  assert.equal(afar[0], '0-0-0-0', 'the root comes first');
  assert.ok(afar.length < inside.nodes.size, `${afar.length} of ${inside.nodes.size} nodes from afar`);
  const afarDeepest = Math.max(...afar.map(depth));

  // Just above the scan's minimum corner, looking down at it (from a little to the south: a camera looking straight down along its up axis has no defined turn).
  const corner = new Vector3(box.min.x + size * 0.02, box.min.y + size * 0.02, box.min.z);
  layer.beforeRender(frame(corner.clone().add(new Vector3(0, -size * 0.01, size * 0.03)), corner));
  const close = inside.wanted;
  assert.ok(Math.max(...close.map(depth)) > afarDeepest, 'closer, deeper levels are picked');
  // No node in the opposite corner's sixteenth of the cube (x and y in its last quarter:
  // out of the view, even through the cube's depth below the ground) is picked.
  const opposite = close.filter((k) => {
    const [d, x, y] = k.split('-').map(Number) as [number, number, number];
    return d >= 2 && x >= 0.75 * 2 ** d && y >= 0.75 * 2 ** d;
  });
  assert.deepEqual(opposite, [], 'nodes of the opposite corner picked');
  assert.ok(inside.wanted.length > 0);
  layer.dispose();
});

test(`COPC layer: a node is refined only while its spacing spans more than ${MAX_ERROR_PX} px — from very far, the root alone`, async () => {
  const { layer, inside } = await openLayer();
  const box = layer.bounds()!;
  const centre = box.getCenter(new Vector3());
  const size = box.getSize(new Vector3()).length();
  layer.beforeRender(frame(centre.clone().add(new Vector3(0, -size * 500, 0)), centre));
  assert.deepEqual(inside.wanted, ['0-0-0-0']);
  layer.dispose();
});

test('COPC layer: the nodes picked and the points held stay within the point budget, and the first frame with points records its reads', async () => {
  const root = (await openLayer()).inside.nodes.get('0-0-0-0')!.pointCount;
  const budget = root + 6_000;
  const { layer, inside } = await openLayer(budget);
  const box = layer.bounds()!;
  const centre = box.getCenter(new Vector3());
  const f = frame(centre.clone().add(new Vector3(0, 0, box.getSize(new Vector3()).length() * 0.1)), centre);
  layer.beforeRender(f);
  const picked = inside.wanted.reduce((n, k) => n + inside.nodes.get(k)!.pointCount, 0);
  assert.ok(picked <= budget, `${picked} points picked for a budget of ${budget}`);
  assert.ok(inside.wanted.length < inside.nodes.size);
  // Let the picked nodes arrive, frame after frame.
  const until = Date.now() + 60_000;
  while (inside.loading.size || !inside.wanted.every((k) => inside.held.has(k))) {
    assert.ok(Date.now() < until, 'the picked nodes arrived');
    await new Promise((r) => setTimeout(r, 50));
    layer.beforeRender(f);
  }
  layer.beforeRender(f);
  assert.ok(layer.stats.pointsHeld <= budget, `${layer.stats.pointsHeld} points held for a budget of ${budget}`);
  assert.equal(layer.stats.pointsDrawn, picked);
  assert.ok(layer.stats.firstFrame && layer.stats.firstFrame.points >= root);
  assert.ok(layer.stats.firstFrame.requests >= 3, 'header, hierarchy page and a node at least');
  layer.dispose();
});
