// Headers, cookies and sessions (docs/security.md "HTTP hardening"): nosniff on every
// response, HSTS and the __Host- session cookie when PUBLIC_URL is https, a sign-out that
// ends the web session, and opt-in refresh-token reuse detection (RFC 9700 §4.14.2).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { UserAgent, authorizePath, header, hiddenFieldsOf, injectTransport, signIn } from '../support/oauth-client.ts';
import { HSTS_SECONDS } from '../../src/http/app.ts';
import { sha256Hex } from '../../src/core/crypto/digest.ts';

const USER = { email: 'hana@headers.test', password: 'hana-password-1', firstName: 'Hana', lastName: 'Headers' };
const SEED = { users: [USER] };
const PATH = authorizePath({ redirectUri: 'http://127.0.0.1:9/cb', state: 'hdr' });

async function refresh(t: TestApp, token: string) {
  return t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'refresh_token', refresh_token: token } });
}

describe('on http (the default PUBLIC_URL)', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await t.seed(SEED);
  });
  after(() => t?.close());

  test('nosniff: every response carries X-Content-Type-Options: nosniff (API 2, API 1, errors, 404, pages, health, framework errors)', async () => {
    const { access_token } = await t.tokens(USER.email);
    const auth = { authorization: `Bearer ${access_token}` };
    const requests = [
      { method: 'GET', url: '/api/2/accounts', headers: auth },
      { method: 'GET', url: '/api/2/accounts' },
      { method: 'GET', url: '/api/isLogged', headers: auth },
      { method: 'GET', url: '/api/nothing-here' },
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/oauth/jwks' },
      { method: 'GET', url: PATH },
      { method: 'GET', url: '/api/2/accounts/%E0%A4%A' },
      { method: 'POST', url: '/oauth/token', payload: 'x', headers: { 'content-type': 'application/xml' } },
    ] as const;
    for (const r of requests) {
      const res = await t.app.inject(r as never);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', `${r.method} ${r.url} → ${res.statusCode}`);
      assert.equal(res.headers['strict-transport-security'], undefined, 'no HSTS over http');
    }
  });

  test('session cookie: named sb_session (no __Host- prefix) over http', async () => {
    const agent = new UserAgent(injectTransport(t.app));
    await agent.get(PATH);
    assert.match(agent.lastSetCookie[0]!, /^sb_session=/);
  });

  test('sign-out: the approve page links a CSRF-protected sign-out that ends the web session', async () => {
    const agent = new UserAgent(injectTransport(t.app));
    const approve = await signIn(agent, PATH, USER.email, USER.password);
    assert.match(approve.body, /action="\/oauth\/logout"/);
    const before = agent.cookies.get('sb_session')!;
    const sessions = async () =>
      (await t.core.store.repos.webSessions.byIdHash(sha256Hex(before), new Date())) === null ? 0 : 1;
    assert.equal(await sessions(), 1);

    // A wrong or missing CSRF token: 403, the session stays.
    const forged = await agent.postForm('/oauth/logout', { csrf: 'not-the-token' });
    assert.equal(forged.status, 403);
    assert.equal(await sessions(), 1);
    assert.equal(agent.cookies.get('sb_session'), before);

    const out = await agent.postForm('/oauth/logout', { csrf: hiddenFieldsOf(approve.body).csrf });
    assert.equal(out.status, 200, out.body);
    assert.match(out.body, /Signed out/);
    assert.equal(out.headers['x-content-type-options'], 'nosniff');
    assert.equal(await sessions(), 0, 'the session row is gone');
    assert.equal(agent.cookies.has('sb_session'), false, 'the cookie is cleared');

    // The old cookie value no longer signs anybody in.
    const replay = new UserAgent(injectTransport(t.app));
    replay.cookies.set('sb_session', before);
    const page = await replay.get(PATH);
    assert.match(page.body, /action="\/oauth\/login"/, 'the sign-in form, not the approve page');
  });

  test('refresh reuse detection off (default): a used refresh token is refused and the winner\'s token keeps working', async () => {
    const pair = await t.tokens(USER.email);
    const first = await refresh(t, pair.refresh_token);
    assert.equal(first.statusCode, 200);
    const reuse = await refresh(t, pair.refresh_token);
    assert.equal(reuse.statusCode, 401);
    assert.equal(reuse.json().error, 'invalid_grant');
    assert.equal((await refresh(t, first.json().refresh_token)).statusCode, 200, 'the winner keeps working');
  });

  test('refresh reuse detection off (default): of concurrent refreshes exactly one winner, whose token keeps working', async () => {
    const pair = await t.tokens(USER.email);
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(t, pair.refresh_token)));
    const winners = answers.filter((r) => r.statusCode === 200);
    assert.equal(winners.length, 1);
    assert.equal((await refresh(t, winners[0]!.json().refresh_token)).statusCode, 200);
  });
});

// One app for both (each app costs a database): https, and reuse detection on.
describe('on https, REFRESH_TOKEN_REUSE_DETECTION=1', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ PUBLIC_URL: 'https://scanbase.example', REFRESH_TOKEN_REUSE_DETECTION: '1' });
    await t.seed(SEED);
  });
  after(() => t?.close());

  test('HSTS: every response carries Strict-Transport-Security when PUBLIC_URL is https', async () => {
    for (const url of ['/healthz', '/api/2/accounts', '/api/nothing', PATH]) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.headers['strict-transport-security'], `max-age=${HSTS_SECONDS}`, url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
    }
  });

  test('session cookie: __Host-sb_session, Secure, Path=/, no Domain over https; sign-out clears it', async () => {
    const agent = new UserAgent(injectTransport(t.app));
    const approve = await signIn(agent, PATH, USER.email, USER.password);
    const line = agent.lastSetCookie.find((l) => l.startsWith('__Host-sb_session='));
    assert.ok(line === undefined || /; Secure/i.test(line));
    assert.ok(agent.cookies.has('__Host-sb_session'), [...agent.cookies.keys()].join());
    assert.equal(agent.cookies.has('sb_session'), false);
    const page = await agent.get(PATH);
    assert.match(page.body, /action="\/oauth\/authorize"/, 'the prefixed cookie resumes the session');

    const out = await agent.postForm('/oauth/logout', { csrf: hiddenFieldsOf(approve.body).csrf });
    assert.equal(out.status, 200);
    const cleared = agent.lastSetCookie.find((l) => l.startsWith('__Host-sb_session='))!;
    assert.match(cleared, /; Secure/i);
    assert.match(cleared, /; Path=\//i);
    assert.doesNotMatch(cleared, /Domain=/i);
    assert.equal(agent.cookies.has('__Host-sb_session'), false);
  });

  test('session cookie: the first Set-Cookie has the __Host- requirements (Secure, Path=/, no Domain)', async () => {
    const agent = new UserAgent(injectTransport(t.app));
    const res = await agent.get(PATH);
    const line = header(res, 'set-cookie')!;
    assert.match(line, /^__Host-sb_session=/);
    assert.match(line, /; Secure/i);
    assert.match(line, /; Path=\//i);
    assert.doesNotMatch(line, /Domain=/i);
  });

  test('refresh reuse detection: presenting a used refresh token revokes the tokens issued from it, not other families', async () => {
    const stolen = await t.tokens(USER.email);
    const otherDevice = await t.tokens(USER.email);
    const a = await refresh(t, stolen.refresh_token);
    assert.equal(a.statusCode, 200);
    const b = await refresh(t, a.json().refresh_token);
    assert.equal(b.statusCode, 200);
    const current = b.json().refresh_token as string;

    const reuse = await refresh(t, stolen.refresh_token);
    assert.equal(reuse.statusCode, 401);
    assert.equal(reuse.json().error, 'invalid_grant');
    assert.equal((await refresh(t, current)).statusCode, 401, 'the family\'s current token is revoked');
    assert.equal((await refresh(t, otherDevice.refresh_token)).statusCode, 200, 'another family is untouched');
  });

  test('refresh reuse detection: an unknown, revoked or never-used token revokes nothing', async () => {
    const pair = await t.tokens(USER.email);
    assert.equal((await refresh(t, 'unknown-token')).statusCode, 401);
    const other = await t.tokens(USER.email);
    await t.app.inject({ method: 'POST', url: '/oauth/revoke', payload: { token: other.refresh_token } });
    assert.equal((await refresh(t, other.refresh_token)).statusCode, 401);
    assert.equal((await refresh(t, pair.refresh_token)).statusCode, 200);
  });
});
