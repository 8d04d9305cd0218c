// The sign-in throttle's repository on every engine: a reservation counts an attempt in
// one conditional UPSERT (the max-th locks the key, a lock is kept and never extended, a
// window over or a lock ended starts afresh), a refund gives an attempt back; and on
// PostgreSQL, concurrent reservations on separate connections are counted one by one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../src/adapters/postgres/store.ts';
import { suiteStore } from '../support/suite-store.ts';
import { ENGINES } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const MIN = 60_000;
const WINDOW = 15 * MIN;
const LOCK = 15 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);
/** The parameters sign-in passes at time `now`. */
const params = (now: Date, max = 5) => ({
  now,
  windowCutoff: new Date(now.getTime() - WINDOW),
  max,
  lockedUntil: new Date(now.getTime() + LOCK),
});

for (const engine of ENGINES) {
  describe(`sign-in throttle repository on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;


    test('reservations count up; the max-th locks the key; later ones exceed max and keep (never extend) the lock', async () => {
      const key = 'account:count@throttle.test';
      for (let i = 1; i <= 4; i++) {
        const r = await repos.throttle.reserve(key, params(at(i * 1000)));
        assert.equal(r.failures, i);
        assert.equal(r.lockedUntil, null);
        assert.equal(r.windowStart.getTime(), at(1000).getTime(), 'the window started with the first attempt');
      }
      const fifth = await repos.throttle.reserve(key, params(at(5000)));
      assert.equal(fifth.failures, 5);
      assert.equal(fifth.lockedUntil?.getTime(), at(5000 + LOCK).getTime());
      const sixth = await repos.throttle.reserve(key, params(at(10 * MIN)));
      assert.equal(sixth.failures, 6, 'over max: refused');
      assert.equal(sixth.lockedUntil?.getTime(), at(5000 + LOCK).getTime(), 'the lock is not extended');
    });

    test('an ended lock, or a window over without a lock, starts afresh at 1', async () => {
      const locked = 'account:locked@throttle.test';
      for (let i = 0; i < 5; i++) await repos.throttle.reserve(locked, params(at(0)));
      const afterLock = await repos.throttle.reserve(locked, params(at(LOCK)));
      assert.deepEqual(afterLock, { failures: 1, windowStart: at(LOCK), lockedUntil: null });

      const slow = 'account:slow@throttle.test';
      await repos.throttle.reserve(slow, params(at(0)));
      assert.equal((await repos.throttle.reserve(slow, params(at(WINDOW - 1)))).failures, 2, 'inside the window');
      const fresh = await repos.throttle.reserve(slow, params(at(WINDOW)));
      assert.deepEqual(fresh, { failures: 1, windowStart: at(WINDOW), lockedUntil: null });
    });

    test('a refund gives one attempt back in the same window and lifts the lock below max; another window is untouched', async () => {
      const key = 'address:198.51.100.7';
      let last = await repos.throttle.reserve(key, params(at(0), 3));
      for (let i = 0; i < 2; i++) last = await repos.throttle.reserve(key, params(at(0), 3));
      assert.ok(last.lockedUntil, 'the 3rd of 3 locked');
      await repos.throttle.refund(key, last.windowStart, 3);
      assert.deepEqual(await repos.throttle.get(key), { key, failures: 2, windowStart: at(0), lockedUntil: null });
      await repos.throttle.refund(key, at(-1), 3); // an older window: nothing
      assert.equal((await repos.throttle.get(key))!.failures, 2);
      await repos.throttle.refund('address:unknown', at(0), 3); // no row: nothing
      assert.equal(await repos.throttle.get('address:unknown'), null);
    });

    test('a refused reservation inside a rolled-back transaction counts nothing', async () => {
      const key = 'account:rollback@throttle.test';
      for (let i = 0; i < 5; i++) await repos.throttle.reserve(key, params(at(0)));
      const store = await createStore(suite.db.sql);
      try {
        await assert.rejects(
          store.transaction(async (tx) => {
            const r = await tx.throttle.reserve(key, params(at(1000)));
            assert.equal(r.failures, 6);
            throw new Error('refused');
          }),
          /refused/,
        );
      } finally {
        await store.close();
      }
      assert.equal((await repos.throttle.get(key))!.failures, 5);
    });

    test('50 concurrent reservations (separate connections on PostgreSQL) are counted one by one: exactly max get through', async () => {
      const key = 'account:burst@throttle.test';
      const results = await Promise.all(Array.from({ length: 50 }, () => repos.throttle.reserve(key, params(at(0)))));
      assert.deepEqual(
        results.map((r) => r.failures).sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      assert.equal(results.filter((r) => r.failures <= 5).length, 5);
    });
  });
}
