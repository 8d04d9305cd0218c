// The LISTEN connection's state in GET /readyz and GET /metrics (docs/operations.md
// "Cross-node invalidation"): while the connection is being replaced the node does not hear
// other nodes' changes, so it answers /readyz 503 with `listener: "reconnecting"`; the
// metrics show it up, and count the replacement. On the embedded database there is no
// listener: /readyz ignores it and the series are absent.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { sampleValue } from '../support/metrics-text.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

describe('the events listener in /readyz and /metrics', () => {
  let t: TestApp;
  /** The node's database, to find and end its LISTEN backend. */
  let sql: Sql;
  before(async () => {
    t = await testApp({}, { wrapSql: (s) => (sql = s) });
  });
  after(async () => {
    await t.close();
  });
  const readyz = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json() as { status: string; listener?: string } };
  };

  test('listener readiness rule: on the embedded database there is no listener, /readyz is ready and no listener series is exported', { skip: TEST_DATABASE_URL ? 'PGlite only' : false }, async () => {
    assert.equal((await readyz()).status, 200);
    const metrics = await t.core.metrics.text();
    assert.equal(sampleValue(metrics, 'scanbase_events_listener_up'), undefined);
  });

  test('listener readiness rule: a LISTEN connection being replaced makes /readyz 503 (listener: reconnecting) until it listens again; /metrics shows it and counts the replacement', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' }, async () => {
    assert.equal((await readyz()).status, 200);
    let metrics = await t.core.metrics.text();
    assert.equal(sampleValue(metrics, 'scanbase_events_listener_up'), 1);
    assert.equal(sampleValue(metrics, 'scanbase_events_listener_reconnects'), 0);

    // End the node's LISTEN backend from the server side: the connection is lost and replaced (after 500 ms).
    const sessions = await sql.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND (query LIKE 'LISTEN %' OR query = 'SELECT pg_notify($1, $2)')`,
    );
    assert.equal(sessions.length, 1, 'one LISTEN connection');
    await sql.query('SELECT pg_terminate_backend($1)', [sessions[0]!.pid]);
    const seen: { status: number; listener?: string }[] = [];
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const r = await readyz();
      seen.push({ status: r.status, listener: r.body.listener });
      if (seen.some((s) => s.status === 503) && r.status === 200) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(seen.some((s) => s.status === 503 && s.listener === 'reconnecting'), `503 while reconnecting: ${JSON.stringify(seen.slice(0, 5))}`);
    assert.equal(seen.at(-1)!.status, 200, 'ready again once it listens');
    metrics = await t.core.metrics.text();
    assert.equal(sampleValue(metrics, 'scanbase_events_listener_up'), 1);
    assert.equal(sampleValue(metrics, 'scanbase_events_listener_reconnects'), 1);
  });
});
