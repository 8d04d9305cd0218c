// The reports' activity dates (src/modules/activity/core/activity.ts): coalesced to one write per
// subject per day, yet a report read after a call's response includes that call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createActivity } from '../../src/modules/activity/core/activity.ts';
import { eventOf, type DomainEvent, type StoredDomainEvent } from '../../src/core/events/domain-events.ts';
import { STORE_MODULES } from '../../src/modules/registries.ts';

function world() {
  let now = Date.parse('2026-11-25T10:00:00.000Z');
  const writes: { subject: string; date: string; finish: (e?: Error) => void }[] = [];
  const listeners: ((event: StoredDomainEvent) => void)[] = [];
  const pending = (subject: string, date: string) =>
    new Promise<void>((resolve, reject) => writes.push({ subject, date, finish: (e) => (e ? reject(e) : resolve()) }));
  const store = {
    repos: {
      projects: { touchAccessed: (id: string, date: string) => pending(`project:${id}`, date) },
      reports: { touchUserActivity: (id: string, date: string) => pending(`user:${id}`, date) },
    },
    onEvent: (l: (event: StoredDomainEvent) => void) => listeners.push(l),
    // The modules' invalidation rows, as the store carries them (a module's event is not a reset).
    moduleInvalidation: STORE_MODULES.invalidation,
  } as unknown as Parameters<typeof createActivity>[0]['store'];
  const errors: unknown[] = [];
  const activity = createActivity({
    store,
    clock: { now: () => new Date(now), nowMs: () => now },
    onError: (e) => errors.push(e),
  });
  return {
    activity, writes, errors,
    advance: (ms: number) => (now += ms),
    publish: (event: DomainEvent) => listeners.forEach((l) => l({ ...event, id: 'e', occurredAt: new Date(now) } as StoredDomainEvent)),
  };
}

const settled = async (p: Promise<void> | undefined) => {
  let done = false;
  void p?.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

test("the day's first call returns its write, which the response waits for; later calls that day write nothing", async () => {
  const w = world();
  const first = w.activity.userActive('u1');
  assert.ok(first, 'the first call of the day writes');
  assert.equal(w.writes.length, 1);
  assert.equal(await settled(first), false, 'not done before the database answers');
  // A second request of the same user while the write runs waits for the same write.
  assert.equal(w.activity.userActive('u1'), first);
  w.writes[0]!.finish();
  assert.equal(await settled(first), true);
  assert.equal(w.activity.userActive('u1'), undefined, 'written today: nothing to wait for');
  assert.equal(w.writes.length, 1);
  w.advance(24 * 3600 * 1000);
  assert.ok(w.activity.userActive('u1'), 'the next day writes again');
  assert.equal(w.writes[1]!.date, '2026-11-26');
});

test('a failed write is reported, never rejects the request, and is tried again on the next call', async () => {
  const w = world();
  const first = w.activity.projectAccessed('p1');
  w.writes[0]!.finish(new Error('connection lost'));
  await first; // resolves: the caller's request goes on
  assert.equal(w.errors.length, 1);
  assert.ok(w.activity.projectAccessed('p1'), 'written again');
  assert.equal(w.writes.length, 2);
});

test('a reset on any node (service.reset) makes every node write again the same day', async () => {
  const w = world();
  const first = w.activity.userActive('u1');
  w.writes[0]!.finish();
  await first;
  assert.equal(w.activity.userActive('u1'), undefined);
  w.publish(eventOf('user.signed-out-everywhere', null, 'user:u2', { userId: 'u2' })); // other changes keep what was written
  assert.equal(w.activity.userActive('u1'), undefined);
  w.publish(eventOf('service.reset', null, 'service', {}));
  assert.ok(w.activity.userActive('u1'), 'the emptied table gets today again');
});
