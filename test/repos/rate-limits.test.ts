// Rate limits across nodes, on every engine: two limiters (two nodes) on one database
// share what they take through the rate_limits counts, so a key's bucket is one bucket
// for the cluster once they have exchanged; and the pure bucket rule (burst, refill, Retry-After).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { suiteStore } from '../support/suite-store.ts';
import type { RateLimitsRepo } from '../../src/modules/limits/index.ts';
import { createRateLimiter, take, type Bucket } from '../../src/modules/limits/core/rate-limits.ts';
import { DomainError } from '../../src/core/errors.ts';
import { ENGINES } from '../support/database.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

class ManualClock {
  ms = T0;
  now = () => new Date(this.ms);
  nowMs = () => this.ms;
}

/** Requests until the first 429; answers how many were granted and the Retry-After of the refusal. */
function drain(fn: () => void, max = 100): { granted: number; retryAfter: number } {
  for (let i = 0; i < max; i++) {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof DomainError && e.status === 429);
      return { granted: i, retryAfter: Number(e.headers!['retry-after']) };
    }
  }
  return { granted: max, retryAfter: 0 };
}

test('rate limits: a bucket grants its burst at once, then one token per 1/rate seconds; Retry-After is the wait for the next', () => {
  const rule = { rate: 2, burst: 3 };
  const b: Bucket = { tokens: 3, at: 0 };
  assert.deepEqual([take(b, rule, 0), take(b, rule, 0), take(b, rule, 0)], [0, 0, 0]);
  assert.equal(take(b, rule, 0), 1, 'empty: a token is back within 1 s');
  assert.equal(take(b, rule, 500), 0, 'half a second at 2/s refills one');
  assert.equal(take(b, rule, 10_000), 0);
  assert.ok(b.tokens <= 2, 'never above the burst');
  const slow = { rate: 0.1, burst: 1 } as const;
  const s: Bucket = { tokens: 0, at: 0 };
  assert.equal(take(s, slow, 0), 10, 'at 0.1/s the next token is 10 s away');
});

for (const engine of ENGINES) {
  describe(`rate limits across nodes on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;


    const node = (clock: ManualClock) =>
      createRateLimiter({ clock, repo: repos.rateLimits, user: { rate: 1, burst: 10 }, address: { rate: 1, burst: 10 }, syncSeconds: 5 });

    test('rate limits: after an exchange, what one node took is taken out of the other node\'s bucket', async () => {
      const clock = new ManualClock();
      const a = node(clock);
      const b = node(clock);
      // Both nodes know the key (an exchange gives them the baseline).
      a.user('u1');
      b.user('u1');
      await a.sync();
      await b.sync();
      // Node A spends 7 more.
      for (let i = 0; i < 7; i++) a.user('u1');
      await a.sync();
      await b.sync();
      // B had 9 left; the cluster took 7 since: 2 remain on B.
      assert.equal(drain(() => b.user('u1')).granted, 2);
      // And what B took reaches A: A had 2 left, B took 2 more → 0.
      await b.sync();
      await a.sync();
      const refused = drain(() => a.user('u1'));
      assert.equal(refused.granted, 0);
      assert.ok(refused.retryAfter >= 1);
      // Other keys are untouched; time refills.
      assert.equal(drain(() => b.user('u2')).granted, 10);
      // A's bucket is at -1: its 2 + B's 2 more; B's first take was counted at A's exchange.
      clock.ms += 3000;
      assert.equal(drain(() => a.user('u1')).granted, 2);
    });

    test('rate limits: a failed exchange keeps the takes pending for the next one', async () => {
      const clock = new ManualClock();
      clock.ms += 3_600_000; // away from the previous test's counts
      let fail = true;
      const flaky = {
        exchange: (...args: Parameters<RateLimitsRepo['exchange']>) => (fail ? Promise.reject(new Error('down')) : repos.rateLimits.exchange(...args)),
        prune: (before: Date) => repos.rateLimits.prune(before),
      };
      const a = createRateLimiter({ clock, repo: flaky, user: { rate: 1, burst: 10 }, address: { rate: 1, burst: 10 }, syncSeconds: 5 });
      const b = node(clock);
      a.address('10.0.0.1');
      b.address('10.0.0.1');
      await b.sync();
      fail = false;
      await a.sync(); // baseline for A
      for (let i = 0; i < 5; i++) a.address('10.0.0.1');
      fail = true;
      await assert.rejects(a.sync(), /down/);
      fail = false;
      await a.sync();
      await b.sync();
      assert.equal(drain(() => b.address('10.0.0.1')).granted, 3, '9 left on B, 1 + 5 taken on A');
    });
  });
}
