// The console's preview layer (console/src/three/layers/scan-points.ts), without a browser:
// each redraw as a stream brings more points frees what it replaces (geometry and material:
// a 200,000-point LAS preview is redrawn hundreds of times), and the preview is placed by its
// file's pose before or after its points arrive (the browser test, console-copc.test.ts,
// checks the same placement on screen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Points, Vector3, type Material } from 'three';
import { ScanPointsLayer } from '../../console/src/three/layers/scan-points.ts';
import type { LayerContext, Pose } from '../../console/src/three/layer.ts';
import type { PointPreview } from '../../console/src/three/point-cloud.ts';

function context(): LayerContext {
  let origin: Vector3 | null = null;
  return {
    claimOrigin: (c) => (origin ??= c.clone()),
    origin: () => origin,
    requestRender: () => undefined,
    changed: () => undefined,
  };
}

const preview = (points: number[][], colors = false): PointPreview => ({
  positions: Float64Array.from(points.flat()),
  colors: colors ? new Uint8Array(points.length * 3).fill(200) : null,
  count: points.length,
  total: points.length,
});

test('a preview redrawn as points arrive frees the geometry and the material it replaces, and dispose frees the last', () => {
  const layer = new ScanPointsLayer('scan', 'scan.las');
  layer.attach(context());
  const freed: string[] = [];
  const drawn: Points[] = [];
  for (let i = 1; i <= 5; i++) {
    layer.setPreview(preview(Array.from({ length: i * 10 }, (_, k) => [k, k * 2, i]), i % 2 === 0));
    const p = layer.object.children.filter((c): c is Points => c instanceof Points);
    assert.equal(p.length, 1, 'one points object at a time');
    drawn.push(p[0]!);
    p[0]!.geometry.addEventListener('dispose', () => freed.push(`geometry ${i}`));
    (p[0]!.material as Material).addEventListener('dispose', () => freed.push(`material ${i}`));
  }
  assert.deepEqual(freed, ['geometry 1', 'material 1', 'geometry 2', 'material 2', 'geometry 3', 'material 3', 'geometry 4', 'material 4']);
  assert.equal(layer.count, 50);
  layer.dispose();
  assert.deepEqual(freed.slice(-2), ['geometry 5', 'material 5']);
  assert.equal(layer.object.children.length, 0);
});

test('a preview is placed by its file\'s pose, whether the pose comes before its points or after', () => {
  // A quarter turn about Z, then 1 km east: (10, 0, 0)–(20, 0, 0) lands on (1000, 10, 0)–(1000, 20, 0).
  const s = Math.SQRT1_2;
  const pose: Pose = { translation: { x: 1000, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: s, w: s } };
  const points = preview([[10, 0, 0], [20, 0, 0]]);
  const expected = { min: [1000, 10, 0], max: [1000, 20, 0] };
  const survey = (layer: ScanPointsLayer, ctx: LayerContext) => {
    const b = layer.bounds()!;
    const o = ctx.origin()!;
    const round = (v: Vector3) => [v.x + o.x, v.y + o.y, v.z + o.z].map((n) => Math.round(n * 1e6) / 1e6 + 0);
    return { min: round(b.min), max: round(b.max) };
  };

  const before = new ScanPointsLayer('a', 'a.las');
  const ctxBefore = context();
  before.attach(ctxBefore);
  before.setPose(pose);
  before.setPreview(points);
  assert.deepEqual(survey(before, ctxBefore), expected, 'pose first');

  const after = new ScanPointsLayer('b', 'b.las');
  const ctxAfter = context();
  after.attach(ctxAfter);
  after.setPreview(points);
  assert.deepEqual(survey(after, ctxAfter), { min: [10, 0, 0], max: [20, 0, 0] }, 'unposed: where its coordinates say');
  after.setPose(pose);
  assert.deepEqual(survey(after, ctxAfter), expected, 'pose after the points');
});
