// sliceOf and readsOf (src/core/ports/store-slices.ts): a use case is handed what it declared
// and nothing else at run time too, reads and each transaction's repositories; the transaction
// is the store's (its result and its failure pass through). A read-only use case is handed
// its declared reads, with no transaction at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readsOf, sliceOf, storeReads, storeUse } from '../../src/core/ports/store-slices.ts';
import type { Repos } from '../../src/core/ports/repositories.ts';

/** A store whose repositories are tagged objects: pool ones and, per transaction, fresh ones. */
function fakeStore() {
  const names = ['events', 'settings', 'users', 'locks', 'admin'] as const;
  const tagged = (where: string) => Object.fromEntries(names.map((n) => [n, { where, n }])) as unknown as Repos;
  let transactions = 0;
  return {
    repos: tagged('pool'),
    transactions: () => transactions,
    async transaction<T>(fn: (repos: Repos) => Promise<T>): Promise<T> {
      transactions++;
      return fn(tagged(`tx${transactions}`));
    },
  };
}

test('a slice reads through the declared repositories only, and each transaction is handed the declared ones only', async () => {
  const whole = fakeStore();
  const store = sliceOf(whole, storeUse({ reads: ['settings'], writes: ['events', 'settings'] }));
  assert.deepEqual(Object.keys(store.repos), ['settings']);
  assert.equal(store.repos.settings, whole.repos.settings, 'the pool\'s own repository');
  assert.equal((store.repos as unknown as Record<string, unknown>).users, undefined);
  const seen = await store.transaction(async (repos) => {
    assert.deepEqual(Object.keys(repos).sort(), ['events', 'settings']);
    assert.equal((repos as unknown as Record<string, unknown>).admin, undefined, 'an undeclared repository is not there, cast or not');
    return (repos.settings as unknown as { where: string }).where;
  });
  assert.equal(seen, 'tx1', 'the transaction\'s repositories, bound to it');
  assert.equal(whole.transactions(), 1);
});

test('a transaction\'s failure passes through the slice unchanged', async () => {
  const store = sliceOf(fakeStore(), storeUse({ reads: [], writes: ['events'] }));
  const boom = new Error('refused');
  await assert.rejects(store.transaction(async () => { throw boom; }), (e) => e === boom);
});

test('a read-only use case reads through the declared repositories only, bound to the pool, and is handed no transaction', () => {
  const whole = fakeStore();
  const store = readsOf(whole, storeReads(['users', 'locks']));
  assert.deepEqual(Object.keys(store).sort(), ['repos']);
  assert.deepEqual(Object.keys(store.repos).sort(), ['locks', 'users']);
  assert.equal(store.repos.users, whole.repos.users, 'the pool\'s own repository');
  assert.equal((store.repos as unknown as Record<string, unknown>).settings, undefined, 'an undeclared repository is not there, cast or not');
  assert.equal(whole.transactions(), 0);
});
