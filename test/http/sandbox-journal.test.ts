// The request journal (docs/sandbox.md "The request journal"): the operator token guards it
// (404 without OPERATOR_TOKEN or with JOURNAL_SIZE=0, 401 without the token), each request
// is one entry (method, path, operationId, user, status, duration), every refusal says which
// rule refused it (the schema path, the permission, the limit), nothing secret is kept, the
// filters select, a follower waits for the next entry, and the ring keeps the last N.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let t: TestApp;
let olivia: { access_token: string; user_id: string };
let mark: { access_token: string; user_id: string };
let SUB: string;

before(async () => {
  t = await testApp({ JOURNAL_SIZE: '50' });
  const seeded = await t.seed(BASIC_SEED);
  SUB = `/api/2/accounts/${seeded.accounts[0].id}/subscriptions/${seeded.accounts[0].subscriptions[0].id}`;
  // The journal names users by id (the tokens answer a URN).
  const byId = (x: { access_token: string; user_id: string }) => ({ ...x, user_id: x.user_id.slice(x.user_id.lastIndexOf(':') + 1) });
  olivia = byId(await t.tokens('olivia@acme.test'));
  mark = byId(await t.tokens('mark@acme.test'));
});
after(() => t.close());

const journal = async (query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/_operator/journal${query}`, headers: OP });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { entries: any[]; last: number };
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

test('the journal needs the operator token: 401 without or with a wrong one', async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong-operator-token-of-24-chars' }]) {
    for (const [method, url] of [['GET', '/_operator/journal'], ['DELETE', '/_operator/journal']] as const) {
      const res = await t.app.inject({ method, url, headers });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
      assert.equal(res.json().errorCode, 'unauthorized');
    }
  }
});

test('each request is one entry: method, path without its query, operationId, user, status, duration', async () => {
  const { last } = await journal();
  const res = await t.app.inject({ method: 'GET', url: '/api/2/accounts?x=secret-code', headers: bearer(olivia.access_token) });
  assert.equal(res.statusCode, 200);
  const { entries } = await journal(`?after=${last}`);
  assert.equal(entries.length, 1, JSON.stringify(entries));
  const e = entries[0];
  assert.equal(e.method, 'GET');
  assert.equal(e.path, '/api/2/accounts');
  assert.equal(e.operationId, 'getAccounts');
  assert.equal(e.surface, 'api2');
  assert.equal(e.user, olivia.user_id);
  assert.equal(e.status, 200);
  assert.equal(e.errorCode, null);
  assert.equal(e.refusal, null);
  assert.ok(typeof e.durationMs === 'number' && e.durationMs >= 0);
  assert.ok(Date.parse(e.at) > Date.now() - 60_000);
});

test('a schema refusal names the field and what the schema expects', async () => {
  const { last } = await journal();
  const res = await t.app.inject({ method: 'PATCH', url: SUB, headers: bearer(olivia.access_token), payload: { name: 'x', colour: 'red' } });
  assert.equal(res.statusCode, 400);
  const [e] = (await journal(`?after=${last}`)).entries;
  assert.equal(e.errorCode, 'invalid-input');
  assert.equal(e.operationId, 'updateSubscription');
  assert.deepEqual(e.refusal, { rule: 'schema', field: 'body.colour', expected: 'must NOT have additional properties' });
});

test('a permission refusal names the permission missing and the roles that grant it', async () => {
  const { last } = await journal();
  const res = await t.app.inject({ method: 'PATCH', url: SUB, headers: bearer(mark.access_token), payload: { name: 'Mine' } });
  assert.equal(res.statusCode, 403);
  const body = res.json();
  const [e] = (await journal(`?after=${last}`)).entries;
  assert.equal(e.status, 403);
  assert.equal(e.user, mark.user_id);
  assert.equal(e.errorCode, body.errorCode);
  assert.equal(e.refusal.rule, 'permission');
  assert.deepEqual(e.refusal.requiredPermissions, body.errorValues.requiredPermissions);
  assert.ok(e.refusal.requiredPermissions.length > 0);
  assert.equal(e.detail, body.detail);
});

test('an authentication refusal is marked so; no token, password or invitation secret is kept', async () => {
  const { last } = await journal();
  await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: bearer('not-a-valid-token-but-a-secret') });
  await t.app.inject({ method: 'GET', url: '/invitations/secret-invitation-token-123' });
  await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'password', username: 'olivia@acme.test', password: 'olivia-password-1' } });
  const { entries } = await journal(`?after=${last}`);
  assert.equal(entries.length, 3);
  assert.deepEqual(entries[0].refusal, { rule: 'authentication' });
  assert.equal(entries[1].path, '/invitations/[redacted]');
  const text = JSON.stringify(entries);
  for (const secret of ['not-a-valid-token-but-a-secret', 'secret-invitation-token-123', 'olivia-password-1', olivia.access_token, OPERATOR_TOKEN]) {
    assert.ok(!text.includes(secret), `no ${secret.slice(0, 10)}… in the journal`);
  }
});

test('the filters select by user, status class, operationId, method and path; operator calls are not journaled', async () => {
  const { last } = await journal();
  await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: bearer(mark.access_token) });
  await t.app.inject({ method: 'PATCH', url: SUB, headers: bearer(mark.access_token), payload: { name: 'Mine' } });
  await t.app.inject({ method: 'GET', url: '/api/isLogged', headers: bearer(olivia.access_token) });
  const from = `after=${last}`;
  assert.deepEqual((await journal(`?${from}&user=${mark.user_id}`)).entries.map((e) => e.status), [200, 403]);
  assert.deepEqual((await journal(`?${from}&status=4xx`)).entries.map((e) => e.operationId), ['updateSubscription']);
  assert.deepEqual((await journal(`?${from}&status=200`)).entries.map((e) => e.path), ['/api/2/accounts', '/api/isLogged']);
  assert.deepEqual((await journal(`?${from}&operationId=isLogged`)).entries.map((e) => e.surface), ['api1']);
  assert.deepEqual((await journal(`?${from}&method=patch`)).entries.length, 1);
  assert.deepEqual((await journal(`?${from}&path=/api/2/`)).entries.length, 2);
  assert.ok((await journal()).entries.every((e) => !e.path.startsWith('/_operator')));
  const bad = await t.app.inject({ method: 'GET', url: '/_operator/journal?status=four', headers: OP });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().errorValues.field, 'querystring.status');
});

test('a follower waits for the next entry (wait=N), and gets nothing after N seconds of silence', async () => {
  const { last } = await journal();
  const waiting = journal(`?after=${last}&wait=10`);
  setTimeout(() => void t.app.inject({ method: 'GET', url: '/api/isLogged', headers: bearer(olivia.access_token) }), 100);
  const { entries } = await waiting;
  assert.equal(entries.length, 1);
  assert.equal(entries[0].operationId, 'isLogged');
  const started = Date.now();
  const quiet = await journal(`?after=${entries[0].seq}&wait=0.3`);
  assert.equal(quiet.entries.length, 0);
  assert.ok(Date.now() - started >= 290);
});

test('the journal keeps the last JOURNAL_SIZE requests; JOURNAL_SIZE=0 or no OPERATOR_TOKEN: no journal (404)', async () => {
  const small = await testApp({ JOURNAL_SIZE: '3' });
  try {
    for (let i = 0; i < 5; i++) await small.app.inject({ method: 'GET', url: `/api/isLogged?i=${i}` });
    const res = await small.app.inject({ method: 'GET', url: '/_operator/journal', headers: OP });
    assert.deepEqual(res.json().entries.map((e: any) => e.seq), [3, 4, 5]);
    await small.app.inject({ method: 'DELETE', url: '/_operator/journal', headers: OP });
    assert.deepEqual((await small.app.inject({ method: 'GET', url: '/_operator/journal', headers: OP })).json(), { entries: [], last: 5 });
  } finally {
    await small.close();
  }
  for (const env of [{ JOURNAL_SIZE: '0' }, { OPERATOR_TOKEN: '' }] as Record<string, string>[]) {
    const off = await testApp(env);
    try {
      const res = await off.app.inject({ method: 'GET', url: '/_operator/journal', headers: OP });
      assert.equal(res.statusCode, 404, JSON.stringify(env));
      assert.equal(res.json().errorCode, 'route-not-found');
    } finally {
      await off.close();
    }
  }
});
