// Sql.query with a statement name, and queryJsonRows, on every engine (docs/performance.md):
// a named statement answers the rows query() answers, with the same types, in and out of a
// transaction, on first use and after; a failure throws its SQLSTATE and leaves the engine
// (and the transaction's rollback) usable; one name is never reused for another text.
// queryJsonRows answers the rows of its select in the given order, as JSON values.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { queryJsonRows } from '../../src/adapters/postgres/sql.ts';
import { ENGINES, testDatabase, type TestDatabase } from '../support/database.ts';

const ROWS = `SELECT k AS n, k::text AS t, ($1::timestamptz + k * interval '1 second') AS at, ARRAY[$2::uuid] AS ids,
    k % 2 = 0 AS even, NULLIF(k, 2) AS maybe, k * 0.5::float8 AS half
  FROM generate_series(1, $3::int) AS k`;
const AT = new Date('2026-11-23T08:15:30.123Z');
const ID = '5f0c6a4e-2c1b-4c3d-9e8f-0a1b2c3d4e5f';

for (const engine of ENGINES) {
  describe(`named statements and JSON rows on ${engine}`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await testDatabase(engine);
    });
    after(async () => {
      await db.drop();
    });

    test('a named statement answers the rows query() answers, on first use and after, in and out of a transaction', async () => {
      const params = [AT, ID, 3];
      const expected = await db.sql.query(ROWS, params);
      assert.equal(expected.length, 3);
      assert.ok(expected[0]!.at instanceof Date);
      for (let i = 0; i < 7; i++) {
        // past PostgreSQL's five custom plans: the generic plan answers the same
        assert.deepEqual(await db.sql.query(ROWS, params, { name: 'test-rows' }), expected, `call ${i + 1}`);
      }
      assert.deepEqual(await db.sql.transaction((tx) => tx.query(ROWS, params, { name: 'test-rows' })), expected, 'in a transaction');
      assert.deepEqual(await db.sql.query(ROWS, [AT, ID, 1], { name: 'test-rows' }), expected.slice(0, 1), 'other values, same statement');
      assert.deepEqual(await db.sql.query(ROWS, [null, ID, 1], { name: 'test-rows' }), [{ ...expected[0], at: null }], 'a null parameter');
    });

    test('a failing named statement throws its SQLSTATE and the transaction rolls back cleanly', async () => {
      const failing = 'SELECT 1 / ($1::int - 2) AS x';
      await assert.rejects(db.sql.query(failing, [2], { name: 'test-failing' }), (e: { code?: string }) => e.code === '22012');
      assert.deepEqual(await db.sql.query(failing, [3], { name: 'test-failing' }), [{ x: 1 }], 'the statement is usable after its failure');
      await assert.rejects(
        db.sql.transaction((tx) => tx.query(failing, [2], { name: 'test-failing' })),
        (e: { code?: string }) => e.code === '22012',
      );
      assert.deepEqual(await db.sql.query('SELECT 1 AS one'), [{ one: 1 }], 'the engine is usable after the rollback');
    });

    test('a statement name is never reused for another text', async () => {
      await db.sql.query('SELECT 1 AS one', [], { name: 'test-one' });
      await assert.rejects(db.sql.query('SELECT 2 AS two', [], { name: 'test-one' }));
    });

    test('queryJsonRows answers the rows of its select in order, as JSON values', async () => {
      const rows = await queryJsonRows<Record<string, unknown>>(db.sql, ROWS, [AT, ID, 3], 'q.n DESC');
      assert.deepEqual(rows.map((r) => r.n), [3, 2, 1]);
      assert.deepEqual(rows[2], {
        n: 1, t: '1', at: rows[2]!.at, ids: [ID], even: false, maybe: 1, half: 0.5,
      });
      assert.equal(new Date(rows[2]!.at as string).toISOString(), '2026-11-23T08:15:31.123Z', 'a timestamp as its ISO text');
      assert.equal(rows[1]!.maybe, null);
      assert.deepEqual(await queryJsonRows(db.sql, 'SELECT 1 AS x WHERE false', []), [], 'no rows: an empty list');
    });
  });
}
