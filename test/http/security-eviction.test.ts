// Evicting every session of a user (docs/security.md "Evicting every session", issue 26
// item 1): a password reset (by link or by the administration command) and "sign out
// everywhere" (API 2 and the account page) end, in their transaction, the user's browser
// sessions, refresh tokens and unused codes, and move his revocation point: access tokens
// issued before it are refused from the next request. A token issued after it (even in
// the same second) works; the bearer hot path stays without a query once cached.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import {
  UserAgent, authorize, authorizePath, bearerGet, exchangeCode, hiddenFieldsOf, injectTransport, pkcePair, refresh,
  type Transport,
} from '../support/oauth-client.ts';
import { queryLog } from '../support/query-counter.ts';
import { createAdmin } from '../../src/modules/operator/index.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
const users = ['vic', 'val', 'ann', 'bea', 'cal'].map((n) => ({ email: `${n}@evict.test`, password: `${n}-password-1`, firstName: n, lastName: 'Evict' }));
const [vic, val, ann, bea, cal] = users as [typeof users[0], typeof users[0], typeof users[0], typeof users[0], typeof users[0]];

const log = queryLog();
let t: TestApp;
let http: Transport;
before(async () => {
  t = await testApp({}, { wrapSql: log.wrapSql });
  http = injectTransport(t.app);
  await t.seed({ users });
});
after(() => t?.close());

/** A browser signed in through the authorize pages (its session cookie), a token pair and a second code it got there. */
async function attackerOf(u: { email: string; password: string }) {
  const agent = new UserAgent(http);
  const { verifier, challenge } = pkcePair();
  const first = await authorize(http, { agent, email: u.email, password: u.password, redirectUri: REDIRECT, codeChallenge: challenge });
  const pair = JSON.parse((await exchangeCode(http, first.code!, REDIRECT, verifier)).body);
  const second = pkcePair();
  const spare = await authorize(http, { agent, email: u.email, password: u.password, redirectUri: REDIRECT, codeChallenge: second.challenge });
  assert.equal((await bearerGet(http, '/api/isLogged', pair.access_token)).status, 200, 'the stolen token works before');
  return { agent, access: pair.access_token as string, refreshToken: pair.refresh_token as string, spareCode: spare.code!, spareVerifier: second.verifier };
}

type Attacker = Awaited<ReturnType<typeof attackerOf>>;

/** Everything the attacker held is refused: the browser session, the access and refresh tokens, the unused code. */
async function assertEvicted(a: Attacker) {
  assert.equal((await bearerGet(http, '/api/isLogged', a.access)).status, 401, 'the access token from before');
  assert.equal((await bearerGet(http, '/api/2/accounts', a.access)).status, 401, 'on API 2 too');
  assert.equal((await refresh(http, a.refreshToken)).status, 401, 'the refresh token from before');
  const code = await exchangeCode(http, a.spareCode, REDIRECT, a.spareVerifier);
  assert.equal(code.status, 400, code.body);
  assert.equal(JSON.parse(code.body).error, 'invalid_grant', 'the code approved before');
  const page = await a.agent.get(authorizePath({ redirectUri: REDIRECT, state: 'again' }));
  assert.equal(page.status, 200);
  assert.match(page.body, /action="\/oauth\/login"/, 'the browser session from before no longer reaches the approval page');
  const allow = await a.agent.postForm('/oauth/authorize', { ...hiddenFieldsOf(page.body), redirect_uri: REDIRECT, state: 'again', decision: 'allow' });
  assert.equal(allow.status, 403, 'and cannot approve a code');
}

/** A token pair obtained after the eviction, right away (the same second), works. */
async function assertFreshSignInWorks(email: string, password: string) {
  const { verifier, challenge } = pkcePair();
  const r = await authorize(http, { email, password, redirectUri: REDIRECT, codeChallenge: challenge });
  const pair = JSON.parse((await exchangeCode(http, r.code!, REDIRECT, verifier)).body);
  assert.equal((await bearerGet(http, '/api/isLogged', pair.access_token)).status, 200, 'a token issued after the eviction');
  assert.equal((await refresh(http, pair.refresh_token)).status, 200);
}

async function outboxLink(to: string, pattern: RegExp): Promise<string> {
  await t.core.jobRunner.drain();
  const res = await t.app.inject({ method: 'GET', url: '/_operator/outbox', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const mail = (res.json() as { to: string; links: string[] }[]).find((m) => m.to === to && m.links.some((l) => pattern.test(l)));
  assert.ok(mail, `a mail to ${to}`);
  return new URL(mail.links.find((l) => pattern.test(l))!).pathname;
}

describe('a password reset evicts an attacker', () => {
  test('eviction: a reset through the e-mailed link ends the browser session, access and refresh tokens and codes from before it', async () => {
    const attacker = await attackerOf(vic);
    const form = await t.app.inject({ method: 'GET', url: '/forgot-password' });
    const cookie = String(form.headers['set-cookie']).split(';')[0]!;
    const asked = await t.app.inject({
      method: 'POST', url: '/forgot-password', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf: hiddenFieldsOf(form.body).csrf!, email: vic.email }).toString(),
    });
    assert.equal(asked.statusCode, 200, asked.body);
    const link = await outboxLink(vic.email, /\/password-reset\//);
    const newPassword = 'vic-new-password-2';
    const done = await t.app.inject({
      method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password: newPassword, confirm: newPassword }).toString(),
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /id="signed-out-everywhere"/, 'the page after the reset says every session ended');
    // …and leads to the console, which then offers "Sign out everywhere" (test/e2e/console-account.test.ts).
    assert.match(done.body, /<a id="open-console" href="\/console\/\?after=password-reset">/);
    await assertEvicted(attacker);
    await assertFreshSignInWorks(vic.email, newPassword);
  });

  test('eviction: the administration command\'s reset-password ends every session too', async () => {
    const attacker = await attackerOf(val);
    const admin = createAdmin({ store: t.core.store, clock: t.core.clock, ids: t.core.ids, publicUrl: t.core.config.publicUrl, applySeed: t.core.applySeed });
    const { setPasswordLink } = await admin.resetPassword(val.email);
    await assertEvicted(attacker);
    const newPassword = 'val-new-password-2';
    const set = await t.app.inject({
      method: 'POST', url: new URL(setPasswordLink).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password: newPassword, confirm: newPassword }).toString(),
    });
    assert.equal(set.statusCode, 200, set.body);
    await assertFreshSignInWorks(val.email, newPassword);
  });

  test('eviction: a seed that changes a user\'s password ends his sessions; re-applying the same password does not', async () => {
    const attacker = await attackerOf(cal);
    await t.seed({ users: [cal] });
    assert.equal((await bearerGet(http, '/api/isLogged', attacker.access)).status, 200, 'the same password: nothing ends');
    await t.seed({ users: [{ ...cal, password: 'cal-new-password-2' }] });
    await assertEvicted(attacker);
  });
});

describe('sign out everywhere', () => {
  test('eviction: POST /api/2/me/sign-out-everywhere (204) ends every session of the caller, his own token included', async () => {
    const attacker = await attackerOf(ann);
    const mine = await t.tokens(ann.email);
    const res = await t.app.inject({ method: 'POST', url: '/api/2/me/sign-out-everywhere', headers: { authorization: `Bearer ${mine.access_token}` } });
    assert.equal(res.statusCode, 204, res.body);
    await assertEvicted(attacker);
    assert.equal((await bearerGet(http, '/api/isLogged', mine.access_token)).status, 401, 'the caller\'s own token');
    await assertFreshSignInWorks(ann.email, ann.password);
  });

  test('eviction: the account page\'s "Sign out everywhere" (CSRF-checked) ends every session, this browser\'s too', async () => {
    const attacker = await attackerOf(bea);
    const me = new UserAgent(http);
    const signInForm = await me.get('/account');
    assert.match(signInForm.body, /action="\/account\/sign-in"/, 'not signed in: the sign-in form, back to the account page');
    const signedIn = await me.postForm('/account/sign-in', { ...hiddenFieldsOf(signInForm.body), email: bea.email, password: bea.password });
    assert.equal(signedIn.status, 303);
    const page = await me.get('/account');
    assert.match(page.body, /id="sign-out-everywhere"/);
    const csrf = [...page.body.matchAll(/name="csrf" value="([^"]+)"/g)].map((m) => m[1]!)[0]!;
    assert.equal((await me.postForm('/account/sign-out-everywhere', { csrf: 'forged' })).status, 403, 'a wrong CSRF token changes nothing');
    assert.equal((await bearerGet(http, '/api/isLogged', attacker.access)).status, 200);
    const done = await me.postForm('/account/sign-out-everywhere', { csrf });
    assert.equal(done.status, 200, done.body);
    assert.match(done.body, /Signed out everywhere/);
    await assertEvicted(attacker);
    assert.match((await me.get('/account')).body, /action="\/account\/sign-in"/, 'this browser is signed out too');
  });

  test('eviction: the bearer hot path stays without a query once the token and its user are cached', async () => {
    const { access_token } = await t.tokens(ann.email);
    assert.equal((await bearerGet(http, '/api/isLogged', access_token)).status, 200); // caches the token and the user's state
    const { texts } = await log.measure(async () => {
      for (let i = 0; i < 5; i++) assert.equal((await bearerGet(http, '/api/isLogged', access_token)).status, 200);
    });
    assert.deepEqual(texts, []);
  });
});
