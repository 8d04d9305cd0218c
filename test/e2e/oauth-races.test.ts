// Single-use rules under concurrency, against a real server on PostgreSQL (a real pool
// of connections, so requests really overlap): of N concurrent uses of one refresh token
// or one code, exactly one succeeds; sign-in throttling holds on one node and across
// three. Skipped without TEST_DATABASE_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { startServer } from '../support/server.ts';
import {
  E2E_OPERATOR_TOKEN,
  UserAgent,
  fetchTransport,
  authorize,
  authorizePath,
  hiddenFieldsOf,
  exchangeCode,
  pkcePair,
  refresh,
  startOAuthServer,
  type HttpResponse,
  type OAuthServer,
  type TokenPair,
} from '../support/oauth-client.ts';

const SKIP = TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)';
const USER = { email: 'rachel@race.test', password: 'rachel-password-1' };
const GUESSED = { email: 'gus@race.test', password: 'gus-password-1' };
const GUESSED_ON_NODES = { email: 'nina@race.test', password: 'nina-password-1' };
const REDIRECT = 'http://127.0.0.1:9/callback';

let server: OAuthServer;
let db: pg.Client;
let userId: string;

before(async () => {
  if (SKIP) return;
  server = await startOAuthServer({ postgres: true });
  const seeded = await server.seed({ users: [USER, GUESSED, GUESSED_ON_NODES].map((u) => ({ ...u, firstName: 'Race', lastName: 'Test' })) });
  userId = seeded.users[0].id;
  db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await server?.stop();
});

const json = (res: HttpResponse) => JSON.parse(res.body);
const issue = (): Promise<TokenPair> => server.operator('POST', '/tokens', { email: USER.email });
const refreshRows = async () =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1', [userId])).rows[0]!.n;
const validRows = async () =>
  (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM refresh_tokens
       WHERE user_id = $1 AND consumed_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
      [userId],
    )
  ).rows[0]!.n;

test('50 concurrent refreshes of one refresh token: exactly one 200, the rest 401 {errorCode: unauthorized, error: invalid_grant}', { skip: SKIP }, async () => {
  const pair = await issue();
  const rowsBefore = await refreshRows();
  const results = await Promise.all(Array.from({ length: 50 }, () => refresh(server.http, pair.refresh_token)));
  const ok = results.filter((r) => r.status === 200);
  assert.equal(ok.length, 1, `statuses: ${results.map((r) => r.status).join(',')}`);
  for (const r of results.filter((x) => x.status !== 200)) {
    assert.equal(r.status, 401, r.body);
    assert.equal(json(r).errorCode, 'unauthorized');
    assert.equal(json(r).error, 'invalid_grant');
  }
  // One new refresh token was issued, not fifty; and it works.
  assert.equal(await refreshRows(), rowsBefore + 1);
  assert.equal((await refresh(server.http, json(ok[0]!).refresh_token)).status, 200);
});

test('the race holds round after round along a rotation chain', { skip: SKIP }, async () => {
  let token = (await issue()).refresh_token;
  for (let round = 0; round < 5; round++) {
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(server.http, token)));
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok.length, 1, `round ${round}: ${results.map((r) => r.status).join(',')}`);
    assert.ok(results.every((r) => r.status === 200 || r.status === 401));
    token = json(ok[0]!).refresh_token;
  }
});

test('concurrent exchanges of one code: exactly one 200, the rest 400 invalid_grant', { skip: SKIP }, async () => {
  const { verifier, challenge } = pkcePair();
  const r = await authorize(server.http, { ...USER, redirectUri: REDIRECT, codeChallenge: challenge });
  const rowsBefore = await refreshRows();
  const results = await Promise.all(Array.from({ length: 30 }, () => exchangeCode(server.http, r.code!, REDIRECT, verifier)));
  const ok = results.filter((x) => x.status === 200);
  assert.equal(ok.length, 1, `statuses: ${results.map((x) => x.status).join(',')}`);
  for (const x of results.filter((y) => y.status !== 200)) {
    assert.equal(x.status, 400, x.body);
    assert.equal(json(x).error, 'invalid_grant');
  }
  assert.equal(await refreshRows(), rowsBefore + 1);
});

test('concurrent issuance never leaves more than 10 valid refresh tokens for a user', { skip: SKIP }, async () => {
  const pairs = await Promise.all(Array.from({ length: 30 }, () => issue()));
  assert.equal(new Set(pairs.map((p) => p.refresh_token)).size, 30);
  assert.equal(await validRows(), 10);
});

test('concurrent refreshes of 10 distinct tokens of one user all succeed (no deadlock) and 10 stay valid', { skip: SKIP }, async () => {
  const pairs: TokenPair[] = [];
  for (let i = 0; i < 10; i++) pairs.push(await issue());
  assert.equal(await validRows(), 10);
  const results = await Promise.all(pairs.map((p) => refresh(server.http, p.refresh_token)));
  assert.deepEqual(
    results.map((r) => r.status),
    Array(10).fill(200),
    results.map((r) => r.body).join('\n'),
  );
  assert.equal(await validRows(), 10);
  // Exactly the new ones are valid.
  for (const r of results) assert.equal((await refresh(server.http, json(r).refresh_token)).status, 200);
});

test('30 concurrent wrong passwords for one account: at most 5 guesses are checked, the rest answer 429', { skip: SKIP }, async () => {
  const agent = new UserAgent(server.http);
  const fields = hiddenFieldsOf((await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'guess' }))).body);
  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) => agent.postForm('/oauth/login', { ...fields, email: GUESSED.email, password: `guess-${i}` })),
  );
  const statuses = results.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
  assert.equal(statuses.filter((s) => s === 429).length, 25, statuses.join(','));
  const rows = await db.query<{ failures: number }>('SELECT failures FROM login_throttle WHERE key = $1', [`account:${GUESSED.email}`]);
  assert.equal(rows.rows[0]?.failures, 5);
});

test('30 concurrent wrong passwords spread over three nodes (processes): at most 5 are checked, the rest answer 429', { skip: SKIP }, async () => {
  const env = { DATABASE_URL: server.databaseUrl!, OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1' };
  const others = await Promise.all([startServer(env), startServer(env)]);
  try {
    const nodes = [server.http, ...others.map((o) => fetchTransport(o.url))];
    // The form comes from one node; its cookie and token are good on every node.
    const first = new UserAgent(nodes[0]!);
    const fields = hiddenFieldsOf((await first.get(authorizePath({ redirectUri: REDIRECT, state: 'nodes' }))).body);
    const agents = nodes.map((n) => {
      const a = new UserAgent(n);
      for (const [k, v] of first.cookies) a.cookies.set(k, v);
      return a;
    });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        agents[i % agents.length]!.postForm('/oauth/login', { ...fields, email: GUESSED_ON_NODES.email, password: `guess-${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 25, statuses.join(','));
    const rows = await db.query<{ failures: number }>('SELECT failures FROM login_throttle WHERE key = $1', [`account:${GUESSED_ON_NODES.email}`]);
    assert.equal(rows.rows[0]?.failures, 5);
    // The right password, on any node, is refused while the lock lasts.
    for (const a of agents) assert.equal((await a.postForm('/oauth/login', { ...fields, ...GUESSED_ON_NODES })).status, 429);
  } finally {
    await Promise.all(others.map((o) => o.stop()));
    for (const o of others) fs.rmSync(o.dataDir, { recursive: true, force: true });
  }
});
