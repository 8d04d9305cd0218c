import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessCache } from './access-cache.ts';
import { Lru } from '../cache/lru.ts';

/** An AccessCache over an LRU of `maxWeight` (50,000 by default), a TTL of a minute by default. */
const accessCache = <V>(maxWeight = 50_000, ttlMs = 60_000, nowMs: () => number = Date.now, weightOf?: (v: V) => number): AccessCache<V> =>
  new AccessCache<V>(new Lru<V>({ name: 'test', maxWeight, ttlMs, nowMs, weightOf }));

test('a cached value is served until its scope is invalidated', async () => {
  const c = accessCache<number>();
  let loads = 0;
  const load = async () => ++loads;
  assert.equal(await c.get('k', load, () => ['account:a']), 1);
  assert.equal(await c.get('k', load, () => ['account:a']), 1);
  c.invalidate('account:b');
  assert.equal(await c.get('k', load, () => ['account:a']), 1);
  c.invalidate('account:a');
  assert.equal(await c.get('k', load, () => ['account:a']), 2);
});

test('a load that overlaps an invalidation is not stored (no stale read sticks)', async () => {
  const c = accessCache<string>();
  let release!: () => void;
  const slow = c.get('k', () => new Promise<string>((r) => (release = () => r('old'))), () => ['account:a']);
  c.invalidate('account:a');
  release();
  assert.equal(await slow, 'old');
  assert.equal(await c.get('k', async () => 'new', () => ['account:a']), 'new');
});

test('entries expire after the TTL', async () => {
  let t = 0;
  const c = accessCache<number>(10, 1000, () => t);
  let loads = 0;
  await c.get('k', async () => ++loads, () => []);
  t = 999;
  await c.get('k', async () => ++loads, () => []);
  assert.equal(loads, 1);
  t = 1000;
  await c.get('k', async () => ++loads, () => []);
  assert.equal(loads, 2);
});

test('the cache stays bounded', async () => {
  const c = accessCache<number>(3);
  for (let i = 0; i < 10; i++) await c.get(`k${i}`, async () => i, () => []);
  assert.ok(c.size <= 3);
});

test('past its cap the least recently read entry goes first (LRU)', async () => {
  const c = accessCache<string>(2);
  let loads = 0;
  const load = (v: string) => async () => {
    loads++;
    return v;
  };
  await c.get('a', load('a'), () => []);
  await c.get('b', load('b'), () => []);
  await c.get('a', load('a'), () => []); // a is now the most recently read
  await c.get('c', load('c'), () => []); // evicts b
  assert.equal(loads, 3);
  await c.get('a', load('a'), () => []);
  assert.equal(loads, 3, 'a stayed');
  await c.get('b', load('b'), () => []);
  assert.equal(loads, 4, 'b was evicted');
  assert.equal(c.size, 2);
});

test('an evicted or invalidated entry leaves nothing in the scope index (memory stays bounded)', async () => {
  const c = accessCache<number>(2);
  for (let i = 0; i < 100; i++) await c.get(`k${i}`, async () => i, () => [`project:${i}`, 'account:a']);
  assert.equal(c.size, 2);
  assert.equal(c.scopeCount, 3, 'the two live entries\' projects and their account');
  c.invalidate('project:99');
  assert.equal(c.size, 1);
  assert.equal(c.scopeCount, 2);
  c.invalidate('account:a');
  assert.equal(c.size, 0);
  assert.equal(c.scopeCount, 0);
});

test('an entry re-read under other scopes is no longer dropped by its old ones', async () => {
  const c = accessCache<string>();
  let loads = 0;
  await c.get('k', async () => `v${++loads}`, () => ['project:old']);
  c.invalidate('project:old');
  await c.get('k', async () => `v${++loads}`, () => ['project:new']);
  c.invalidate('project:old');
  assert.equal(await c.get('k', async () => `v${++loads}`, () => ['project:new']), 'v2');
});

test('an entry ends at the time untilOf gives when it comes before the TTL (a membership expiring with no event)', async () => {
  let t = 0;
  const c = accessCache<{ n: number; until: number | null }>(10, 1000, () => t);
  let loads = 0;
  const load = (until: number | null) => async () => ({ n: ++loads, until });
  const untilOf = (v: { until: number | null }) => v.until;
  await c.get('k', load(300), () => [], untilOf);
  t = 299;
  assert.equal((await c.get('k', load(300), () => [], untilOf)).n, 1, 'kept before its end');
  t = 300;
  assert.equal((await c.get('k', load(null), () => [], untilOf)).n, 2, 'reloaded at its end');
  t = 1299;
  assert.equal((await c.get('k', load(null), () => [], untilOf)).n, 2, 'null: the TTL alone ends it');
  t = 1300;
  assert.equal((await c.get('k', load(5000), () => [], untilOf)).n, 3, 'a later time never extends the TTL');
  t = 2299;
  assert.equal((await c.get('k', load(null), () => [], untilOf)).n, 3);
  t = 2300;
  assert.equal((await c.get('k', load(1), () => [], untilOf)).n, 4, 'TTL');
  assert.equal(c.size, 0, 'a value already past its end is not stored');
});

test('an entry is not served when the clock went back before the time it was stored', async () => {
  let t = 10_000;
  const c = accessCache<number>(10, 1000, () => t);
  let loads = 0;
  await c.get('k', async () => ++loads, () => []);
  t = 5_000;
  assert.equal(await c.get('k', async () => ++loads, () => []), 2);
});

test('with weightOf the bound is on the total weight: heavy values push out the least recently read, and a value heavier than the bound is not kept', async () => {
  const c = accessCache<number[]>(10, 60_000, Date.now, (v) => v.length);
  const list = (n: number) => async () => Array.from({ length: n }, (_, i) => i);
  await c.get('a', list(4), () => []);
  await c.get('b', list(4), () => []);
  assert.equal(c.weight, 8);
  await c.get('a', list(4), () => []); // a is now the most recently read
  await c.get('c', list(5), () => []); // 13 > 10: b goes
  assert.deepEqual([c.size, c.weight], [2, 9]);
  let loads = 0;
  await c.get('a', async () => (loads++, []), () => []);
  assert.equal(loads, 0, 'a stayed');
  await c.get('huge', list(11), () => []);
  assert.deepEqual([c.size, c.weight], [2, 9], 'not kept, and nothing pushed out for it');
  await c.get('empty', list(0), () => []);
  assert.equal(c.weight, 10, 'an empty value weighs 1');
  c.invalidate('none');
  c.clear();
  assert.deepEqual([c.size, c.weight], [0, 0]);
});
