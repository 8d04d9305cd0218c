// Nodes starting together apply the same SEED_FILE at the same moment: each seeder runs
// on its own connection pool (as each node has), and the seed lock makes the later ones
// find what the first created. Without it, two transactions both find no user and both
// insert: one dies on users_pkey / the e-mail's unique index.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../src/adapters/postgres/store.ts';
import { STORE_MODULES } from '../../src/modules/registries.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import { createSeeder } from '../../src/modules/operator/core/seed.ts';
import { seedRolesAndGroups } from '../../src/modules/roles/index.ts';
import { randomIds } from '../../src/adapters/ids/random-ids.ts';
import type { PasswordHasher } from '../../src/core/ports/crypto.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { ENGINES, migratedDatabase, type TestDatabase } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const clock = { now: () => T0, nowMs: () => T0.getTime() };
// Real hashing costs ~50 ms per password and only widens the window; the race is the same.
const hasher: PasswordHasher = {
  hash: async (p) => `plain:${p}`,
  verify: async (stored, p) => stored === `plain:${p}`,
};

const SEED = {
  users: Array.from({ length: 8 }, (_, i) => ({ email: `user${i}@acme.test`, password: `password-${i}-long` })),
  accounts: [
    {
      name: 'Acme',
      owner: 'user0@acme.test',
      administrators: ['user1@acme.test'],
      members: ['user2@acme.test'],
      subscriptions: [{ name: 'Pro', scanCapacity: 500, start: '2026-01-01T00:00:00Z' }],
      roles: [{ name: 'Surveyor', legacyPermissions: ['view3d', 'upload'] }],
      groups: [{ name: 'Field team', users: ['user2@acme.test'] }],
    },
  ],
};

for (const engine of ENGINES) {
  describe(`seeding from several nodes at once on ${engine}`, () => {
    let db: TestDatabase;
    const pools: Sql[] = [];
    const stores: { close(): Promise<void> }[] = [];
    before(async () => {
      db = await migratedDatabase(engine);
    });
    after(async () => {
      for (const s of stores) await s.close();
      for (const p of pools) await p.close();
      await db.drop();
    });

    test('the same seed applied by three nodes at the same moment succeeds on each and creates every object once', async () => {
      // One connection pool per "node" on PostgreSQL; PGlite has one process and one connection.
      const sqls = [0, 1, 2].map(() => {
        if (!db.url) return db.sql;
        const sql = openPostgres(db.url, 2);
        pools.push(sql);
        return sql;
      });
      const seeders = await Promise.all(
        sqls.map(async (sql) => {
          // The node's store: the kernel's repositories and the module list's (the roles module's, which the seed writes).
          const store = await createStore(sql, undefined, STORE_MODULES);
          stores.push(store);
          return createSeeder({ store, clock, ids: randomIds, hasher, extensions: [seedRolesAndGroups(randomIds, clock)] });
        }),
      );
      for (let round = 0; round < 3; round++) {
        const results = await Promise.allSettled(seeders.map((apply) => apply(SEED)));
        for (const r of results) assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '');
      }
      const count = async (table: string) => (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
      assert.equal(await count('users'), SEED.users.length);
      assert.equal(await count('accounts'), 1);
      assert.equal(await count('subscriptions'), 1);
      assert.equal(await count('groups'), 1);
    });
  });
}
