// The domain-event outbox (src/core/ports/events.ts): an event exists if and only if the
// change that published it commits; it reaches this node's listeners after commit, never
// before, and other nodes' through LISTEN/NOTIFY. On PGlite and, with TEST_DATABASE_URL,
// PostgreSQL (the other-node tests need PostgreSQL).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createStore } from '../../src/adapters/postgres/store.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import { eventOf, type StoredDomainEvent } from '../../src/core/events/domain-events.ts';
import { ENGINES, migratedDatabase, type TestDatabase } from '../support/database.ts';

type Store = Awaited<ReturnType<typeof createStore>>;
const NOW = new Date('2026-11-25T12:00:00.000Z');

for (const engine of ENGINES) {
  describe(`domain events on ${engine}`, () => {
    let db: TestDatabase;
    let store: Store;
    const heard: StoredDomainEvent[] = [];

    before(async () => {
      db = await migratedDatabase(engine);
      store = await createStore(db.sql);
      store.onEvent((e) => heard.push(e));
    });
    after(async () => {
      await store.close();
      await db.drop();
    });

    const rowsOf = (subject: string) =>
      db.sql.query<{ type: string; account_id: string | null; data: unknown }>(
        'SELECT type, account_id, data FROM domain_events WHERE subject = $1 ORDER BY seq',
        [subject],
      );
    /** A role row and its role.created event, as roles.createRole writes them. */
    const roleCreated = (accountId: string, roleId: string) => eventOf('role.created', accountId, `role:${roleId}`, { roleId });

    test('a change that commits writes exactly its events, in order, with their type, account and data', async () => {
      const accountId = crypto.randomUUID();
      const roleId = crypto.randomUUID();
      const subject = `role:${roleId}`;
      await store.transaction(async (repos) => {
        await repos.events.publish(roleCreated(accountId, roleId), NOW);
        await repos.events.publish(eventOf('role.updated', accountId, subject, { roleId }), NOW);
      });
      assert.deepEqual(await rowsOf(subject), [
        { type: 'role.created', account_id: accountId, data: { roleId } },
        { type: 'role.updated', account_id: accountId, data: { roleId } },
      ]);
    });

    test('a transaction that throws after publishing writes no event and delivers none', async () => {
      const roleId = crypto.randomUUID();
      const before = heard.length;
      await assert.rejects(
        store.transaction(async (repos) => {
          await repos.events.publish(roleCreated(crypto.randomUUID(), roleId), NOW);
          throw new Error('the change fails after its event');
        }),
        /the change fails/,
      );
      assert.deepEqual(await rowsOf(`role:${roleId}`), []);
      await new Promise((r) => setTimeout(r, 50)); // a NOTIFY, had one been sent, would be here by now
      assert.equal(heard.length, before);
    });

    test('events are delivered after commit, not before: a listener never sees an uncommitted change', async () => {
      const roleId = crypto.randomUUID();
      const subject = `role:${roleId}`;
      let seenInside = -1;
      const stored = await store.transaction(async (repos) => {
        const e = await repos.events.publish(roleCreated(crypto.randomUUID(), roleId), NOW);
        seenInside = heard.filter((h) => h.subject === subject).length;
        return e;
      });
      assert.equal(seenInside, 0, 'nothing delivered while the transaction is open');
      const delivered = heard.filter((h) => h.subject === subject);
      assert.ok(delivered.length >= 1, 'delivered once committed');
      assert.deepEqual({ ...delivered[0]!, occurredAt: delivered[0]!.occurredAt.toISOString() }, { ...stored, occurredAt: NOW.toISOString() });
    });

    test('a listener that throws does not keep the event from the others', async () => {
      const other: string[] = [];
      store.onEvent(() => {
        throw new Error('a failing consumer');
      });
      store.onEvent((e) => other.push(e.id));
      const e = await store.transaction((repos) => repos.events.publish(roleCreated(crypto.randomUUID(), crypto.randomUUID()), NOW));
      assert.ok(other.includes(e.id));
    });

    test('another node hears committed events through the database, and never rolled-back ones', { skip: engine !== 'postgres' && 'one process on PGlite' }, async () => {
      const secondSql = openPostgres(db.url!, 2);
      const nodeB = await createStore(secondSql);
      try {
        const heardByB: StoredDomainEvent[] = [];
        nodeB.onEvent((e) => heardByB.push(e));
        const rolledBack = crypto.randomUUID();
        await assert.rejects(store.transaction(async (repos) => {
          await repos.events.publish(roleCreated(crypto.randomUUID(), rolledBack), NOW);
          throw new Error('rolled back');
        }));
        const committed = crypto.randomUUID();
        const e = await store.transaction((repos) => repos.events.publish(roleCreated(crypto.randomUUID(), committed), NOW));
        for (let i = 0; i < 100 && !heardByB.some((h) => h.id === e.id); i++) await new Promise((r) => setTimeout(r, 20));
        const got = heardByB.find((h) => h.id === e.id);
        assert.ok(got, 'node B heard the committed event');
        assert.equal(got.type, 'role.created');
        assert.equal(got.occurredAt.toISOString(), NOW.toISOString());
        assert.ok(!heardByB.some((h) => h.subject === `role:${rolledBack}`), 'node B never heard the rolled-back one');
      } finally {
        await nodeB.close();
        await secondSql.close();
      }
    });

    test('a node hears each of its own events once: at commit, not again when LISTEN brings it back; other nodes\' once too', { skip: engine !== 'postgres' && 'one process on PGlite' }, async () => {
      const secondSql = openPostgres(db.url!, 2);
      const nodeB = await createStore(secondSql);
      try {
        const heardByA: StoredDomainEvent[] = [];
        const heardByB: StoredDomainEvent[] = [];
        store.onEvent((e) => heardByA.push(e));
        nodeB.onEvent((e) => heardByB.push(e));
        const own = await store.transaction((repos) => repos.events.publish(roleCreated(crypto.randomUUID(), crypto.randomUUID()), NOW));
        // B's event commits after A's: notifications reach a listener in commit order, so once
        // A has heard B's through LISTEN, its LISTEN connection has passed A's own.
        const marker = await nodeB.transaction((repos) => repos.events.publish(roleCreated(crypto.randomUUID(), crypto.randomUUID()), NOW));
        const heardBy = async (heard: StoredDomainEvent[], id: string) => {
          for (let i = 0; i < 100 && !heard.some((h) => h.id === id); i++) await new Promise((r) => setTimeout(r, 20));
        };
        await heardBy(heardByA, marker.id);
        // The same the other way round: once B has heard A's second event, it has passed its own.
        const second = await store.transaction((repos) => repos.events.publish(roleCreated(crypto.randomUUID(), crypto.randomUUID()), NOW));
        await heardBy(heardByB, second.id);
        const times = (heard: StoredDomainEvent[], id: string) => heard.filter((h) => h.id === id).length;
        assert.deepEqual([times(heardByA, own.id), times(heardByA, marker.id)], [1, 1], 'A: its own at commit, B\'s through LISTEN');
        assert.deepEqual([times(heardByB, own.id), times(heardByB, marker.id)], [1, 1], 'B: A\'s through LISTEN, its own at commit');
      } finally {
        await nodeB.close();
        await secondSql.close();
      }
    });
  });
}
