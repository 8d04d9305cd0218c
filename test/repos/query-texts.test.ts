// Sql.queryTexts on every engine: each row handed on as its values' UTF-8 bytes (null for
// NULL), in and out of a transaction; parameters reach the query as values whatever they
// hold (node-postgres inlines them as quoted literals into a COPY); errors thrown with their
// SQLSTATE and the transaction still usable for its rollback; an exception from onRow
// failing the call with the engine still usable.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { ENGINES, testDatabase, type TestDatabase } from '../support/database.ts';

const ROWS = `SELECT k::text, CASE WHEN k = 2 THEN NULL ELSE repeat($1::text, k::int) END AS t, $3::text AS p
  FROM generate_series(1, $2::bigint) AS k`;

/** Parameters a careless inlining would break: quotes, backslashes, a placeholder, non-ASCII, a statement. */
const HOSTILE = [`ü"\\'$1`, `'); DROP TABLE users; --`, `E'\\x41'`, '\u{1F600}\t\n'];

for (const engine of ENGINES) {
  describe(`queryTexts on ${engine}`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await testDatabase(engine);
    });
    after(async () => {
      await db.drop();
    });

    const read = async (sql: Sql, text: string, params: unknown[]) => {
      const rows: (Buffer | null)[][] = [];
      await sql.queryTexts(text, params, (r) => rows.push(r));
      return rows;
    };
    const bytesOf = (rows: Record<string, unknown>[]) => rows.map((r) => Object.values(r).map((v) => (v === null ? null : Buffer.from(String(v)))));

    test('rows come in order as the UTF-8 bytes of their values, nulls as null (in and out of a transaction)', async () => {
      for (const p of HOSTILE) {
        const params = [p, 4, p.repeat(2)];
        const expected = bytesOf(await db.sql.query(ROWS, params));
        assert.equal(expected.length, 4);
        assert.deepEqual(await read(db.sql, ROWS, params), expected, `out of a transaction, parameter ${JSON.stringify(p)}`);
        assert.deepEqual(await db.sql.transaction((tx) => read(tx, ROWS, params)), expected, 'in a transaction');
      }
      const [row] = await read(db.sql, ROWS, ['x', 1, null]);
      assert.deepEqual(row, [Buffer.from('1'), Buffer.from('x'), null], 'a null parameter is NULL');
    });

    test('dates and numbers are parameters as query() sends them', async () => {
      const at = new Date('2026-11-23T08:15:30.123Z');
      const text = `SELECT to_char($1::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS'), ($2::int + 1)::text, $3::numeric::text`;
      assert.deepEqual(await read(db.sql, text, [at, 41, 2.5]), [[Buffer.from('2026-11-23T08:15:30.123'), Buffer.from('42'), Buffer.from('2.5')]]);
      await assert.rejects(read(db.sql, text, [{ a: 1 }, 1, 1]), /scalar parameters/);
    });

    test('a failing query throws its SQLSTATE, and the transaction rolls back cleanly', async () => {
      await assert.rejects(
        db.sql.transaction(async (tx) => {
          await tx.queryTexts('SELECT (1 / (k - 2))::text AS x FROM generate_series(1, 3) AS k', [], () => {});
        }),
        (e: { code?: string }) => e.code === '22012',
      );
      assert.deepEqual(await db.sql.query('SELECT 1 AS one'), [{ one: 1 }], 'the engine is usable after the rollback');
    });

    test('an exception from onRow fails the call, and the engine stays usable', async () => {
      let seen = 0;
      await assert.rejects(
        db.sql.transaction((tx) => tx.queryTexts(ROWS, ['x', 5, 'p'], () => {
          seen++;
          throw new Error('sink failed');
        })),
        /sink failed/,
      );
      assert.equal(seen, 1, 'no row is handed on after the failure');
      assert.deepEqual(await db.sql.query('SELECT 2 AS two'), [{ two: 2 }]);
    });

    if (engine === 'pglite') {
      test('a column that is not text is refused (PGlite sees the types)', async () => {
        await assert.rejects(read(db.sql, 'SELECT 1 AS n', []), /column n has type 23, not text/);
      });
    }
  });
}
