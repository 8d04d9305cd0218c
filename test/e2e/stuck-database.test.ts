// A database that stops answering (issue 25, items 2 and 5), as only PostgreSQL can show it
// from outside the process: another session holds an exclusive lock on the users table, so
// every statement that reads users waits. A request then answers 503 database-unavailable in
// its API's format within the statement deadline instead of hanging, /readyz keeps answering
// within 2 s, the node serves again once the lock goes, and SIGTERM with requests stuck
// behind the lock ends the process within the drain time plus 5 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';
import { startServer } from '../support/server.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';

const skip = TEST_DATABASE_URL ? false : 'PostgreSQL only (TEST_DATABASE_URL): a lock held by another session';

async function timedFetch(url: string, init: RequestInit = {}) {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const body = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body, ms: performance.now() - started };
}

test('a locked table: requests answer 503 in their API format within the statement deadline, /readyz within 2 s, and SIGTERM ends the process within drain + 5 s', { skip }, async () => {
  const db = await freshPostgresUrl(TEST_DATABASE_URL!);
  const server = await startServer({
    DATABASE_URL: db.url, OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1',
    DB_STATEMENT_TIMEOUT: '2', SHUTDOWN_DRAIN_SECONDS: '1',
  });
  const holder = new pg.Client({ connectionString: db.url });
  try {
    const op = { authorization: `Bearer ${E2E_OPERATOR_TOKEN}`, 'content-type': 'application/json' };
    await fetch(`${server.url}/_operator/seed`, { method: 'POST', headers: op, body: JSON.stringify({ users: [{ email: 'olivia@acme.test', password: 'olivia-password-1' }] }) });
    const pair = JSON.parse((await timedFetch(`${server.url}/_operator/tokens`, { method: 'POST', headers: op, body: JSON.stringify({ email: 'olivia@acme.test' }) })).body);

    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');

    const api2 = await timedFetch(`${server.url}/_operator/tokens`, { method: 'POST', headers: op, body: JSON.stringify({ email: 'olivia@acme.test' }) });
    assert.equal(api2.status, 503, api2.body);
    assert.match(api2.type, /application\/problem\+json/);
    assert.equal(JSON.parse(api2.body).errorCode, 'database-unavailable');
    assert.ok(api2.ms < 8_000, `answered after ${api2.ms} ms`);
    // A token endpoint call behind the same lock: RFC 6749's format.
    const refreshed = await timedFetch(`${server.url}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: pair.refresh_token }).toString(),
    });
    assert.equal(refreshed.status, 503, refreshed.body);
    assert.equal(JSON.parse(refreshed.body).error, 'server_error');
    const ready = await timedFetch(`${server.url}/readyz`);
    assert.ok(ready.ms < 2_000, `/readyz answered after ${ready.ms} ms`);

    await holder.query('ROLLBACK');
    const again = await timedFetch(`${server.url}/api/isLogged`, { headers: { authorization: `Bearer ${pair.access_token}` } });
    assert.equal(again.status, 200, again.body);

    // Stuck again, with requests waiting behind the lock, then SIGTERM.
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
    const stuck = Array.from({ length: 3 }, () =>
      fetch(`${server.url}/_operator/tokens`, { method: 'POST', headers: op, body: JSON.stringify({ email: 'olivia@acme.test' }) }).then((r) => r.status, () => 0));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    const took = performance.now() - signalled;
    assert.ok(took < 1_000 + 5_000 + 1_500, `the process ended ${Math.round(took)} ms after SIGTERM`);
    await Promise.all(stuck);
  } finally {
    await holder.end();
    await server.stop();
    await db.drop();
  }
});
