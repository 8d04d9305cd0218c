// The console's session (docs/security.md "The console's session"): the console is a
// first-party client (a signed-in browser gets its code without the approval page; every
// other client still sees it), and its refresh token lives in an HttpOnly, SameSite=Strict
// cookie on /console/session, rotated by /console/session/refresh, revoked by
// /console/session/end; calls from another page are refused before any token is touched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, PUBLIC_URL, type TestApp } from '../support/app.ts';
import { UserAgent, authorizePath, header, injectTransport, pkcePair, randomState, signIn, type HttpResponse } from '../support/oauth-client.ts';

const USER = { email: 'cora@console-session.test', password: 'cora-password-1' };
const CALLBACK = `${PUBLIC_URL}/console/callback`;
const COOKIE = 'sb_console';

let t: TestApp;
before(async () => {
  t = await testApp({ REFRESH_TOKEN_REUSE_DETECTION: '1' });
  await t.seed({ users: [{ ...USER, firstName: 'Cora', lastName: 'Session' }] });
});
after(() => t?.close());

const CONSOLE = { 'x-scanbase-console': '1', origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' };

/** A browser signed in on the authorize pages, and the console's PKCE pair and state. */
async function signedInBrowser() {
  const agent = new UserAgent(injectTransport(t.app));
  const pkce = pkcePair();
  const state = randomState();
  const path = authorizePath({ redirectUri: CALLBACK, state, codeChallenge: pkce.challenge });
  // Signed in through another client's authorization (the console's own would not stop at the approval page).
  await signIn(agent, authorizePath({ redirectUri: 'http://127.0.0.1:9/callback', state: 'first' }), USER.email, USER.password);
  return { agent, pkce, state, path };
}

const post = (agent: UserAgent, path: string, body?: unknown, headers: Record<string, string> = CONSOLE) =>
  agent.request({
    method: 'POST',
    path,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The console's sign-in as the page does it: authorize (no approval page), then the code exchanged on /console/session. */
async function consoleSignIn() {
  const b = await signedInBrowser();
  const again = await b.agent.get(b.path);
  assert.equal(again.status, 303, again.body.slice(0, 300));
  const code = new URL(header(again, 'location')!).searchParams.get('code')!;
  const res = await post(b.agent, '/console/session', { code, code_verifier: b.pkce.verifier });
  assert.equal(res.status, 200, res.body);
  return { ...b, res };
}

test('the console is a first-party client: a signed-in browser is sent back to the console callback with a code, without the approval page', async () => {
  const b = await signedInBrowser();
  const res = await b.agent.get(b.path);
  assert.equal(res.status, 303, res.body.slice(0, 300));
  const location = new URL(header(res, 'location')!);
  assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
  assert.equal(location.searchParams.get('state'), b.state);
  assert.match(location.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{20,}$/);
  assert.equal(header(res, 'cache-control'), 'no-store');
});

test('only the console skips the approval page: another redirect address, or the console without PKCE, still shows Allow/Deny', async () => {
  const b = await signedInBrowser();
  for (const path of [
    authorizePath({ redirectUri: 'http://127.0.0.1:9/callback', state: 'other', codeChallenge: b.pkce.challenge }),
    authorizePath({ redirectUri: `${PUBLIC_URL}/api/2/docs/static/oauth2-redirect.html`, state: 'docs', codeChallenge: b.pkce.challenge }),
    authorizePath({ redirectUri: CALLBACK, state: 'nopkce' }),
  ]) {
    const res = await b.agent.get(path);
    assert.equal(res.status, 200, path);
    assert.match(res.body, /value="allow"/, path);
  }
  // A browser that is not signed in gets the sign-in form, not a code.
  const stranger = new UserAgent(injectTransport(t.app));
  const res = await stranger.get(b.path);
  assert.equal(res.status, 200);
  assert.match(res.body, /action="\/oauth\/login"/);
});

test('the code exchange on /console/session keeps the refresh token in an HttpOnly, SameSite=Strict cookie on /console/session and answers only the access token', async () => {
  const { res, agent } = await consoleSignIn();
  const body = res.body;
  const answer = JSON.parse(body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(answer).sort(), ['access_token', 'expires_in', 'token_type', 'user_id']);
  assert.equal(header(res, 'cache-control'), 'no-store');
  const line = agent.lastSetCookie.find((l) => l.startsWith(`${COOKIE}=`));
  assert.ok(line, agent.lastSetCookie.join('\n'));
  assert.match(line, /; HttpOnly/i);
  assert.match(line, /; SameSite=Strict/i);
  assert.match(line, /; Path=\/console\/session(;|$)/);
  assert.match(line, /; Max-Age=1814400/);
  // Plain http (PUBLIC_URL here): no Secure flag, which the browser would refuse over http.
  assert.doesNotMatch(line, /; Secure/i);
  // The access token works on the API.
  const me = await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: { authorization: `Bearer ${answer.access_token}` } });
  assert.equal(me.statusCode, 200, me.body);
});

test('/console/session/refresh rotates the cookie: each refresh answers a new access token and the spent refresh token no longer works', async () => {
  const { agent } = await consoleSignIn();
  const first = agent.cookies.get(COOKIE)!;
  const r1 = await post(agent, '/console/session/refresh');
  assert.equal(r1.status, 200, r1.body);
  const second = agent.cookies.get(COOKIE)!;
  assert.notEqual(second, first);
  const r2 = await post(agent, '/console/session/refresh');
  assert.equal(r2.status, 200, r2.body);
  assert.notEqual(JSON.parse(r2.body).access_token, JSON.parse(r1.body).access_token);
  // The token endpoint refuses the spent one (single use).
  const spent = await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'refresh_token', refresh_token: first } });
  assert.equal(spent.statusCode, 401, spent.body);
});

test('a refresh without the cookie is 401 in problem+json; a spent cookie is 401 and cleared', async () => {
  const bare = new UserAgent(injectTransport(t.app));
  const res = await post(bare, '/console/session/refresh');
  assert.equal(res.status, 401, res.body);
  assert.match(header(res, 'content-type') ?? '', /application\/problem\+json/);
  const { agent } = await consoleSignIn();
  const spent = agent.cookies.get(COOKIE)!;
  assert.equal((await post(agent, '/console/session/refresh')).status, 200);
  const stale = new UserAgent(injectTransport(t.app));
  stale.cookies.set(COOKIE, spent);
  const refused = await post(stale, '/console/session/refresh');
  assert.equal(refused.status, 401, refused.body);
  assert.ok(stale.lastSetCookie.some((l) => l.startsWith(`${COOKIE}=;`) || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(l)), stale.lastSetCookie.join('\n'));
});

test('calls from another page are refused with 403 cross-site-request and touch no token: without the console header, from another origin, or a cross-site fetch', async () => {
  const { agent } = await consoleSignIn();
  const held = agent.cookies.get(COOKIE)!;
  const attempts: Record<string, string>[] = [
    { origin: PUBLIC_URL },
    { ...CONSOLE, origin: 'https://evil.example' },
    { ...CONSOLE, 'sec-fetch-site': 'cross-site' },
    { ...CONSOLE, 'sec-fetch-site': 'same-site' },
  ];
  for (const headers of attempts) {
    for (const path of ['/console/session/refresh', '/console/session/end']) {
      const res: HttpResponse = await post(agent, path, undefined, headers);
      assert.equal(res.status, 403, `${path} ${JSON.stringify(headers)}: ${res.body}`);
      assert.equal(JSON.parse(res.body).errorCode, 'cross-site-request');
    }
  }
  // The cookie is untouched and still refreshes.
  assert.equal(agent.cookies.get(COOKIE), held);
  assert.equal((await post(agent, '/console/session/refresh')).status, 200);
});

test('a code is exchanged on /console/session only with its verifier and only once; an unknown body field is refused', async () => {
  const b = await signedInBrowser();
  const again = await b.agent.get(b.path);
  const code = new URL(header(again, 'location')!).searchParams.get('code')!;
  const wrong = await post(b.agent, '/console/session', { code, code_verifier: pkcePair().verifier });
  assert.equal(wrong.status, 400, wrong.body);
  assert.equal(JSON.parse(wrong.body).errorCode, 'invalid_grant');
  // The failed exchange burnt the code.
  const retry = await post(b.agent, '/console/session', { code, code_verifier: b.pkce.verifier });
  assert.equal(retry.status, 400, retry.body);
  const extra = await post(b.agent, '/console/session', { code, code_verifier: b.pkce.verifier, refresh_token: 'x' });
  assert.equal(extra.status, 400, extra.body);
  assert.equal(b.agent.cookies.get(COOKIE), undefined);
});

test('/console/session/end revokes the refresh token and clears the cookie', async () => {
  const { agent } = await consoleSignIn();
  const held = agent.cookies.get(COOKIE)!;
  const res = await post(agent, '/console/session/end');
  assert.equal(res.status, 200, res.body);
  assert.equal(agent.cookies.get(COOKIE), undefined);
  const after = await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'refresh_token', refresh_token: held } });
  assert.equal(after.statusCode, 401, after.body);
});

test('over https the cookie is __Secure-sb_console with Secure', async () => {
  const s = await testApp({ PUBLIC_URL: 'https://scan.example.com' });
  try {
    await s.seed({ users: [{ ...USER, firstName: 'Cora', lastName: 'Session' }] });
    const agent = new UserAgent(injectTransport(s.app));
    const pkce = pkcePair();
    const path = authorizePath({ redirectUri: 'https://scan.example.com/console/callback', state: 'tls', codeChallenge: pkce.challenge });
    await signIn(agent, authorizePath({ redirectUri: 'http://127.0.0.1:9/callback', state: 'first' }), USER.email, USER.password);
    const again = await agent.get(path);
    const code = new URL(header(again, 'location')!).searchParams.get('code')!;
    const res = await post(agent, '/console/session', { code, code_verifier: pkce.verifier }, { ...CONSOLE, origin: 'https://scan.example.com' });
    assert.equal(res.status, 200, res.body);
    const line = agent.lastSetCookie.find((l) => l.startsWith('__Secure-sb_console='));
    assert.ok(line, agent.lastSetCookie.join('\n'));
    assert.match(line, /; Secure/i);
  } finally {
    await s.close();
  }
});
