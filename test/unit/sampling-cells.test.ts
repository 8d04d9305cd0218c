// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// A node's sampling grid held as a bit per cell (src/pointclouds/octree.ts CellBits, the
// upper levels' many grids at once) claims exactly the cells the stamped grid the chunk
// indexer reuses (SamplingGrid) claims: the first point met in each cell of the node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CellBits, SamplingGrid, type NodeKey } from '../../src/pointclouds/octree.ts';

test('bit-per-cell claims agree with the stamped grid, point by point, for nodes at several depths and points inside and outside them', () => {
  let seed = 99;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const keys: NodeKey[] = [{ d: 0, x: 0, y: 0, z: 0 }, { d: 1, x: 1, y: 0, z: 1 }, { d: 3, x: 5, y: 2, z: 7 }, { d: 6, x: 40, y: 13, z: 63 }];
  const grid = new SamplingGrid();
  for (const key of keys) {
    const bits = new CellBits(key);
    grid.reset(key);
    const edge = 2 ** -key.d;
    let claimed = 0;
    for (let i = 0; i < 200_000; i++) {
      // Mostly inside the node's cube (dense enough to meet claimed cells again), some outside (clamped).
      const at = (c: number) => (c + (random() * 1.2 - 0.1)) * edge;
      const [ux, uy, uz] = [at(key.x), at(key.y), at(key.z)];
      const expected = grid.claimCell(grid.cell(ux, uy, uz));
      assert.equal(bits.claim(ux, uy, uz), expected, `point ${i} of node ${key.d}-${key.x}-${key.y}-${key.z}`);
      if (expected) claimed++;
    }
    assert.ok(claimed > 1000 && claimed < 200_000, `both outcomes met (${claimed} claimed)`);
  }
});
