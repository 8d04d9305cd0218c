// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The count and distribution passes put each record in its level-7 cell
// (src/pointclouds/range-passes.ts cellsOf): the cell octree.ts's rule gives it, cellAt on
// each normalized coordinate, clamped to the cube, whatever the batch's size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellAt, cubeOf, normalize, type Cube } from '../../src/pointclouds/octree.ts';
import { cellIndex, cellsOf, COUNT_LEVEL } from '../../src/pointclouds/range-passes.ts';
import { RECORD_SIZE, type Quantization } from '../../src/pointclouds/record.ts';

const q: Quantization = { scale: [0.001, 0.001, 0.001], offset: [1000, -20, 5] };

/** A batch of records at the given integer coordinates (the rest of each record zero). */
function batchOf(points: [number, number, number][]) {
  const bytes = new Uint8Array(points.length * RECORD_SIZE);
  const v = new DataView(bytes.buffer);
  points.forEach(([x, y, z], i) => {
    v.setInt32(i * RECORD_SIZE, x, true);
    v.setInt32(i * RECORD_SIZE + 4, y, true);
    v.setInt32(i * RECORD_SIZE + 8, z, true);
  });
  return { bytes, count: points.length };
}

const byRule = (p: [number, number, number], cube: Cube) =>
  cellIndex(...(p.map((c, axis) => cellAt(normalize(c * q.scale[axis]! + q.offset[axis]!, cube, axis), COUNT_LEVEL)) as [number, number, number]));

test("each record's level-7 cell is cellAt's on each axis, points outside the cube clamped to its edge cells", () => {
  const cube = cubeOf([1000, -20, 5], [1100, 80, 105]);
  let seed = 12345;
  const random = (bound: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % bound;
  };
  // Batches of growing and shrinking size: the scratch arrays are reused, never read past the batch.
  for (const size of [1, 70_000, 3, 100_000, 17]) {
    const points: [number, number, number][] = Array.from({ length: size }, () => [random(100_001), random(100_001), random(100_001)]);
    // The cube's corners, exact cell edges (every 1/128 of the cube) and points outside it.
    points[0] = [0, 0, 0];
    if (size > 2) points[1] = [100_000, 100_000, 100_000];
    if (size > 3) points[2] = [-5_000, 250_000, 50_000];
    const cells = cellsOf(batchOf(points), q, cube);
    assert.equal(cells.length, size);
    points.forEach((p, i) => assert.equal(cells[i], byRule(p, cube), `point ${i} (${p.join(', ')}) of a batch of ${size}`));
  }
});
