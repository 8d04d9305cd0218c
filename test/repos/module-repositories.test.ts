// A module's repositories reach every executor of the store (src/modules/contract.ts
// repositories, src/adapters/postgres/store.ts): on the pool outside a transaction, on the
// transaction inside one, so a module's write rolls back with the transaction that made it.
// Its events' invalidation rows travel with the store. PGlite and, with TEST_DATABASE_URL,
// PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../src/adapters/postgres/store.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { ENGINES, migratedDatabase, type TestDatabase } from '../support/database.ts';

/** A probe module's repository: a key in the settings table. */
interface NotesRepo {
  write(text: string): Promise<void>;
  read(): Promise<string | null>;
}
const notesRepo = (sql: Sql): NotesRepo => ({
  async write(text) {
    await sql.query("INSERT INTO settings (key, value) VALUES ('probe-note', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [JSON.stringify(text)]);
  },
  async read() {
    const [row] = await sql.query<{ value: string }>("SELECT value FROM settings WHERE key = 'probe-note'");
    return row?.value ?? null;
  },
});

for (const engine of ENGINES) {
  describe(`module repositories on ${engine}`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await migratedDatabase(engine);
    });
    after(async () => {
      await db.drop();
    });

    test("a module's repository is bound to the transaction: its write commits or rolls back with it", async () => {
      const store = await createStore(db.sql, undefined, { repositories: { notes: notesRepo }, invalidation: {} });
      try {
        await store.transaction(async (repos) => repos.notes.write('kept'));
        assert.equal(await store.repos.notes.read(), 'kept');
        await assert.rejects(store.transaction(async (repos) => {
          await repos.notes.write('dropped');
          assert.equal(await repos.notes.read(), 'dropped', 'the transaction sees its own write');
          throw new Error('abort');
        }), /abort/);
        assert.equal(await store.repos.notes.read(), 'kept');
        // The kernel's repositories are still there beside it.
        assert.equal(typeof store.repos.settings.get, 'function');
      } finally {
        await store.close();
      }
    });

    test('a module repository named like a kernel repository is refused', async () => {
      await assert.rejects(createStore(db.sql, undefined, { repositories: { settings: notesRepo }, invalidation: {} }), /settings has the name of a kernel repository/);
    });

    test("the store carries the modules' invalidation rows", async () => {
      const invalidation = { 'role.created': () => ['probe:1'] };
      const store = await createStore(db.sql, undefined, { repositories: {}, invalidation });
      try {
        assert.equal(store.moduleInvalidation, invalidation);
      } finally {
        await store.close();
      }
    });
  });
}
