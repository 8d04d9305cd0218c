// The database deadlines (src/adapters/postgres/deadlines.ts) on both engines: a call on the
// outer handle from inside a transaction is refused at once instead of waiting for ever
// (PGlite) or holding a second connection (PostgreSQL); a transaction that outlives its
// deadline is rolled back and its caller answered 503; a call that waits too long for a
// connection is answered 503 and never runs later; the load the probes and metrics read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, testDatabase } from '../support/database.ts';
import { TransactionReentryError, withDeadlines, type DeadlineObserver } from '../../src/adapters/postgres/deadlines.ts';
import { connectionsOf } from '../../src/adapters/postgres/open.ts';
import { DomainError } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/ports/telemetry.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

/** A logger that keeps its lines. */
function recordingLogger(): Logger & { lines: { level: string; fields: Record<string, unknown>; message: string }[] } {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  const logger = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger & { lines: typeof lines };
  (logger as unknown as { child: () => Logger }).child = () => logger;
  return logger;
}

function countingObserver(): DeadlineObserver & { waits: number; waitTimeouts: number; timedOut: string[] } {
  const o = {
    waits: 0, waitTimeouts: 0, timedOut: [] as string[],
    waited: () => void o.waits++,
    waitTimedOut: () => void o.waitTimeouts++,
    transactionTimedOut: (name: string) => void o.timedOut.push(name),
  };
  return o;
}

const isUnavailable = (e: unknown) => e instanceof DomainError && e.code === 'database-unavailable' && e.status === 503;

async function withTable(engine: 'pglite' | 'postgres', run: (engineSql: Sql) => Promise<void>) {
  const db = await testDatabase(engine);
  try {
    await db.sql.exec('CREATE TABLE notes (id int PRIMARY KEY, body text)');
    await run(db.sql);
  } finally {
    await db.drop();
  }
}

const never = () => new Promise<never>(() => {});

for (const engine of ENGINES) {
  test(`${engine}: a query on the outer handle from inside a transaction is refused at once, naming the transaction's opener`, async () => {
    await withTable(engine, async (raw) => {
      const sql = withDeadlines(raw, { waitMs: 5_000, transactionMs: 10_000, permits: connectionsOf(raw), logger: recordingLogger() });
      await assert.rejects(
        sql.transaction(async (tx) => {
          await tx.query('INSERT INTO notes VALUES (1, $1)', ['inside']);
          await sql.query('SELECT count(*) FROM notes'); // the outer handle
        }),
        (e: unknown) => e instanceof TransactionReentryError && /database-deadlines\.test\.ts/.test(e.message),
      );
      // The transaction was rolled back; the handle works again after it.
      assert.deepEqual(await sql.query('SELECT count(*)::int AS n FROM notes'), [{ n: 0 }]);
      // A nested transaction on the outer handle is the same mistake.
      await assert.rejects(sql.transaction(() => sql.transaction(async () => 1)), TransactionReentryError);
      // Work started inside a transaction and run after it ends may use the outer handle.
      let later: Promise<unknown> = Promise.resolve();
      await sql.transaction(async (tx) => {
        await tx.query('INSERT INTO notes VALUES (2, $1)', ['kept']);
        later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => sql.query('SELECT body FROM notes'));
      });
      assert.deepEqual(await later, [{ body: 'kept' }]);
    });
  });

  test(`${engine}: a transaction past its deadline is rolled back, answers 503, refuses its handle afterwards, and is logged once by name`, async () => {
    await withTable(engine, async (raw) => {
      const logger = recordingLogger();
      const observer = countingObserver();
      const sql = withDeadlines(raw, { waitMs: 5_000, transactionMs: 300, permits: connectionsOf(raw), logger, observer });
      let handle: Sql | undefined;
      const started = performance.now();
      await assert.rejects(
        sql.transaction(async (tx) => {
          handle = tx;
          await tx.query('INSERT INTO notes VALUES (1, $1)', ['never committed']);
          await never(); // awaits something that never comes
        }),
        isUnavailable,
      );
      const took = performance.now() - started;
      assert.ok(took >= 290 && took < 5_000, `answered after ${took} ms`);
      assert.deepEqual(await sql.query('SELECT count(*)::int AS n FROM notes'), [{ n: 0 }], 'rolled back');
      await assert.rejects(handle!.query('INSERT INTO notes VALUES (2, $1)', ['late']), isUnavailable);
      assert.deepEqual(await sql.query('SELECT count(*)::int AS n FROM notes'), [{ n: 0 }], 'nothing written after the deadline');
      assert.equal(observer.timedOut.length, 1);
      assert.match(observer.timedOut[0]!, /database-deadlines\.test\.ts/);
      const logged = logger.lines.filter((l) => l.level === 'error');
      assert.equal(logged.length, 1);
      assert.match(String(logged[0]!.fields.transaction), /database-deadlines\.test\.ts/);
      assert.equal(typeof logged[0]!.fields.ageMs, 'number');
      assert.equal(sql.load().overdueTransactions, 0, 'its connection was given back');
    });
  });

  test(`${engine}: a call that waits for a connection past the wait limit answers 503 and never runs later`, async () => {
    await withTable(engine, async (raw) => {
      const observer = countingObserver();
      // One permit on both engines: the transaction below holds the only connection.
      const sql = withDeadlines(raw, { waitMs: 200, transactionMs: 5_000, permits: 1, logger: recordingLogger(), observer });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      const holder = sql.transaction(async (tx) => {
        await tx.query('SELECT 1');
        inside();
        await held;
      });
      await entered;
      const load = sql.load();
      assert.equal(load.inUse, 1);
      await assert.rejects(sql.query('INSERT INTO notes VALUES (1, $1)', ['refused']), isUnavailable);
      assert.equal(observer.waitTimeouts, 1);
      release();
      await holder;
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(await sql.query('SELECT count(*)::int AS n FROM notes'), [{ n: 0 }], 'the refused insert never ran');
      assert.equal(sql.load().waiting, 0);
    });
  });

  test(`${engine}: load() reports the oldest open transaction and one past its deadline still holding its connection`, async () => {
    await withTable(engine, async (raw) => {
      const sql = withDeadlines(raw, { waitMs: 5_000, transactionMs: 200, permits: connectionsOf(raw), logger: recordingLogger() });
      assert.equal(sql.load().oldestTransactionMs, 0);
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      // A statement the engine cannot give up at once: the connection stays busy past the deadline.
      const slow = sql.transaction(async (tx) => {
        inside();
        await tx.query(engine === 'postgres' ? 'SELECT pg_sleep(0.6)' : 'SELECT 1');
        await new Promise((resolve) => setTimeout(resolve, 600));
      });
      const refused = assert.rejects(slow, isUnavailable);
      await entered;
      await new Promise((resolve) => setTimeout(resolve, 350));
      await refused;
      const load = sql.load();
      if (engine === 'postgres') {
        // Its statement still runs: past its deadline, its connection not given back yet.
        assert.ok(load.oldestTransactionMs >= 300, `oldest ${load.oldestTransactionMs} ms`);
        assert.equal(load.overdueTransactions, 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(sql.load().oldestTransactionMs, 0, 'rolled back and gone');
    });
  });
}
