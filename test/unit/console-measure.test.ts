// The console's measuring tool (console/src/geometry.ts) and how measurements are drawn
// (console/src/three/layers/measure-lines.ts): pure rules, checked without a browser (the
// browser test clicks them on screen: test/e2e/console-pins.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveMeasure, withPoint } from '../../console/src/geometry.ts';
import { linePath } from '../../console/src/three/layers/measure-lines.ts';

const p = (x: number, y: number, z: number) => ({ x, y, z });

test('live value: a distance is the straight length of its two points, a height their vertical difference', () => {
  assert.deepEqual(liveMeasure('distance', [p(0, 0, 0), p(3, 4, 12)]), { value: 13, unit: 'm' });
  assert.deepEqual(liveMeasure('height', [p(5, 5, 1.5), p(0, 0, 4)]), { value: 2.5, unit: 'm' });
});

test('live value: a polyline is the sum of its segments; an area is the closed polygon\'s area with its perimeter', () => {
  assert.deepEqual(liveMeasure('polyline', [p(0, 0, 0), p(3, 4, 0), p(3, 4, 2)]), { value: 7, unit: 'm' });
  const square = liveMeasure('area', [p(0, 0, 1), p(2, 0, 1), p(2, 2, 1), p(0, 2, 1)]);
  assert.deepEqual(square, { value: 4, unit: 'm²', perimeter: 8 });
  // A vertical wall measures its true area too (Newell's vector area, not a plan projection).
  assert.equal(liveMeasure('area', [p(0, 0, 0), p(3, 0, 0), p(3, 0, 2), p(0, 0, 2)])!.value, 6);
});

test('live value: none until the kind has its minimum of points (2, or 3 for an area)', () => {
  assert.equal(liveMeasure('distance', [p(0, 0, 0)]), null);
  assert.equal(liveMeasure('polyline', [p(0, 0, 0)]), null);
  assert.equal(liveMeasure('area', [p(0, 0, 0), p(1, 0, 0)]), null);
  assert.equal(liveMeasure('height', []), null);
});

test('clicks: a distance or height that has its two points starts again from the next click; a polyline and an area grow', () => {
  const two = [p(0, 0, 0), p(1, 0, 0)];
  assert.deepEqual(withPoint('distance', two, p(5, 5, 5)), [p(5, 5, 5)]);
  assert.deepEqual(withPoint('height', [p(0, 0, 0)], p(0, 0, 3)), [p(0, 0, 0), p(0, 0, 3)]);
  assert.deepEqual(withPoint('polyline', two, p(2, 0, 0)), [...two, p(2, 0, 0)]);
  assert.equal(withPoint('area', [...two, p(1, 1, 0)], p(0, 1, 0)).length, 4);
});

test('drawing: a height goes vertically from the first point to the second\'s height, then across; other kinds join their points', () => {
  assert.deepEqual(linePath({ kind: 'height', points: [p(0, 0, 0), p(2, 0, 3)] }), [p(0, 0, 0), p(0, 0, 3), p(2, 0, 3)]);
  assert.deepEqual(linePath({ kind: 'distance', points: [p(0, 0, 0), p(2, 0, 3)] }), [p(0, 0, 0), p(2, 0, 3)]);
});
