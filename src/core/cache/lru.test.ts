import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lru } from './lru.ts';
import { CacheRegistry } from './registry.ts';

test('the total weight never exceeds the bound: least recently used entries make room', () => {
  const c = new Lru<string>({ name: 't', maxWeight: 10, weightOf: (v) => v.length });
  c.set('a', 'xxxx');
  c.set('b', 'xxxx');
  assert.equal(c.weight, 8);
  c.set('c', 'xxxx');
  assert.equal(c.weight, 8, 'a went to make room');
  assert.equal(c.peek('a'), undefined);
  assert.deepEqual([...c.keys()], ['b', 'c']);
  assert.equal(c.stats().evictions, 1);
});

test('a value heavier than the whole bound is not kept, and the one it would replace goes', () => {
  const c = new Lru<string>({ name: 't', maxWeight: 3, weightOf: (v) => v.length });
  assert.equal(c.set('k', 'abc'), true);
  assert.equal(c.set('k', 'abcd'), false);
  assert.equal(c.peek('k'), undefined);
  assert.equal(c.weight, 0);
  assert.equal(c.stats().evictions, 0, 'nothing was evicted for it');
});

test('a bound of 0 keeps nothing', () => {
  const c = new Lru<number>({ name: 't', maxWeight: 0 });
  assert.equal(c.set('k', 1), false);
  assert.equal(c.size, 0);
  assert.throws(() => new Lru<number>({ name: 't', maxWeight: -1 }), RangeError);
  assert.throws(() => new Lru<number>({ name: 't', maxWeight: 1.5 }), RangeError);
});

test('a weight below 1 counts as 1', () => {
  const c = new Lru<number[]>({ name: 't', maxWeight: 2, weightOf: (v) => v.length });
  c.set('a', []);
  c.set('b', []);
  c.set('c', []);
  assert.equal(c.size, 2);
});

test('eviction order: a read makes an entry the most recently used', () => {
  const c = new Lru<number>({ name: 't', maxWeight: 3 });
  c.set('a', 1);
  c.set('b', 2);
  c.set('c', 3);
  assert.equal(c.get('a'), 1);
  c.set('d', 4);
  assert.deepEqual([...c.keys()], ['c', 'a', 'd'], 'b, the least recently used, went');
  c.set('c', 30); // a write makes it the most recent too
  c.set('e', 5);
  assert.deepEqual([...c.keys()], ['d', 'c', 'e']);
});

test('eviction order without touchOnRead: first in, first out, whatever is read', () => {
  const c = new Lru<number>({ name: 't', maxWeight: 2, touchOnRead: false });
  c.set('a', 1);
  c.set('b', 2);
  assert.equal(c.get('a'), 1);
  c.set('c', 3);
  assert.deepEqual([...c.keys()], ['b', 'c']);
});

test('peek neither counts a read nor changes the order', () => {
  const c = new Lru<number>({ name: 't', maxWeight: 2 });
  c.set('a', 1);
  c.set('b', 2);
  assert.equal(c.peek('a'), 1);
  assert.equal(c.peek('z'), undefined);
  c.set('c', 3);
  assert.deepEqual([...c.keys()], ['b', 'c']);
  assert.deepEqual({ hits: c.stats().hits, misses: c.stats().misses }, { hits: 0, misses: 0 });
});

test('TTL on the injected clock: an entry ends ttlMs after it was written', () => {
  let t = 1000;
  const c = new Lru<number>({ name: 't', maxWeight: 10, ttlMs: 500, nowMs: () => t });
  c.set('k', 1);
  t = 1499;
  assert.equal(c.get('k'), 1);
  t = 1500;
  assert.equal(c.get('k'), undefined);
  assert.equal(c.size, 0, 'an ended entry goes when read');
});

test('an entry ends earlier at the time its write gives, and a time already past keeps nothing', () => {
  let t = 0;
  const c = new Lru<number>({ name: 't', maxWeight: 10, ttlMs: 60_000, nowMs: () => t });
  c.set('k', 1, { until: 100 });
  t = 99;
  assert.equal(c.get('k'), 1);
  t = 100;
  assert.equal(c.get('k'), undefined);
  assert.equal(c.set('old', 1, { until: 100 }), false);
  // Without a TTL the clock is read only for such an entry.
  let reads = 0;
  const untimed = new Lru<number>({ name: 'u', maxWeight: 10, nowMs: () => (reads++, t) });
  untimed.set('a', 1);
  untimed.get('a');
  assert.equal(reads, 0);
  untimed.set('b', 2, { until: t + 10 });
  assert.equal(untimed.get('b'), 2);
  assert.ok(reads > 0);
});

test('an entry ends when the clock goes back before the time it was written (the sandbox clock)', () => {
  let t = 10_000;
  const c = new Lru<number>({ name: 't', maxWeight: 10, ttlMs: 60_000, nowMs: () => t });
  c.set('k', 1);
  t = 9_999;
  assert.equal(c.get('k'), undefined);
});

test('the clock as the caller read it decides, when given', () => {
  const c = new Lru<number>({ name: 't', maxWeight: 10, ttlMs: 100, nowMs: () => 0 });
  c.set('k', 1);
  assert.equal(c.get('k', 99), 1);
  assert.equal(c.get('k', 100), undefined);
});

test('invalidating a scope drops exactly the entries that named it, and its index', () => {
  const c = new Lru<number>({ name: 't', maxWeight: 10 });
  c.set('a', 1, { scopes: ['project:p', 'account:x'] });
  c.set('b', 2, { scopes: ['project:q', 'account:x'] });
  c.set('c', 3);
  assert.equal(c.scopeCount, 3);
  c.invalidate('project:p');
  assert.deepEqual([...c.keys()], ['b', 'c']);
  assert.equal(c.scopeCount, 2, 'a is gone from account:x too');
  c.invalidate('account:x');
  assert.deepEqual([...c.keys()], ['c']);
  assert.equal(c.scopeCount, 0);
  c.clear();
  assert.equal(c.size, 0);
  assert.equal(c.weight, 0);
});

test('metrics counters: hits, misses (absent, ended or refused) and evictions, not invalidations', () => {
  let t = 0;
  const c = new Lru<{ version: number }>({ name: 'counted', maxWeight: 2, ttlMs: 10, nowMs: () => t });
  assert.equal(c.get('a'), undefined); // miss: absent
  c.set('a', { version: 1 }, { scopes: ['s'] });
  assert.deepEqual(c.get('a'), { version: 1 }); // hit
  assert.equal(c.getIf('a', (v) => v.version === 2), undefined); // miss: refused, kept in place
  assert.deepEqual(c.peek('a'), { version: 1 });
  c.set('b', { version: 1 });
  c.set('c', { version: 1 }); // evicts a
  c.invalidate('s');
  c.delete('b');
  t = 10;
  assert.equal(c.get('c'), undefined); // miss: ended
  assert.deepEqual(c.stats(), { name: 'counted', size: 0, weight: 0, maxWeight: 2, hits: 1, misses: 3, evictions: 1 });
});

test('a registry reports each cache it made, refuses a name twice, and shares a named one on request', () => {
  const r = new CacheRegistry();
  const a = r.lru<number>({ name: 'a', maxWeight: 5 });
  a.set('k', 1);
  a.get('k');
  assert.throws(() => r.lru<number>({ name: 'a', maxWeight: 5 }), /made twice/);
  assert.equal(r.shared<number>({ name: 'a', maxWeight: 99 }), a);
  const b = r.shared<string>({ name: 'b', maxWeight: 1 });
  b.get('x');
  assert.deepEqual(r.stats().map((s) => [s.name, s.size, s.hits, s.misses, s.maxWeight]), [['a', 1, 1, 0, 5], ['b', 0, 0, 1, 1]]);
});
