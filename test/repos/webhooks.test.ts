// Webhook deliveries in the database (migration 0019, src/modules/webhooks/postgres/webhooks-repo.ts),
// on each engine: the fan-out writes deliveries in the event's own statement (one statement,
// with endpoints or none; no delivery when the change rolls back), only to enabled endpoints
// of the event's account that want it; on PostgreSQL, an endpoint committed while a change is
// under way gets its event exactly when the publishing statement starts after it; an endpoint is
// leased by one caller at a time (concurrent claims never share one; a dead node's lease
// ends); due deliveries come in event order and a subject waiting for a retry holds back
// its later deliveries only.
import { describe, test, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { STORE_MODULES } from '../../src/modules/registries.ts';
import { createStore } from '../../src/adapters/postgres/store.ts';
import { suiteStore, userRow } from '../support/suite-store.ts';
import type { DomainEvent } from '../../src/core/events/domain-events.ts';
import { ENGINES } from '../support/database.ts';
import { queryLog } from '../support/query-counter.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const ACCOUNT = crypto.randomUUID();
const OTHER = crypto.randomUUID();

const projectEvent = (accountId: string, projectId: string, type: 'project.created' | 'project.updated' = 'project.created'): DomainEvent => ({
  type, accountId, subject: `project:${projectId}`, data: { accountId, projectId, projectApi1Id: 'x' },
} as DomainEvent);

for (const engine of ENGINES) {
  describe(`webhook deliveries on ${engine}`, () => {
    const suite = suiteStore(engine);
    const { repos } = suite;

    const endpoint = async (accountId: string, events: string[], enabled = true) => {
      const id = crypto.randomUUID();
      await repos.webhooks.insertEndpoint({
        id, accountId, url: 'https://hooks.example/in', events, description: '', enabled, secret: 'whsec_AAAA', createdBy: null, createdAt: T0,
      });
      return id;
    };
    const publish = (e: DomainEvent, now = T0) => suite.store.transaction((tx) => tx.events.publish(e, now));

    before(async () => {
      const owner = await repos.users.insert(userRow(`o-${engine}@hooks.test`, { firstName: 'O', lastName: 'O' }), T0);
      for (const [id, name] of [[ACCOUNT, 'Hooks'], [OTHER, 'Other']] as const) await repos.accounts.insert({ id, name, ownerId: owner.id, createdBy: null }, T0);
    });
    beforeEach(async () => {
      await suite.db.sql.exec('DELETE FROM webhook_endpoints');
    });

    test('webhook fan-out rule: one delivery per enabled endpoint of the account that wants the type, written with the event', async () => {
      const all = await endpoint(ACCOUNT, ['*']);
      const named = await endpoint(ACCOUNT, ['project.created']);
      const otherType = await endpoint(ACCOUNT, ['project.deleted']);
      const disabled = await endpoint(ACCOUNT, ['*'], false);
      const otherAccount = await endpoint(OTHER, ['*']);
      await publish(projectEvent(ACCOUNT, crypto.randomUUID()));
      const count = async (id: string) => (await repos.webhooks.listDeliveries(id, 10)).length;
      assert.deepEqual(
        await Promise.all([all, named, otherType, disabled, otherAccount].map(count)),
        [1, 1, 0, 0, 0],
      );
      // System events never fan out.
      await publish({ type: 'service.reset', accountId: null, subject: 'service', data: {} });
      assert.equal(await count(all), 1);
    });

    test('webhook fan-out rule: a rolled-back change writes no delivery', async () => {
      const id = await endpoint(ACCOUNT, ['*']);
      await assert.rejects(
        suite.store.transaction(async (tx) => {
          await tx.events.publish(projectEvent(ACCOUNT, crypto.randomUUID()), T0);
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      assert.deepEqual(await repos.webhooks.listDeliveries(id, 10), []);
    });

    test('webhook fan-out cost rule: publishing an event is one statement, whether its account has endpoints or none (the fan-out is in the event\'s INSERT)', async () => {
      const log = queryLog();
      const counted = await createStore(log.wrapSql(suite.db.sql), undefined, STORE_MODULES);
      try {
        const statements = async (e: DomainEvent) => (await log.measure(() => counted.transaction((tx) => tx.events.publish(e, T0)))).texts;
        assert.equal((await statements(projectEvent(ACCOUNT, crypto.randomUUID()))).length, 1, 'no endpoint');
        const id = await endpoint(ACCOUNT, ['*']);
        const written = await statements(projectEvent(ACCOUNT, crypto.randomUUID()));
        assert.equal(written.length, 1, 'with an endpoint');
        assert.equal((await repos.webhooks.listDeliveries(id, 10)).length, 1, 'and it wrote the delivery');
        assert.equal((await statements({ type: 'service.reset', accountId: null, subject: 'service', data: {} })).length, 1, 'a system event');
      } finally {
        await counted.close();
      }
    });

    test('webhook fan-out rule: an endpoint committed while a change is under way gets the change\'s event when the publishing statement starts after it', { skip: engine === 'pglite' && 'one connection on PGlite: transactions never overlap' }, async () => {
      let open!: () => void;
      let go!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      const proceed = new Promise<void>((r) => (go = r));
      const change = suite.store.transaction(async (tx) => {
        await tx.webhooks.listEndpoints(ACCOUNT); // the transaction has read: an older snapshot does not matter, the statement's does
        open();
        await proceed;
        await tx.events.publish(projectEvent(ACCOUNT, crypto.randomUUID()), T0);
      });
      await opened;
      const id = await endpoint(ACCOUNT, ['*']);
      go();
      await change;
      assert.equal((await repos.webhooks.listDeliveries(id, 10)).length, 1);
    });

    test('webhook fan-out rule: an endpoint committed after the publishing statement ran does not get that event, though its transaction commits later (it is ordered before the registration)', { skip: engine === 'pglite' && 'one connection on PGlite: transactions never overlap' }, async () => {
      let published!: () => void;
      let go!: () => void;
      const done = new Promise<void>((r) => (published = r));
      const proceed = new Promise<void>((r) => (go = r));
      const change = suite.store.transaction(async (tx) => {
        await tx.events.publish(projectEvent(ACCOUNT, crypto.randomUUID()), T0);
        published();
        await proceed;
      });
      await done;
      const id = await endpoint(ACCOUNT, ['*']);
      go();
      await change;
      assert.deepEqual(await repos.webhooks.listDeliveries(id, 10), []);
      await publish(projectEvent(ACCOUNT, crypto.randomUUID()));
      assert.equal((await repos.webhooks.listDeliveries(id, 10)).length, 1, 'the next change is delivered');
    });

    test('webhook lease rule: an endpoint with due deliveries is leased by one caller at a time, and by another once the lease ends', async () => {
      const ids = [await endpoint(ACCOUNT, ['*']), await endpoint(ACCOUNT, ['*']), await endpoint(ACCOUNT, ['*'])];
      await publish(projectEvent(ACCOUNT, crypto.randomUUID()));
      const claims = await Promise.all([0, 1, 2].map(() => repos.webhooks.claimEndpoints(at(1), at(31), 1, 50)));
      const claimed = claims.flat().map((e) => e.id);
      assert.equal(claimed.length, 3);
      assert.deepEqual(new Set(claimed), new Set(ids), 'each endpoint in one hand');
      assert.deepEqual(await repos.webhooks.claimEndpoints(at(30), at(60), 10, 50), [], 'leased: out of reach');
      const first = claims[0]![0]!;
      assert.equal(await repos.webhooks.renewLease(first.id, at(31), at(61)), true);
      assert.equal(await repos.webhooks.renewLease(first.id, at(31), at(62)), false, 'a lease no longer held is not renewed');
      assert.equal((await repos.webhooks.leasedTarget(first.id, at(61)))?.secret, first.secret, 'the holder reads the current target');
      assert.equal(await repos.webhooks.leasedTarget(first.id, at(31)), null, 'a lease no longer held reads no target');
      const after = await repos.webhooks.claimEndpoints(at(32), at(90), 10, 50);
      assert.equal(after.length, 2, 'the two leases that ended are taken over');
      assert.ok(!after.some((e) => e.id === first.id));
    });

    test('webhook claim fairness rule: claims go round the accounts (one endpoint each before any second), least recently served first, at most perAccount leased per account', async () => {
      const many: string[] = [];
      for (let i = 0; i < 6; i++) many.push(await endpoint(ACCOUNT, ['*']));
      const single = await endpoint(OTHER, ['*']);
      await publish(projectEvent(ACCOUNT, crypto.randomUUID()));
      await publish(projectEvent(OTHER, crypto.randomUUID()));
      const first = await repos.webhooks.claimEndpoints(at(1), at(31), 2, 4);
      assert.deepEqual(new Set(first.map((e) => e.accountId)), new Set([ACCOUNT, OTHER]), 'one of each account first');
      assert.ok(first.some((e) => e.id === single));
      const more = await repos.webhooks.claimEndpoints(at(1), at(31), 10, 4);
      assert.equal(more.length, 3, 'the account already holds one: three more make its four');
      assert.ok(more.every((e) => many.includes(e.id)));
      const leased = new Set([...first, ...more].map((e) => e.id));
      assert.deepEqual(await repos.webhooks.claimEndpoints(at(2), at(31), 10, 4), [], 'at its cap: none until a lease ends');
      // Released: in each account the endpoints not served yet come before those served just now.
      for (const e of [...first, ...more]) await repos.webhooks.releaseLease(e.id, at(31));
      const next = await repos.webhooks.claimEndpoints(at(3), at(33), 3, 4);
      assert.deepEqual(next.map((e) => e.accountId).sort(), [ACCOUNT, ACCOUNT, OTHER].sort());
      assert.ok(next.filter((e) => e.accountId === ACCOUNT).every((e) => !leased.has(e.id)), 'the two not served yet come first');
    });

    test('webhook circuit breaker rule: a failure that pauses the endpoint keeps it from the claims until then; a 2xx closes the breaker', async () => {
      const id = await endpoint(ACCOUNT, ['*']);
      await publish(projectEvent(ACCOUNT, crypto.randomUUID()));
      await publish(projectEvent(ACCOUNT, crypto.randomUUID()));
      const [claimed] = await repos.webhooks.claimEndpoints(at(1), at(31), 1, 4);
      assert.equal(claimed!.breakerFailures, 0);
      const [d] = await repos.webhooks.dueDeliveries(id, at(1), 10);
      assert.equal(await repos.webhooks.settle(d!.id, 0, { state: 'pending', status: null, error: 'timeout', retryAt: at(31), pauseUntil: at(31) }, at(1)), true);
      await repos.webhooks.releaseLease(id, at(31));
      assert.deepEqual(await repos.webhooks.claimEndpoints(at(2), at(32), 1, 4), [], 'paused: the other subject waits too');
      const [again] = await repos.webhooks.claimEndpoints(at(31), at(61), 1, 4);
      assert.equal(again!.breakerFailures, 1);
      const [next] = await repos.webhooks.dueDeliveries(id, at(31), 10);
      assert.equal(await repos.webhooks.settle(next!.id, next!.attempts, { state: 'delivered', status: 204, at: at(32) }, at(32)), true);
      await repos.webhooks.releaseLease(id, at(61));
      const [closed] = await repos.webhooks.claimEndpoints(at(33), at(63), 1, 4);
      assert.equal(closed!.breakerFailures, 0, 'closed by the 2xx');
    });

    test('webhook order rule: due deliveries come in event order; a subject waiting for a retry holds back only its own later deliveries', async () => {
      const id = await endpoint(ACCOUNT, ['*']);
      const a = crypto.randomUUID();
      const b = crypto.randomUUID();
      await publish(projectEvent(ACCOUNT, a), at(0));
      await publish(projectEvent(ACCOUNT, b), at(1));
      await publish(projectEvent(ACCOUNT, a, 'project.updated'), at(2));
      const due = await repos.webhooks.dueDeliveries(id, at(3), 10);
      assert.deepEqual(due.map((d) => [d.subject, d.event.type]), [
        [`project:${a}`, 'project.created'], [`project:${b}`, 'project.created'], [`project:${a}`, 'project.updated'],
      ]);
      // a's first delivery fails and waits for its retry: a's update waits too, b goes on.
      assert.equal(await repos.webhooks.settle(due[0]!.id, 0, { state: 'pending', status: 500, error: 'HTTP 500', retryAt: at(60) }, at(3)), true);
      assert.deepEqual((await repos.webhooks.dueDeliveries(id, at(4), 10)).map((d) => d.subject), [`project:${b}`]);
      assert.equal(await repos.webhooks.settle(due[0]!.id, 0, { state: 'delivered', status: 200, at: at(5) }, at(5)), false, 'a stale attempt does not count');
      assert.deepEqual((await repos.webhooks.dueDeliveries(id, at(61), 10)).map((d) => d.event.type), ['project.created', 'project.created', 'project.updated']);
    });
  });
}
