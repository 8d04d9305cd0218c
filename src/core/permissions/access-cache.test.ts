import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessCache } from './access-cache.ts';

test('a cached value is served until its scope is invalidated', async () => {
  const c = new AccessCache<number>();
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
  const c = new AccessCache<string>();
  let release!: () => void;
  const slow = c.get('k', () => new Promise<string>((r) => (release = () => r('old'))), () => ['account:a']);
  c.invalidate('account:a');
  release();
  assert.equal(await slow, 'old');
  assert.equal(await c.get('k', async () => 'new', () => ['account:a']), 'new');
});

test('entries expire after the TTL', async () => {
  let t = 0;
  const c = new AccessCache<number>(10, 1000, () => t);
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
  const c = new AccessCache<number>(3);
  for (let i = 0; i < 10; i++) await c.get(`k${i}`, async () => i, () => []);
  assert.ok(c.size <= 3);
});
