// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// A node's point indices are sorted back into input order (src/pointclouds/sort-indices.ts):
// the same result as the built-in sort, for every size and range of index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortIndices } from '../../src/pointclouds/sort-indices.ts';

test('indices come out ascending, as the built-in sort gives them, whatever their count and largest value', () => {
  let seed = 7;
  const random = (bound: number) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % bound;
  };
  // Around the radix threshold (512), one to three 11-bit passes, 0 and 2^32 − 1 included.
  for (const [n, bound] of [[0, 1], [1, 10], [511, 1000], [512, 1000], [5000, 2048], [5000, 2049], [100_000, 4_000_000], [3000, 2 ** 32]] as const) {
    const indices = Uint32Array.from({ length: n }, () => random(bound));
    if (n > 2) {
      indices[0] = 0;
      indices[1] = bound - 1;
    }
    const expected = indices.slice().sort();
    sortIndices(indices);
    assert.deepEqual(indices, expected, `${n} indices below ${bound}`);
  }
});

test('a large sort followed by a smaller one uses only its own part of the scratch space', () => {
  const big = Uint32Array.from({ length: 20_000 }, (_, i) => 20_000 - i);
  sortIndices(big);
  assert.equal(big[0], 1);
  const small = Uint32Array.from([900, 3, 77, ...Array.from({ length: 600 }, (_, i) => 600 - i)]);
  const expected = small.slice().sort();
  sortIndices(small);
  assert.deepEqual(small, expected);
});
