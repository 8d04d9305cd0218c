// API rate limits (docs/security.md "Rate limits"): per user and per address token
// buckets on API 2 and API 1 answer 429 with Retry-After, problem+json on API 2 and
// {code, message} on API 1; the address is charged before authentication; other users
// keep their own bucket; time refills; SANDBOX leaves them off unless configured.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { loadConfig } from '../../src/config.ts';

const users = ['ann', 'ben'].map((n) => ({ email: `${n}@limits.test`, password: `${n}-password-1`, firstName: n, lastName: 'Limits' }));

describe('with RATE_LIMIT_USER 1/s burst 3, RATE_LIMIT_ADDRESS 1/s burst 8', () => {
  let t: TestApp;
  const token: Record<string, string> = {};
  before(async () => {
    t = await testApp({ RATE_LIMIT_USER_RATE: '1', RATE_LIMIT_USER_BURST: '3', RATE_LIMIT_ADDRESS_RATE: '1', RATE_LIMIT_ADDRESS_BURST: '8' });
    await t.seed({ users });
    for (const u of users) token[u.email] = (await t.tokens(u.email)).access_token;
  });
  after(() => t?.close());

  const call = (url: string, who: string | null, ip: string) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: who ? { authorization: `Bearer ${token[who]}` } : {} });
  const moveClock = (seconds: number) =>
    t.app.inject({ method: 'POST', url: '/_operator/clock', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { advanceSeconds: seconds } });

  test('rate limits: the user limit answers 429 with Retry-After, problem+json on API 2 and {code,message} on API 1; another user is not affected', async () => {
    const ann = users[0]!.email;
    for (let i = 0; i < 3; i++) assert.equal((await call('/api/2/accounts', ann, '10.1.0.1')).statusCode, 200);
    const v2 = await call('/api/2/accounts', ann, '10.1.0.2');
    assert.equal(v2.statusCode, 429, v2.body);
    assert.equal(v2.headers['retry-after'], '1');
    assert.match(String(v2.headers['content-type']), /application\/problem\+json/);
    const p = v2.json();
    assert.equal(p.status, 429);
    assert.equal(p.title, 'Too Many Requests');
    assert.equal(p.errorCode, 'too-many-requests');
    const v1 = await call('/api/isLogged', ann, '10.1.0.3');
    assert.equal(v1.statusCode, 429);
    assert.equal(v1.headers['retry-after'], '1');
    assert.deepEqual(Object.keys(v1.json()).sort(), ['code', 'message']);
    assert.equal(v1.json().code, 'too-many-requests');
    assert.equal((await call('/api/2/accounts', users[1]!.email, '10.1.0.4')).statusCode, 200, 'ben has his own bucket');
    await moveClock(2);
    assert.equal((await call('/api/2/accounts', ann, '10.1.0.5')).statusCode, 200, 'refilled');
  });

  test('rate limits: the address limit counts requests before authentication (floods of bad tokens included)', async () => {
    for (let i = 0; i < 8; i++) assert.equal((await call('/api/2/accounts', null, '10.2.0.1')).statusCode, 401);
    const r = await call('/api/2/accounts', null, '10.2.0.1');
    assert.equal(r.statusCode, 429);
    assert.ok(Number(r.headers['retry-after']) >= 1);
    assert.equal((await call('/api/2/accounts', null, '10.2.0.2')).statusCode, 401, 'another address is not affected');
    assert.equal((await call('/healthz', null, '10.2.0.1')).statusCode, 200, 'only API 1, API 2 and /connect are limited');
  });

  test('rate limits: /connect/* is limited like the APIs, per address before authentication and per user after it (problem+json 429)', async () => {
    for (let i = 0; i < 8; i++) assert.equal((await call('/connect/no-such-job', null, '10.3.0.1')).statusCode, 401);
    const flood = await call('/connect/no-such-job', null, '10.3.0.1');
    assert.equal(flood.statusCode, 429, flood.body);
    assert.ok(Number(flood.headers['retry-after']) >= 1);
    assert.match(String(flood.headers['content-type']), /application\/problem\+json/);
    assert.equal(flood.json().errorCode, 'too-many-requests');
    await moveClock(10);
    const ben = users[1]!.email;
    for (let i = 0; i < 3; i++) assert.equal((await call('/connect/no-such-job', ben, `10.3.1.${i}`)).statusCode, 404);
    const over = await call('/connect/no-such-job', ben, '10.3.1.9');
    assert.equal(over.statusCode, 429, over.body);
    assert.equal(over.json().errorCode, 'too-many-requests');
  });
});

test('rate limits: defaults are on (20/s burst 200 per user, 50/s burst 500 per address) and off in SANDBOX unless set', () => {
  const plain = loadConfig({}).rateLimits;
  assert.deepEqual(plain.user, { rate: 20, burst: 200 });
  assert.deepEqual(plain.address, { rate: 50, burst: 500 });
  const sandbox = loadConfig({ SANDBOX: '1' }).rateLimits;
  assert.equal(sandbox.user.rate, 0);
  assert.equal(sandbox.address.rate, 0);
  assert.equal(loadConfig({ SANDBOX: '1', RATE_LIMIT_USER_RATE: '5' }).rateLimits.user.rate, 5);
  assert.throws(() => loadConfig({ RATE_LIMIT_USER_BURST: '0' }), /RATE_LIMIT_USER_BURST/);
  assert.throws(() => loadConfig({ RATE_LIMIT_SYNC_SECONDS: 'x' }), /RATE_LIMIT_SYNC_SECONDS/);
  assert.throws(() => loadConfig({ BODY_TIMEOUT: '0' }), /BODY_TIMEOUT/);
  assert.throws(() => loadConfig({ MAX_CONNECTIONS: '-1' }), /MAX_CONNECTIONS/);
});
