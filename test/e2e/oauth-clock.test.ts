// Lifetimes (spec "Limits", CONTRACT §3/§4) checked by moving the sandbox clock of a real
// server forward: codes 5 minutes, access tokens 3 hours, refresh tokens 21 days, the
// sign-in lock 15 minutes. The clock never goes back, so the tests run in order and each
// starts from wherever the previous one left the clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  UserAgent,
  authorize,
  authorizePath,
  bearerGet,
  exchangeCode,
  header,
  hiddenFieldsOf,
  pkcePair,
  refresh,
  startOAuthServer,
  type HttpResponse,
  type OAuthServer,
  type TokenPair,
} from '../support/oauth-client.ts';

const USER = { email: 'tim@clock.test', password: 'tim-password-1' };
const LOCKED = { email: 'lou@clock.test', password: 'lou-password-1' };
const REDIRECT = 'http://127.0.0.1:9/callback';
const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;

let server: OAuthServer;

before(async () => {
  server = await startOAuthServer();
  await server.seed({
    users: [USER, LOCKED].map((u) => ({ ...u, firstName: 'Clock', lastName: 'Test' })),
  });
});
after(() => server?.stop());

const json = (res: HttpResponse) => JSON.parse(res.body);
const issue = (): Promise<TokenPair> => server.operator('POST', '/tokens', { email: USER.email });

async function assertAccepted(token: string) {
  assert.equal((await bearerGet(server.http, '/api/isLogged', token)).status, 200);
  assert.equal((await bearerGet(server.http, '/api/2/values/permissions', token)).status, 200);
}

async function assertExpired(token: string) {
  const api1 = await bearerGet(server.http, '/api/isLogged', token);
  assert.equal(api1.status, 401, api1.body);
  assert.equal(json(api1).code, 'unauthorized');
  const api2 = await bearerGet(server.http, '/api/2/values/permissions', token);
  assert.equal(api2.status, 401, api2.body);
  assert.match(String(header(api2, 'content-type')), /^application\/problem\+json/);
  assert.equal(json(api2).errorCode, 'unauthorized');
  assert.equal(json(api2).status, 401);
}

test('the sandbox clock moves forward by advanceSeconds', async () => {
  const before = await server.operator('GET', '/clock');
  const after = await server.advanceClock(10);
  assert.ok(after.offsetSeconds >= before.offsetSeconds + 10);
  assert.ok(Date.parse(after.now) >= Date.parse(before.now) + 10_000);
});

test('codes expire after 5 minutes: a 4-minute-old code exchanges, a 5-minute-old one answers 400 invalid_grant', async () => {
  const a = pkcePair();
  const b = pkcePair();
  const codeA = (await authorize(server.http, { ...USER, redirectUri: REDIRECT, codeChallenge: a.challenge })).code!;
  const codeB = (await authorize(server.http, { ...USER, redirectUri: REDIRECT, codeChallenge: b.challenge })).code!;
  await server.advanceClock(4 * MINUTE);
  const ok = await exchangeCode(server.http, codeA, REDIRECT, a.verifier);
  assert.equal(ok.status, 200, ok.body);
  await server.advanceClock(MINUTE + 1);
  const late = await exchangeCode(server.http, codeB, REDIRECT, b.verifier);
  assert.equal(late.status, 400, late.body);
  assert.equal(json(late).error, 'invalid_grant');
});

let expired: TokenPair;

test('past 3 hours the access token answers 401 unauthorized on /api/isLogged and /api/2/values/permissions', async () => {
  const used = await issue();
  const unused = await issue();
  await assertAccepted(used.access_token);
  await server.advanceClock(3 * HOUR - 2 * MINUTE);
  await assertAccepted(used.access_token);
  await server.advanceClock(4 * MINUTE);
  await assertExpired(used.access_token); // verified before: the cached verification expires too
  await assertExpired(unused.access_token); // never seen: its signature checks, its exp does not
  expired = used;
});

test('a refresh token still works after its access token expired, and the new access token is accepted', async () => {
  const res = await refresh(server.http, expired.refresh_token);
  assert.equal(res.status, 200, res.body);
  await assertAccepted(json(res).access_token);
  await assertExpired(expired.access_token);
});

test('a refresh token works until 21 days, and past 21 days answers 401 {errorCode: unauthorized, error: invalid_grant}', async () => {
  const early = await issue();
  const late = await issue();
  await server.advanceClock(21 * DAY - HOUR);
  const ok = await refresh(server.http, early.refresh_token);
  assert.equal(ok.status, 200, ok.body);
  await server.advanceClock(2 * HOUR);
  const res = await refresh(server.http, late.refresh_token);
  assert.equal(res.status, 401, res.body);
  assert.equal(json(res).errorCode, 'unauthorized');
  assert.equal(json(res).error, 'invalid_grant');
  // The token issued an hour before the limit has its own 21 days.
  const next = await refresh(server.http, json(ok).refresh_token);
  assert.equal(next.status, 200, next.body);
  await assertAccepted(json(next).access_token);
});

test('the sign-in lock after 5 wrong passwords lifts after 15 minutes', async () => {
  const agent = new UserAgent(server.http);
  const page = await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'lock' }));
  const fields = hiddenFieldsOf(page.body);
  for (let i = 0; i < 5; i++) {
    const res = await agent.postForm('/oauth/login', { ...fields, email: LOCKED.email, password: 'wrong' });
    assert.equal(res.status, 401);
  }
  const locked = await agent.postForm('/oauth/login', { ...fields, ...LOCKED });
  assert.equal(locked.status, 429);
  const retryAfter = Number(header(locked, 'retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= 15 * MINUTE, String(retryAfter));
  await server.advanceClock(retryAfter - MINUTE);
  assert.equal((await agent.postForm('/oauth/login', { ...fields, ...LOCKED })).status, 429);
  await server.advanceClock(MINUTE + 1);
  const open = await agent.postForm('/oauth/login', { ...fields, ...LOCKED });
  assert.equal(open.status, 303, open.body);
});
