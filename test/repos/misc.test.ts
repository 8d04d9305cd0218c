// Settings, outbox and reset on every engine: settings hold JSON values; the outbox
// lists newest first; admin.deleteAllData empties every tenant table and keeps
// signing_keys, settings and schema_migrations (CONTRACT §3 reset).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createStore } from '../../src/adapters/postgres/store.ts';
import { suiteStore } from '../support/suite-store.ts';
import { createEs256Signer } from '../../src/adapters/jwt/es256-signer.ts';
import { ENGINES } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const KEPT = ['schema_migrations', 'settings', 'signing_keys'];

for (const engine of ENGINES) {
  describe(`settings, outbox and reset on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;
    const tables = async () =>
      (await suite.db.sql.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)).map(
        (r) => r.t,
      );
    const count = async (table: string) => (await suite.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))[0]!.n;


    test('settings hold any JSON value, answer null when unset, and overwrite', async () => {
      assert.equal(await repos.settings.get('nothing.here'), null);
      const values: unknown[] = [0, 12.5, -3, 'text', '', true, false, [1, 'two', null], { nested: { a: [1, 2] } }];
      for (const [i, v] of values.entries()) {
        await repos.settings.set(`k${i}`, v);
        assert.deepEqual(await repos.settings.get(`k${i}`), v, JSON.stringify(v));
      }
      await repos.settings.set('k0', 42);
      assert.equal(await repos.settings.get('k0'), 42);
    });

    test('the outbox lists newest first, with links, up to the limit', async () => {
      const mails = [1, 2, 3].map((n) => ({ to: `r${n}@misc.test`, subject: `S${n}`, text: `T${n}`, links: [`http://x/${n}`, `http://y/${n}`] }));
      // All in the same millisecond: insertion order still decides.
      for (const m of mails) await repos.outbox.insert(crypto.randomUUID(), m, T0);
      const listed = await repos.outbox.list(10);
      assert.deepEqual(listed.map((m) => m.to), ['r3@misc.test', 'r2@misc.test', 'r1@misc.test']);
      assert.deepEqual(listed[0]!.links, ['http://x/3', 'http://y/3']);
      assert.equal(listed[0]!.subject, 'S3');
      assert.equal(listed[0]!.text, 'T3');
      assert.equal(listed[0]!.sentAt.getTime(), T0.getTime(), 'sentAt is the clock time, to the millisecond');
      assert.deepEqual((await repos.outbox.list(2)).map((m) => m.to), ['r3@misc.test', 'r2@misc.test']);

      // A later clock reading comes first.
      await repos.outbox.insert(crypto.randomUUID(), { ...mails[0]!, to: 'later@misc.test' }, new Date(T0.getTime() + 1000));
      assert.equal((await repos.outbox.list(1))[0]!.to, 'later@misc.test');
    });

    test('deleteAllData empties every tenant table and keeps signing_keys, settings and schema_migrations', async () => {
      // Something in every table.
      const signer = await createEs256Signer(suite.db.sql, { issuer: 'http://localhost', audience: 'http://localhost' });
      const jwks = await signer.jwks(Math.floor(T0.getTime() / 1000));
      await repos.settings.set('clock.offsetSeconds', 3600);
      const userId = crypto.randomUUID();
      await repos.users.insert(
        { id: userId, email: 'reset@misc.test', firstName: '', lastName: '', company: '', title: '', passwordHash: null, invitedBy: null, invitedAt: null },
        T0,
      );
      const accountId = crypto.randomUUID();
      await repos.accounts.insert({ id: accountId, name: 'Reset', ownerId: userId, createdBy: userId }, T0);
      await repos.accounts.upsertMember({ accountId, userId, roles: ['administrator'], invitedBy: null, invitedAt: null });
      await repos.subscriptions.insert(
        {
          id: crypto.randomUUID(), accountId, name: 'P', isTrial: false, isVa: false, isActive: true, scanCapacity: 1,
          tagCapacity: 1, geoImageCapacity: 1, start: null, end: null, inviteAccountOwnerInNewProjects: false,
        },
        T0,
      );
      await repos.oauth.insertCode({ codeHash: 'c', userId, redirectUri: '/', codeChallenge: null, expiresAt: T0, clientId: null }, T0);
      await repos.oauth.insertRefreshToken({ id: crypto.randomUUID(), tokenHash: 'r', userId, expiresAt: T0, clientId: null }, T0);
      await repos.webSessions.insert({ idHash: 's', userId, csrf: 'x', expiresAt: T0 }, T0);
      await repos.throttle.put({ key: 'k', failures: 1, windowStart: T0, lockedUntil: null });
      await repos.outbox.insert(crypto.randomUUID(), { to: 'a@b.c', subject: 's', text: 't', links: [] }, T0);
      const migrationsBefore = await suite.db.sql.query('SELECT * FROM schema_migrations ORDER BY version');
      const keysBefore = await suite.db.sql.query('SELECT * FROM signing_keys ORDER BY kid');
      const settingsBefore = await suite.db.sql.query('SELECT * FROM settings ORDER BY key');
      for (const t of ['users', 'accounts', 'account_members', 'subscriptions', 'authorization_codes', 'refresh_tokens', 'web_sessions', 'login_throttle', 'outbox']) {
        assert.ok((await count(t)) > 0, `${t} has rows before`);
      }

      await repos.admin.deleteAllData();

      for (const t of await tables()) {
        if (KEPT.includes(t)) continue;
        assert.equal(await count(t), 0, `${t} is empty`);
      }
      assert.deepEqual(await suite.db.sql.query('SELECT * FROM schema_migrations ORDER BY version'), migrationsBefore);
      assert.deepEqual(await suite.db.sql.query('SELECT * FROM signing_keys ORDER BY kid'), keysBefore);
      assert.deepEqual(await suite.db.sql.query('SELECT * FROM settings ORDER BY key'), settingsBefore);
      assert.equal(await repos.settings.get('clock.offsetSeconds'), 3600);
      assert.deepEqual(await signer.jwks(Math.floor(T0.getTime() / 1000)), jwks);

      // The schema still works afterwards.
      await repos.users.insert(
        { id: userId, email: 'reset@misc.test', firstName: '', lastName: '', company: '', title: '', passwordHash: null, invitedBy: null, invitedAt: null },
        T0,
      );
      assert.ok(await repos.users.byId(userId));
    });

    test('deleteAllData inside a transaction that fails deletes nothing', async () => {
      const store = await createStore(suite.db.sql);
      try {
        const before = await count('users');
        assert.ok(before > 0);
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.admin.deleteAllData();
            throw new Error('abort');
          }),
          /abort/,
        );
        assert.equal(await count('users'), before);
      } finally {
        await store.close();
      }
    });
  });
}
