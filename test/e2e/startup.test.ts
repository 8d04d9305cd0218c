// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// `npm start` as an operator runs it (CONTRACT §1): a real server process on embedded
// PGlite under DATA_DIR; bad configuration stops it naming the variable; one server
// per DATA_DIR; SEED_FILE applied at every start without changing anything the second
// time; one JSON log line per request, never a token.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, freePort, runServerToExit as runToExit, type RunningServer } from '../support/server.ts';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';
import { VERSION } from '../../src/version.ts';

const OPERATOR_TOKEN = 'e2e-operator-token-secret';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-startup-'));
const running: RunningServer[] = [];
after(async () => {
  for (const s of running) await s.kill();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}, dataDir?: string): Promise<RunningServer> {
  const s = await startServer(env, { dataDir: dataDir ?? fs.mkdtempSync(path.join(tmp, 'data-')) });
  running.push(s);
  return s;
}

const SEED = {
  users: [
    { id: '5b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d51', email: 'olivia@acme.test', password: 'olivia-password-1', firstName: 'Olivia' },
    { email: 'mark@acme.test', password: 'mark-password-1' },
  ],
  accounts: [
    {
      name: 'Acme',
      owner: 'olivia@acme.test',
      administrators: ['mark@acme.test'],
      subscriptions: [{ name: 'Pro', scanCapacity: 500, start: '2026-01-01T00:00:00Z' }],
      roles: [{ name: 'Surveyor', legacyPermissions: ['view3d', 'upload'] }],
      groups: [{ name: 'Field team', users: ['mark@acme.test'] }],
    },
  ],
};

// One server for the start-up and the one-server-per-DATA_DIR checks (each start costs seconds).
let primary: RunningServer;

test('the entry point starts on embedded PGlite under DATA_DIR and answers /healthz {status: "ok", version}', async () => {
  primary = await start();
  const res = await fetch(`${primary.url}/healthz`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ok', version: VERSION });
  assert.equal(res.headers.get('x-scanbase-version'), VERSION);
  assert.ok(fs.statSync(path.join(primary.dataDir, 'pglite')).isDirectory(), 'the database lives in DATA_DIR/pglite');
  assert.equal(fs.readFileSync(path.join(primary.dataDir, 'pglite.lock'), 'utf8'), String(primary.child.pid));
});

test('in production (NODE_ENV=production) an unset STORAGE_QUOTA_BYTES is a start-up warning', async () => {
  const s = await start({ NODE_ENV: 'production' });
  const warning = s.logs().split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.setting === 'STORAGE_QUOTA_BYTES');
  assert.ok(warning, s.logs());
  assert.equal(warning.level, 40, 'logged at warn');
  assert.equal(warning.storageQuotaBytes, 100 * 1024 ** 3);
  await s.stop();
});

test('a bad environment value stops the process with a non-zero exit and a message naming the variable', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PUBLIC_URL: 'ftp://scan.example.com' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://db/scan' }, 'DATABASE_URL'],
    [{ SANDBOX: 'maybe' }, 'SANDBOX'],
    [{ URN_NAMESPACE: 'Not Valid' }, 'URN_NAMESPACE'],
  ];
  const results = await Promise.all(cases.map(([env]) => runToExit({ DATA_DIR: path.join(tmp, 'never'), ...env })));
  for (const [i, { code, output }] of results.entries()) {
    const [env, variable] = cases[i]!;
    assert.notEqual(code, 0, JSON.stringify(env));
    assert.match(output, new RegExp(`scanbase: ${variable}=`), `${JSON.stringify(env)}:\n${output}`);
    assert.ok(!/\n\s+at /.test(output), `a message, not a stack trace:\n${output}`);
  }
  assert.equal(fs.existsSync(path.join(tmp, 'never')), false, 'nothing was created');
});

test('a second server on the same DATA_DIR refuses to start with a clear message; the first keeps serving', async () => {
  const first = primary;
  const { code, output } = await runToExit({ DATA_DIR: first.dataDir, PORT: String(await freePort()) });
  assert.notEqual(code, 0);
  assert.match(output, /scanbase: The database directory .* is in use by process \d+/);
  assert.ok(output.includes(String(first.child.pid)), output);
  assert.ok(output.includes(first.dataDir), output);
  assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
  assert.equal(fs.readFileSync(path.join(first.dataDir, 'pglite.lock'), 'utf8'), String(first.child.pid), 'the lock is still the first');
});

test('SIGTERM stops the server cleanly and releases DATA_DIR', async () => {
  await primary.stop();
  assert.equal(primary.child.exitCode, 0);
  assert.equal(fs.existsSync(path.join(primary.dataDir, 'pglite.lock')), false);
});

/** The seeded rows, read straight from the data directory (the server must be stopped). */
async function rows(dataDir: string) {
  const sql = await openPglite(path.join(dataDir, 'pglite'));
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of ['users', 'accounts', 'account_members', 'subscriptions', 'roles', 'groups', 'group_members']) {
      out[table] = await sql.query(`SELECT * FROM ${table} ORDER BY 1, 2`);
    }
    return out;
  } finally {
    await sql.close();
  }
}

test('SEED_FILE is applied at start, and again at restart (even after a crash) without changing anything', async () => {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'seeded-'));
  const seedFile = path.join(tmp, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(SEED));
  const env = { SEED_FILE: seedFile, OPERATOR_TOKEN };

  const first = await start(env, dataDir);
  const tokens = await fetch(`${first.url}/_operator/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'olivia@acme.test' }),
  });
  assert.equal(tokens.status, 200, 'the seeded user exists');
  assert.equal((await tokens.json()).user_id, `urn:svc:user:${SEED.users[0]!.id}`);
  await first.stop();
  const before = await rows(dataDir);
  assert.equal(before.users!.length, 2);
  assert.equal(before.accounts!.length, 1);
  assert.equal(before.subscriptions!.length, 1);

  // Restart, then crash: the stale lock is taken over by the next start.
  const second = await start(env, dataDir);
  await second.kill();
  const third = await start(env, dataDir);
  assert.equal((await fetch(`${third.url}/healthz`)).status, 200);
  await third.stop();

  assert.deepEqual(await rows(dataDir), before, 'no row changed, updated_at included');
});

test('the log has one JSON line per request and never an access, refresh or operator token', async () => {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'logs-'));
  const seedFile = path.join(tmp, 'seed-logs.json');
  fs.writeFileSync(seedFile, JSON.stringify(SEED));
  const s = await start({ SEED_FILE: seedFile, OPERATOR_TOKEN, LOG_LEVEL: 'info' }, dataDir);
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${s.url}${p}`, { headers });
  const op = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' };

  const issued = await fetch(`${s.url}/_operator/tokens`, { method: 'POST', headers: op, body: JSON.stringify({ email: 'mark@acme.test' }) });
  assert.equal(issued.status, 200);
  const pair = (await issued.json()) as { access_token: string; refresh_token: string };
  const bearer = { authorization: `Bearer ${pair.access_token}` };

  const requests: [string, Promise<Response>][] = [
    ['/api/isLogged', get('/api/isLogged', bearer)],
    ['/api/2/values/permissions', get(`/api/2/values/permissions?access_token=${pair.access_token}`, bearer)],
    ['/api/2/no-such-route', get('/api/2/no-such-route', bearer)],
    ['/api/2/%zz', get('/api/2/%zz', bearer)], // undecodable: answered outside the route hooks
    ['/_operator/outbox', get('/_operator/outbox', { authorization: `Bearer ${OPERATOR_TOKEN}` })],
    ['/_operator/clock', get('/_operator/clock', { authorization: 'Bearer wrong-operator-token' })],
    ['/oauth/authorize', get(`/oauth/authorize?redirect_uri=%2F&state=abc&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`)],
    [
      '/oauth/token',
      fetch(`${s.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: pair.refresh_token }),
      }),
    ],
  ];
  const statuses = await Promise.all(requests.map(async ([, r]) => (await r).status));
  assert.deepEqual(statuses, [200, 200, 404, 400, 200, 401, 200, 200]);
  const refreshed = await (await requests[7]![1]).json().catch(() => null);
  await s.stop();

  const lines = s.logs().split('\n').filter((l) => l.trim());
  const json = lines.map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      assert.fail(`a log line that is not JSON: ${l}`);
    }
  });
  const requestLines = json.filter((l) => l.msg === 'request');
  for (const [p] of [['/_operator/tokens'], ...requests]) {
    const mine = requestLines.filter((l) => l.path === p);
    assert.equal(mine.length, 1, `one line for ${p}`);
    assert.equal(typeof mine[0]!.status, 'number');
    assert.equal(typeof mine[0]!.method, 'string');
  }

  const log = s.logs();
  const secrets = [OPERATOR_TOKEN, pair.access_token, pair.refresh_token, 'olivia-password-1', 'mark-password-1'];
  if (refreshed?.access_token) secrets.push(refreshed.access_token, refreshed.refresh_token);
  for (const secret of secrets) assert.ok(!log.includes(secret), `the log contains a secret (${secret.slice(0, 12)}…)`);
  // Nor a recognisable fragment of the JWT (its signature part).
  assert.ok(!log.includes(pair.access_token.split('.')[2]!));
});
