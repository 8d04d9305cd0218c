// The users repository on every engine: round trip, e-mail unique case-insensitively
// (CONTRACT §3 seeds and invitations reference users by e-mail), partial updates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createStore } from '../../src/adapters/postgres/store.ts';
import { suiteStore } from '../support/suite-store.ts';
import type { NewUser } from '../../src/core/ports/repositories.ts';
import { ENGINES } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.123Z');
const T1 = new Date('2026-03-02T11:30:00.456Z');

const newUser = (email: string, extra: Partial<NewUser> = {}): NewUser => ({
  id: crypto.randomUUID(),
  email,
  firstName: 'First',
  lastName: 'Last',
  company: 'Company',
  title: 'Title',
  passwordHash: '$argon2id$fake',
  invitedBy: null,
  invitedAt: null,
  ...extra,
});

for (const engine of ENGINES) {
  describe(`users repository on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;

    test('a user round-trips by id, API 1 id and e-mail', async () => {
      const inviter = await repos.users.insert(newUser('inviter@users.test'), T0);
      const u = newUser('Round.Trip@Users.Test', {
        firstName: 'Zoë',
        lastName: "O'Brien",
        company: 'Ünïcode & Co',
        title: '',
        passwordHash: null,
        invitedBy: inviter.id,
        invitedAt: T0,
      });
      const created = await repos.users.insert(u, T0);
      assert.equal(created.id, u.id);
      assert.equal(created.email, 'Round.Trip@Users.Test', 'the e-mail keeps its case');
      assert.equal(created.firstName, 'Zoë');
      assert.equal(created.lastName, "O'Brien");
      assert.equal(created.company, 'Ünïcode & Co');
      assert.equal(created.title, '');
      assert.equal(created.passwordHash, null);
      assert.equal(created.invitedBy, inviter.id);
      assert.deepEqual(created.invitedAt, T0);
      assert.deepEqual(created.createdAt, T0);
      assert.deepEqual(created.updatedAt, T0);
      assert.match(created.api1Id, /^[a-zA-Z0-9_-]{1,50}$/);

      assert.deepEqual(await repos.users.byId(u.id), created);
      assert.deepEqual(await repos.users.byApi1Id(created.api1Id), created);
      assert.deepEqual(await repos.users.byEmail('round.trip@users.test'), created);
      assert.deepEqual(await repos.users.byEmail('ROUND.TRIP@USERS.TEST'), created);
    });

    test('unknown ids and e-mails answer null', async () => {
      assert.equal(await repos.users.byId(crypto.randomUUID()), null);
      assert.equal(await repos.users.byApi1Id('no-such-user'), null);
      assert.equal(await repos.users.byEmail('nobody@users.test'), null);
    });

    test('e-mail is unique case-insensitively', async () => {
      await repos.users.insert(newUser('Unique@Users.Test'), T0);
      await assert.rejects(repos.users.insert(newUser('unique@users.test'), T0));
      await assert.rejects(repos.users.insert(newUser('UNIQUE@USERS.TEST'), T0));
      assert.equal((await repos.users.byEmail('unique@users.test'))!.email, 'Unique@Users.Test');
    });

    test('a failed insert inside a transaction rolls the transaction back', async () => {
      const store = await createStore(suite.db.sql);
      try {
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.users.insert(newUser('first-in-tx@users.test'), T0);
            await tx.users.insert(newUser('FIRST-IN-TX@users.test'), T0);
          }),
        );
        assert.equal(await repos.users.byEmail('first-in-tx@users.test'), null);
      } finally {
        await store.close();
      }
    });

    test('update changes only the given fields and sets updatedAt', async () => {
      const u = await repos.users.insert(newUser('update@users.test'), T0);
      await repos.users.update(u.id, { firstName: 'New', passwordHash: null, lastName: undefined }, T1);
      const after = await repos.users.byId(u.id);
      assert.equal(after!.firstName, 'New');
      assert.equal(after!.passwordHash, null);
      assert.equal(after!.lastName, 'Last');
      assert.equal(after!.company, 'Company');
      assert.deepEqual(after!.createdAt, T0);
      assert.deepEqual(after!.updatedAt, T1);

      // An empty patch only touches updatedAt.
      await repos.users.update(u.id, {}, T0);
      assert.deepEqual(await repos.users.byId(u.id), { ...after!, updatedAt: T0 });
    });

    test('lock() inside a transaction serialises writers of the same user', async () => {
      const u = await repos.users.insert(newUser('lock@users.test'), T0);
      const store = await createStore(suite.db.sql);
      const events: string[] = [];
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((r) => (releaseFirst = r));
      let firstLocked!: () => void;
      const locked = new Promise<void>((r) => (firstLocked = r));
      try {
        const first = store.transaction(async (tx) => {
          await tx.users.lock(u.id);
          events.push('first locked');
          firstLocked();
          await firstHolds;
          events.push('first done');
        });
        await locked;
        const second = store.transaction(async (tx) => {
          await tx.users.lock(u.id);
          events.push('second locked');
        });
        await new Promise((r) => setTimeout(r, 100));
        releaseFirst();
        await Promise.all([first, second]);
        assert.deepEqual(events, ['first locked', 'first done', 'second locked']);
      } finally {
        await store.close();
      }
    });
  });
}
