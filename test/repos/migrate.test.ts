// Migrations (ARCHITECTURE "Persistence"): numbered, forward-only, each applied in its
// own transaction and recorded once; idempotent, and safe when several nodes start
// together (an advisory lock serialises them).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, readMigrations, type Migration } from '../../src/adapters/postgres/migrate.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { ENGINES, TEST_DATABASE_URL, freshPostgresUrl, testDatabase } from '../support/database.ts';

const ALL = readMigrations();

async function recorded(sql: Sql): Promise<{ version: number; name: string }[]> {
  return sql.query('SELECT version, name FROM schema_migrations ORDER BY version');
}

const expectedRows = () => ALL.map((m) => ({ version: m.version, name: m.name }));

test('migration files have unique, increasing version numbers', () => {
  assert.ok(ALL.length >= 1);
  const versions = ALL.map((m) => m.version);
  assert.deepEqual(versions, [...new Set(versions)].sort((a, b) => a - b), 'no two files share a number');
  for (const m of ALL) assert.match(m.name, /^\d{4}_[a-z0-9_]+\.sql$/);
});

for (const engine of ENGINES) {
  describe(`migrate() on ${engine}`, () => {
    test('applies every migration once and records it; a second run applies nothing', async () => {
      const db = await testDatabase(engine);
      try {
        assert.deepEqual(await migrate(db.sql), ALL.map((m) => m.name));
        assert.deepEqual(await recorded(db.sql), expectedRows());
        const before = await db.sql.query('SELECT version, applied_at FROM schema_migrations ORDER BY version');
        assert.deepEqual(await migrate(db.sql), []);
        assert.deepEqual(await db.sql.query('SELECT version, applied_at FROM schema_migrations ORDER BY version'), before);
      } finally {
        await db.drop();
      }
    });

    test('concurrent migrate() calls on one handle all succeed and apply each migration once', async () => {
      const db = await testDatabase(engine);
      try {
        const results = await Promise.all(Array.from({ length: 5 }, () => migrate(db.sql)));
        assert.deepEqual(results.flat().sort(), ALL.map((m) => m.name).sort());
        assert.deepEqual(await recorded(db.sql), expectedRows());
      } finally {
        await db.drop();
      }
    });

    test('a failing migration is rolled back whole and not recorded; earlier ones stay', async () => {
      const db = await testDatabase(engine);
      try {
        const bad: Migration = {
          version: 9001,
          name: '9001_broken.sql',
          sql: 'CREATE TABLE half_done (id int); INSERT INTO half_done VALUES (1); SELECT * FROM no_such_table;',
        };
        await assert.rejects(migrate(db.sql, [...ALL, bad]), /no_such_table/);
        assert.deepEqual(await recorded(db.sql), expectedRows());
        const tables = await db.sql.query(`SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`);
        assert.equal(tables.length, 0, 'the broken migration left nothing behind');
        // Fixed, it applies.
        const fixed = { ...bad, sql: 'CREATE TABLE half_done (id int);' };
        assert.deepEqual(await migrate(db.sql, [...ALL, fixed]), ['9001_broken.sql']);
      } finally {
        await db.drop();
      }
    });
  });
}

describe('migrate() from several nodes at once (PostgreSQL)', { skip: !TEST_DATABASE_URL && 'TEST_DATABASE_URL not set' }, () => {
  let fresh: { url: string; drop: () => Promise<void> };
  const nodes: Sql[] = [];
  before(async () => {
    fresh = await freshPostgresUrl(TEST_DATABASE_URL!);
  });
  after(async () => {
    for (const n of nodes) await n.close();
    await fresh.drop();
  });

  test('5 concurrent migrate() calls, each with its own pool, against a fresh database all succeed', async () => {
    for (let i = 0; i < 5; i++) nodes.push(openPostgres(fresh.url, 2));
    const results = await Promise.all(nodes.map((sql) => migrate(sql)));
    assert.deepEqual(results.flat().sort(), ALL.map((m) => m.name).sort(), 'each migration applied by exactly one node');
    const rows = await nodes[0]!.query<{ version: number; n: number }>(
      'SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version',
    );
    assert.deepEqual(rows, ALL.map((m) => ({ version: m.version, n: 1 })));
    // And again, all at once, nothing to do.
    assert.deepEqual((await Promise.all(nodes.map((sql) => migrate(sql)))).flat(), []);
  });
});
