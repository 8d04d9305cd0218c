// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The octree's sampling order (src/pointclouds/octree.ts shuffledOrder): a permutation of
// the records, the same for the same seed (the same input gives the same COPC), shuffled
// by blocks of consecutive records so that reading in that order stays in cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shuffledOrder } from '../../src/pointclouds/octree.ts';

test('the sampling order is a permutation of every record, the same for the same seed', () => {
  for (const count of [0, 1, 1023, 1024, 1025, 5000]) {
    const order = shuffledOrder(count, 42);
    assert.deepEqual([...order].sort((a, b) => a - b), Array.from({ length: count }, (_, i) => i), `count ${count}`);
    assert.deepEqual(shuffledOrder(count, 42), order);
  }
  assert.notDeepEqual(shuffledOrder(5000, 1), shuffledOrder(5000, 2));
});

test('the sampling order visits blocks of 1,024 consecutive records one at a time, in a random order, each shuffled', () => {
  const order = shuffledOrder(10 * 1024 + 7, 7);
  const blocks: number[] = [];
  // Block 10 is the last, partial one (7 records); it may come anywhere.
  for (let at = 0; at < order.length; ) {
    const block = Math.floor(order[at]! / 1024);
    const run = order.subarray(at, at + (block === 10 ? 7 : 1024));
    assert.ok(run.every((i) => Math.floor(i / 1024) === block), `positions ${at}… hold one block`);
    assert.ok(run.length < 2 || run.some((i, k) => k > 0 && i < run[k - 1]!), `block ${block} is shuffled inside`);
    blocks.push(block);
    at += run.length;
  }
  assert.deepEqual([...blocks].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.notDeepEqual(blocks, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'the blocks come in a shuffled order');
});
