// The authorize flow in a real browser against a real server: headless Chromium signs in,
// presses Allow or Deny, and is redirected to a local listener (the redirect address);
// the code is exchanged with PKCE and the token is used on API 1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from '../support/browser.ts';
import {
  authorizePath,
  bearerGet,
  exchangeCode,
  pkcePair,
  randomState,
  startOAuthServer,
  type OAuthServer,
} from '../support/oauth-client.ts';

const USER = { email: 'bella@browser.test', password: 'bella-password-1' };

/** A redirect address: a local listener that records every request it gets. */
interface Callback {
  uri: string;
  /** The next request's URL (waits for it). */
  next(timeoutMs?: number): Promise<URL>;
  received: URL[];
  close(): Promise<void>;
}

async function startCallback(): Promise<Callback> {
  const received: URL[] = [];
  const waiters: ((u: URL) => void)[] = [];
  const srv = http.createServer((req, res) => {
    const u = new URL(req.url!, `http://${req.headers.host}`);
    if (u.pathname !== '/callback') {
      // e.g. the browser's /favicon.ico: not a redirect.
      res.writeHead(404, { connection: 'close' }).end();
      return;
    }
    received.push(u);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    res.end('<!doctype html><title>Callback</title><p id="done">Received.</p>');
    waiters.shift()?.(u);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  let seen = 0;
  return {
    uri: `http://127.0.0.1:${port}/callback`,
    received,
    next(timeoutMs = 10_000) {
      if (received.length > seen) return Promise.resolve(received[seen++]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no request reached the redirect address')), timeoutMs);
        waiters.push((u) => {
          clearTimeout(timer);
          seen++;
          resolve(u);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

let server: OAuthServer;
let browser: Browser;
let callback: Callback;
const contexts: BrowserContext[] = [];

before(async () => {
  // Settled one by one, so that `after` can stop whichever started when another failed
  // (a browser or listener left open would keep this test process alive for ever).
  const [s, b, c] = await Promise.allSettled([startOAuthServer(), launchBrowser(), startCallback()]);
  if (s.status === 'fulfilled') server = s.value;
  if (b.status === 'fulfilled') browser = b.value;
  if (c.status === 'fulfilled') callback = c.value;
  for (const r of [s, b, c]) if (r.status === 'rejected') throw r.reason;
  await server.seed({ users: [{ ...USER, firstName: 'Bella', lastName: 'Browser' }] });
});
after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await closeBrowser(browser);
  await callback?.close().catch(() => {});
  await server?.stop();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

/** Opens the authorize address and signs in; answers the page showing the approve form. */
async function openAndSignIn(page: Page, redirectUri: string, state: string, challenge?: string): Promise<void> {
  const res = await page.goto(`${server.url}${authorizePath({ redirectUri, state, codeChallenge: challenge })}`);
  assert.equal(res?.status(), 200);
  await page.fill('#email', USER.email);
  await page.fill('#password', USER.password);
  await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
  await page.getByRole('button', { name: 'Allow' }).waitFor();
}

test('Allow redirects the browser to the redirect address with code and state; the PKCE exchange gives a token /api/isLogged accepts', async () => {
  const page = await newPage();
  const state = randomState();
  const { verifier, challenge } = pkcePair();
  await openAndSignIn(page, callback.uri, state, challenge);
  assert.match(await page.textContent('main') ?? '', new RegExp(`Signed in as\\s+${USER.email.replace('.', '\\.')}`));
  const [hit] = await Promise.all([callback.next(), page.getByRole('button', { name: 'Allow' }).click()]);
  assert.equal(hit.pathname, '/callback');
  assert.equal(hit.searchParams.get('state'), state);
  const code = hit.searchParams.get('code');
  assert.ok(code && code.length >= 32, `code ${code}`);
  await page.waitForURL(`${callback.uri}?**`);
  assert.equal(await page.textContent('#done'), 'Received.');

  const res = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      code,
      grant_type: 'authorization_code',
      authorization_code: callback.uri,
      code_verifier: verifier,
    }),
  });
  assert.equal(res.status, 200);
  const tokens = await res.json();
  assert.equal(tokens.token_type, 'Bearer');
  assert.equal(tokens.expires_in, 10800);
  assert.match(tokens.user_id, /^urn:svc:user:[0-9a-f-]{36}$/);

  const logged = await fetch(`${server.url}/api/isLogged`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(logged.status, 200);
  assert.deepEqual(await logged.json(), { success: true });
});

test('Deny redirects the browser with error=access_denied and the state, and no code', async () => {
  const page = await newPage();
  const state = randomState();
  await openAndSignIn(page, callback.uri, state);
  const [hit] = await Promise.all([callback.next(), page.getByRole('button', { name: 'Deny' }).click()]);
  assert.equal(hit.searchParams.get('error'), 'access_denied');
  assert.equal(hit.searchParams.get('state'), state);
  assert.equal(hit.searchParams.get('code'), null);
});

test('redirect_uri "/" shows the code on the service\'s own page, and that code exchanges', async () => {
  const page = await newPage();
  const state = randomState();
  const { verifier, challenge } = pkcePair();
  await openAndSignIn(page, '/', state, challenge);
  const before = callback.received.length;
  await Promise.all([page.waitForURL(`${server.url}/?**`), page.getByRole('button', { name: 'Allow' }).click()]);
  const code = (await page.textContent('#code'))!.trim();
  assert.equal(new URL(page.url()).searchParams.get('code'), code);
  assert.equal((await page.textContent('#state'))!.trim(), state);
  assert.match(await page.title(), /Authorization code/);
  assert.equal(callback.received.length, before, 'nothing reached the listener');
  const res = await exchangeCode(server.http, code, '/', verifier);
  assert.equal(res.status, 200, res.body);
  const logged = await bearerGet(server.http, '/api/isLogged', JSON.parse(res.body).access_token);
  assert.equal(logged.status, 200);
});

test('the sandbox banner is visible on the sign-in, approve and code pages', async () => {
  const page = await newPage();
  await page.goto(`${server.url}${authorizePath({ redirectUri: '/', state: 'banner' })}`);
  const banner = page.getByRole('status');
  assert.ok(await banner.isVisible(), 'sign-in page');
  assert.match((await banner.textContent())!, /sandbox/i);
  await page.fill('#email', USER.email);
  await page.fill('#password', USER.password);
  await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
  assert.ok(await page.getByRole('status').isVisible(), 'approve page');
  await Promise.all([page.waitForURL(`${server.url}/?**`), page.getByRole('button', { name: 'Allow' }).click()]);
  assert.ok(await page.getByRole('status').isVisible(), 'code page');
});

test('a wrong password keeps the browser on the sign-in page with an error, and reaches no redirect address', async () => {
  const page = await newPage();
  const before = callback.received.length;
  await page.goto(`${server.url}${authorizePath({ redirectUri: callback.uri, state: 'wrongpw' })}`);
  await page.fill('#email', USER.email);
  await page.fill('#password', 'not-the-password');
  const [res] = await Promise.all([page.waitForResponse(/\/oauth\/login$/), page.click('button[type=submit]')]);
  assert.equal(res.status(), 401);
  assert.ok(await page.getByRole('alert').isVisible());
  assert.ok(await page.locator('#password').isVisible());
  assert.equal(callback.received.length, before);
});

test('a foreign redirect_uri shows an error page and the browser is never sent there', async () => {
  const page = await newPage();
  const evil = `http://localhost.evil.example:${new URL(callback.uri).port}/callback`;
  const res = await page.goto(`${server.url}${authorizePath({ redirectUri: evil, state: 'evil' })}`);
  assert.equal(res?.status(), 400);
  assert.equal(new URL(page.url()).origin, server.url);
  assert.ok(await page.getByRole('alert').isVisible());
  assert.equal(await page.locator('form').count(), 0);
});

test('the session cookie is HttpOnly: page scripts cannot read it, and a signed-in browser skips the sign-in form', async () => {
  const page = await newPage();
  await openAndSignIn(page, callback.uri, 'cookie');
  assert.equal(await page.evaluate(() => document.cookie), '');
  const cookies = await page.context().cookies(server.url);
  const session = cookies.find((c) => c.name === 'sb_session');
  assert.ok(session);
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  // Same browser, a second authorization: straight to the approve page.
  await page.goto(`${server.url}${authorizePath({ redirectUri: callback.uri, state: 'again' })}`);
  assert.ok(await page.getByRole('button', { name: 'Allow' }).isVisible());
  assert.equal(await page.locator('#password').count(), 0);
  const [hit] = await Promise.all([callback.next(), page.getByRole('button', { name: 'Allow' }).click()]);
  assert.equal(hit.searchParams.get('state'), 'again');
  assert.ok(hit.searchParams.get('code'));
});
