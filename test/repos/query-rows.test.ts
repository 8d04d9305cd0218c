// Sql.queryRows on every engine: rows handed on one by one in order, typed as query() types
// them, `bytes` columns as the UTF-8 bytes of their text (PGlite reads them from the
// protocol's own bytes inside a transaction), errors thrown with their SQLSTATE and the
// transaction still usable for its rollback, and an exception from onRow failing the call.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { ENGINES, testDatabase, type TestDatabase } from '../support/database.ts';

const ROWS = `SELECT k, k * 2 AS twice, CASE WHEN k = 2 THEN NULL ELSE repeat($1::text, k::int) END AS t, repeat($1::text, k::int) AS b
  FROM generate_series(1, $2::bigint) AS k`;

for (const engine of ENGINES) {
  describe(`queryRows on ${engine}`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await testDatabase(engine);
    });
    after(async () => {
      await db.drop();
    });

    const read = async (sql: Sql, bytes?: string[]) => {
      const rows: Record<string, unknown>[] = [];
      await sql.queryRows(ROWS, ['ü"\\', 4], (r) => rows.push(r), bytes ? { bytes } : undefined);
      return rows;
    };

    test('rows come one by one, typed as query() types them, bytes columns as the UTF-8 of their text (in and out of a transaction)', async () => {
      const expected = await db.sql.query(ROWS, ['ü"\\', 4]);
      assert.equal(expected.length, 4);
      assert.deepEqual(await read(db.sql), expected);
      const asBytes = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, b: Buffer.from(r.b as string) }));
      for (const rows of [await read(db.sql, ['b']), await db.sql.transaction((tx) => read(tx, ['b']))]) {
        assert.ok(rows.every((r) => Buffer.isBuffer(r.b)));
        assert.deepEqual(rows, asBytes(expected));
      }
      const nulls = await db.sql.transaction((tx) => read(tx, ['t']));
      assert.equal(nulls[1]!.t, null, 'a null bytes column stays null');
      assert.deepEqual(nulls[2]!.t, Buffer.from('ü"\\'.repeat(3)));
    });

    test('a failing query throws its SQLSTATE, and the transaction rolls back cleanly', async () => {
      await assert.rejects(
        db.sql.transaction(async (tx) => {
          await tx.queryRows('SELECT 1 / (k - 2) AS x FROM generate_series(1, 3) AS k', [], () => {}, { bytes: ['x'] });
        }),
        (e: { code?: string }) => e.code === '22012',
      );
      assert.deepEqual(await db.sql.query('SELECT 1 AS one'), [{ one: 1 }], 'the engine is usable after the rollback');
    });

    test('an exception from onRow fails the call, and the engine stays usable', async () => {
      let seen = 0;
      await assert.rejects(
        db.sql.transaction((tx) => tx.queryRows(ROWS, ['x', 5], () => {
          seen++;
          throw new Error('sink failed');
        }, { bytes: ['b'] })),
        /sink failed/,
      );
      assert.equal(seen, 1, 'no row is handed on after the failure');
      assert.deepEqual(await db.sql.query('SELECT 2 AS two'), [{ two: 2 }]);
    });
  });
}
