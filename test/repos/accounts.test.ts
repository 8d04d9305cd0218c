// The accounts, account members and subscriptions repositories on every engine:
// round trips, account roles of members, partial updates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { suiteStore, userRow } from '../support/suite-store.ts';
import type { AccountRole } from '../../src/core/ports/repositories.ts';
import { ENGINES } from '../support/database.ts';
import type { SubscriptionRecord } from '../../src/modules/accounts/index.ts';

const T0 = new Date('2026-03-01T10:00:00.123Z');
const T1 = new Date('2026-03-02T11:30:00.456Z');
const T2 = new Date('2026-03-03T12:00:00.789Z');

for (const engine of ENGINES) {
  describe(`accounts and subscriptions repositories on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;
    let seq = 0;
    const user = async () => repos.users.insert(userRow(`u${++seq}@accounts.test`), T0);
    const account = async (name: string, ownerId: string, now = T0) =>
      repos.accounts.insert({ id: crypto.randomUUID(), name, ownerId, createdBy: ownerId }, now);


    test('an account round-trips by id, API 1 id and name (case-insensitively)', async () => {
      const owner = await user();
      const a = await account('Round Trip Ltd', owner.id);
      assert.equal(a.name, 'Round Trip Ltd');
      assert.equal(a.ownerId, owner.id);
      assert.equal(a.createdBy, owner.id);
      assert.deepEqual(a.createdAt, T0);
      assert.deepEqual(a.updatedAt, T0);
      assert.match(a.api1Id, /^[a-zA-Z0-9_-]{1,50}$/);
      assert.deepEqual(await repos.accounts.byId(a.id), a);
      assert.deepEqual(await repos.accounts.byApi1Id(a.api1Id), a);
      assert.deepEqual(await repos.accounts.byName('round trip ltd'), a);
      assert.equal(await repos.accounts.byName('Round Trip'), null);
      assert.equal(await repos.accounts.byId(crypto.randomUUID()), null);
    });

    test('byName answers the oldest of several accounts with the same name', async () => {
      const owner = await user();
      const older = await account('Twin', owner.id, T0);
      await account('twin', owner.id, T1);
      await repos.accounts.update(older.id, { name: 'Twin' }, T2); // a new row version, stored after the younger
      for (let i = 0; i < 5; i++) assert.equal((await repos.accounts.byName('TWIN'))!.id, older.id);
    });

    test('update renames or changes the owner, and sets updatedAt', async () => {
      const [owner, next] = [await user(), await user()];
      const a = await account('Before', owner.id);
      await repos.accounts.update(a.id, { name: 'After' }, T1);
      assert.deepEqual(await repos.accounts.byId(a.id), { ...a, name: 'After', updatedAt: T1 });
      await repos.accounts.update(a.id, { ownerId: next.id }, T2);
      assert.deepEqual(await repos.accounts.byId(a.id), { ...a, name: 'After', ownerId: next.id, updatedAt: T2 });
    });

    test('every combination of account roles round-trips through upsertMember', async () => {
      const owner = await user();
      const a = await account('Roles', owner.id);
      const all: AccountRole[] = ['administrator', 'projectManager', 'projectLister'];
      const combos = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => all.filter((_, i) => bits & (1 << i)));
      const members = [];
      for (const roles of combos) {
        const u = await user();
        await repos.accounts.upsertMember({ accountId: a.id, userId: u.id, roles, invitedBy: owner.id, invitedAt: T1 });
        const m = await repos.accounts.member(a.id, u.id);
        assert.deepEqual(m, { accountId: a.id, userId: u.id, roles, invitedBy: owner.id, invitedAt: T1 }, roles.join('+'));
        members.push(m);
      }
      // Upserting again replaces the roles and keeps the invitation.
      const first = members[7]!;
      await repos.accounts.upsertMember({ ...first, roles: ['projectLister'], invitedBy: null, invitedAt: T2 });
      assert.deepEqual(await repos.accounts.member(a.id, first.userId), { ...first, roles: ['projectLister'] });

      const listed = await repos.accounts.members(a.id);
      assert.equal(listed.length, 8);
      assert.deepEqual(new Set(listed.map((m) => m.userId)), new Set(members.map((m) => m!.userId)));

      await repos.accounts.removeMember(a.id, first.userId);
      assert.equal(await repos.accounts.member(a.id, first.userId), null);
      assert.equal((await repos.accounts.members(a.id)).length, 7);
    });

    test('listForUser answers the accounts a user owns or belongs to, oldest first', async () => {
      const [owner, member, stranger] = [await user(), await user(), await user()];
      const owned = await account('Owned', owner.id, T0);
      const joined = await account('Joined', stranger.id, T1);
      await repos.accounts.upsertMember({ accountId: joined.id, userId: owner.id, roles: [], invitedBy: null, invitedAt: null });
      await repos.accounts.upsertMember({ accountId: owned.id, userId: member.id, roles: ['administrator'], invitedBy: null, invitedAt: null });
      assert.deepEqual((await repos.accounts.listForUser(owner.id)).map((a) => a.name), ['Owned', 'Joined']);
      assert.deepEqual((await repos.accounts.listForUser(member.id)).map((a) => a.name), ['Owned']);
      assert.deepEqual((await repos.accounts.listForUser(stranger.id)).map((a) => a.name), ['Joined']);
      assert.deepEqual(await repos.accounts.listForUser(crypto.randomUUID()), []);
    });

    test('a subscription round-trips with every field', async () => {
      const owner = await user();
      const a = await account('Subscribed', owner.id);
      const fields = {
        name: 'Pro',
        isTrial: true,
        isVa: true,
        isActive: false,
        scanCapacity: 500,
        tagCapacity: 100_000,
        geoImageCapacity: 0,
        start: new Date('2026-01-01T00:00:00.000Z'),
        end: new Date('2027-01-01T00:00:00.000Z'),
        inviteAccountOwnerInNewProjects: true,
      };
      const s = await repos.subscriptions.insert({ id: crypto.randomUUID(), accountId: a.id, ...fields }, T0);
      const expected: SubscriptionRecord = { ...fields, id: s.id, api1Id: s.api1Id, accountId: a.id, createdAt: T0, updatedAt: T0 };
      assert.deepEqual(s, expected);
      assert.deepEqual(await repos.subscriptions.byId(s.id), expected);
      assert.deepEqual(await repos.subscriptions.byApi1Id(s.api1Id), expected);

      const bare = await repos.subscriptions.insert(
        { ...fields, id: crypto.randomUUID(), accountId: a.id, name: null, start: null, end: null },
        T1,
      );
      assert.equal(bare.name, null);
      assert.equal(bare.start, null);
      assert.equal(bare.end, null);
      assert.deepEqual((await repos.subscriptions.listByAccount(a.id)).map((x) => x.id), [s.id, bare.id]);
    });

    test('subscription update changes only the given fields; null clears a date', async () => {
      const owner = await user();
      const a = await account('Updated plan', owner.id);
      const s = await repos.subscriptions.insert(
        {
          id: crypto.randomUUID(), accountId: a.id, name: 'Basic', isTrial: false, isVa: false, isActive: true,
          scanCapacity: 10, tagCapacity: 20, geoImageCapacity: 30, start: T0, end: T2, inviteAccountOwnerInNewProjects: false,
        },
        T0,
      );
      await repos.subscriptions.update(s.id, { name: 'Renamed', scanCapacity: 11, end: null, isActive: undefined }, T1);
      assert.deepEqual(await repos.subscriptions.byId(s.id), { ...s, name: 'Renamed', scanCapacity: 11, end: null, updatedAt: T1 });
      await repos.subscriptions.update(s.id, {}, T2);
      assert.deepEqual((await repos.subscriptions.byId(s.id))!.updatedAt, T2);
    });

    test('capacities cannot be negative', async () => {
      const owner = await user();
      const a = await account('Negative', owner.id);
      await assert.rejects(
        repos.subscriptions.insert(
          {
            id: crypto.randomUUID(), accountId: a.id, name: 'Bad', isTrial: false, isVa: false, isActive: true,
            scanCapacity: -1, tagCapacity: 0, geoImageCapacity: 0, start: null, end: null, inviteAccountOwnerInNewProjects: false,
          },
          T0,
        ),
      );
      assert.deepEqual(await repos.subscriptions.listByAccount(a.id), []);
    });
  });
}
