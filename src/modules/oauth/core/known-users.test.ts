import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnownUsers } from './known-users.ts';

/** A lookup that counts its calls and answers from `existing`, after the test lets it. */
function fakeLookup(existing: Set<string>) {
  const calls: string[] = [];
  const gates: (() => void)[] = [];
  let held = false;
  return {
    calls,
    hold: () => (held = true),
    release: () => {
      held = false;
      for (const g of gates.splice(0)) g();
    },
    lookup: async (id: string) => {
      calls.push(id);
      const answer = existing.has(id) ? { revokedUpTo: null } : null; // read now, answered later
      if (held) await new Promise<void>((r) => gates.push(r));
      return answer;
    },
  };
}

test('concurrent misses for one user share one lookup', async () => {
  const f = fakeLookup(new Set(['a']));
  const k = new KnownUsers(f.lookup, () => 0);
  f.hold();
  const answers = Array.from({ length: 50 }, () => k.admits('a'));
  f.release();
  assert.deepEqual(await Promise.all(answers), Array(50).fill(true));
  assert.deepEqual(f.calls, ['a']);
});

test('a cached answer (yes or no) is given synchronously, with no lookup, until its lifetime ends', async () => {
  const t0 = 1_000_000;
  let now = t0;
  const f = fakeLookup(new Set(['a']));
  const k = new KnownUsers(f.lookup, () => now, 100, 60_000);
  assert.equal(await k.admits('a'), true);
  assert.equal(await k.admits('gone'), false);
  now = t0 + 59_999;
  assert.equal(k.admits('a'), true);
  assert.equal(k.admits('gone'), false);
  assert.equal(f.calls.length, 2);
  now = t0 + 60_000;
  assert.equal(await k.admits('a'), true);
  assert.equal(f.calls.length, 3);
});

test('forget (user:<id> changed) and clear (a reset) make the next call look again', async () => {
  const existing = new Set(['a', 'b']);
  const f = fakeLookup(existing);
  const k = new KnownUsers(f.lookup, () => 0);
  await k.admits('a');
  await k.admits('b');
  existing.delete('a');
  k.forget('a');
  assert.equal(await k.admits('a'), false);
  assert.equal(k.admits('b'), true, 'another user is untouched');
  existing.delete('b');
  k.clear();
  assert.equal(await k.admits('b'), false);
  assert.deepEqual(f.calls, ['a', 'b', 'a', 'b']);
});

test('a lookup that overlaps an invalidation is answered but not kept', async () => {
  const existing = new Set(['a']);
  const f = fakeLookup(existing);
  const k = new KnownUsers(f.lookup, () => 0);
  f.hold();
  const stale = k.admits('a');
  existing.delete('a');
  k.clear();
  f.release();
  assert.equal(await stale, true, 'read before the change');
  assert.equal(await k.admits('a'), false, 'not kept: the next call looks again');
  assert.equal(f.calls.length, 2);
});

test('a failed lookup is not cached', async () => {
  let fail = true;
  const k = new KnownUsers(async () => {
    if (fail) throw new Error('database down');
    return { revokedUpTo: null };
  }, () => 0);
  await assert.rejects(async () => k.admits('a'), /database down/);
  fail = false;
  assert.equal(await k.admits('a'), true);
});

test('the cache is bounded: beyond maxEntries the oldest entry goes first', async () => {
  const f = fakeLookup(new Set(['a', 'b', 'c']));
  const k = new KnownUsers(f.lookup, () => 0, 2);
  await k.admits('a');
  await k.admits('b');
  await k.admits('c');
  assert.equal(k.size, 2);
  assert.equal(k.admits('c'), true);
  assert.equal(k.admits('b'), true);
  assert.equal(await k.admits('a'), true);
  assert.equal(f.calls.filter((c) => c === 'a').length, 2, 'a was evicted and looked up again');
});

test('"absent" does not apply to a token issued at or after the lookup: such a token proves the user exists again', async () => {
  let now = 1_000_000;
  const existing = new Set<string>();
  const f = fakeLookup(existing);
  const k = new KnownUsers(f.lookup, () => now);
  const checked = Math.floor(now / 1000);
  assert.equal(await k.admits('a', checked - 10), false, 'an old token: absent');
  now += 5_000;
  assert.equal(k.peek('a', checked - 10), false, 'old tokens keep the cached answer');
  assert.equal(f.calls.length, 1);
  existing.add('a'); // re-created (a seed with a fixed id), no change published
  assert.equal(k.peek('a', checked + 5), undefined, 'a newer token needs a lookup');
  assert.equal(await k.admits('a', checked + 5), true);
  assert.equal(f.calls.length, 2);
  assert.equal(k.peek('a', checked - 10), true, 'now known to exist');
});

test('a token issued at or before the user\'s revocation point is refused, one issued in a later second admitted', async () => {
  let revokedUpTo: number | null = null;
  const k = new KnownUsers(async () => ({ revokedUpTo }), () => 1_000_000);
  assert.equal(await k.admits('a', 900), true, 'nothing revoked');
  revokedUpTo = 950;
  assert.equal(k.peek('a', 900), true, 'the cached point stands until the change is published');
  k.forget('a'); // user:<a> published with the revocation
  assert.equal(await k.admits('a', 900), false, 'issued before');
  assert.equal(k.peek('a', 950), false, 'issued in the revocation\'s own second');
  assert.equal(k.peek('a', 951), true, 'issued after');
});
