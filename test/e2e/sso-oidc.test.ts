// Single sign-on with OpenID Connect in a real browser (docs/identity.md): headless Chromium
// goes from Scanbase's sign-in page through a real IdP (oidc-provider on loopback, its login
// and consent pages) and back, and the OAuth flow continues exactly as after a password
// sign-in: Allow, a code, Scanbase's own tokens, the API. Checked: the user created just in
// time with his groups and account role by the mapping rules, re-applied at each sign-in; a
// domain that requires SSO refusing the password form; an ID token whose signature fails, a
// wrong nonce and a replayed state refused with a clear page; an IdP that is down answering a
// clear page after the timeout, not a hang.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from '../support/browser.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { freePort } from '../support/server.ts';
import { bearerGet, exchangeCode, fetchTransport } from '../support/oauth-client.ts';
import { startSilentIdp, startTestIdp, type TestIdp } from '../support/oidc-idp.ts';
import { caller } from '../support/projects.ts';
import { FreshPages, configureSso, continueWithSso, openAuthorize } from '../support/sso-browser.ts';

const ACME = 'a5500000-0000-4000-8000-000000000001';
const TAMPERED = 'a5500000-0000-4000-8000-000000000002';
const DOWN = 'a5500000-0000-4000-8000-000000000003';
const SURVEYORS = 'c5500000-0000-4000-8000-000000000001';
const OFFICE = 'c5500000-0000-4000-8000-000000000002';
const TIMEOUT_SECONDS = 2;

let t: TestApp;
let base: string;
let idp: TestIdp;
let forged: TestIdp;
let silent: { issuer: string; close(): Promise<void> };
let browser: Browser;
const pages = new FreshPages(() => browser);

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await testApp({ PUBLIC_URL: base, SSO_IDP_TIMEOUT: String(TIMEOUT_SECONDS) });
  await t.app.listen({ port, host: '127.0.0.1' });
  const started = await Promise.allSettled([
    startTestIdp({ redirectUri: `${base}/sso/callback` }),
    startTestIdp({ redirectUri: `${base}/sso/callback`, foreignJwks: true }),
    startSilentIdp(),
    launchBrowser(),
  ]);
  if (started[0].status === 'fulfilled') idp = started[0].value;
  if (started[1].status === 'fulfilled') forged = started[1].value;
  if (started[2].status === 'fulfilled') silent = started[2].value;
  if (started[3].status === 'fulfilled') browser = started[3].value;
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;

  await t.seed({
    users: [
      { email: 'owner@acme.test', password: 'owner-password-1', firstName: 'Olive', lastName: 'Owner' },
      { email: 'pat@acme.test', password: 'pat-password-1', firstName: 'Pat', lastName: 'Password' },
      { email: 'owner@forged.test', password: 'owner-password-1' },
      { email: 'owner@down.test', password: 'owner-password-1' },
    ],
    accounts: [
      {
        id: ACME, name: 'Acme', owner: 'owner@acme.test', members: ['pat@acme.test'], subscriptions: [{ name: 'Basic' }],
        groups: [{ id: SURVEYORS, name: 'Surveyors', users: [] }, { id: OFFICE, name: 'Office', users: [] }],
      },
      { id: TAMPERED, name: 'Forged', owner: 'owner@forged.test', subscriptions: [{ name: 'Basic' }] },
      { id: DOWN, name: 'Down', owner: 'owner@down.test', subscriptions: [{ name: 'Basic' }] },
    ],
  });
  const settings = (i: { issuer: string; clientId?: string; clientSecret?: string }, name: string) => ({
    displayName: name, issuer: i.issuer, clientId: i.clientId ?? 'scanbase', clientSecret: i.clientSecret ?? 'unused-secret', scopes: ['openid', 'email', 'profile', 'groups'],
  });
  await configureSso(t, ACME, 'owner@acme.test', 'acme.test', settings(idp, 'Acme Login'), [
    { claim: 'groups', value: 'surveyors', group: SURVEYORS },
    { claim: 'groups', value: 'office', group: OFFICE },
    { claim: 'groups', value: 'it-admins', accountRole: 'administrator' },
  ], true);
  await configureSso(t, TAMPERED, 'owner@forged.test', 'forged.test', settings(forged, 'Forged Login'));
  await configureSso(t, DOWN, 'owner@down.test', 'down.test', settings(silent, 'Down Login'));
  idp.users.set('sam', { email: 'sam@acme.test', email_verified: true, given_name: 'Sam', family_name: 'Surveyor', groups: ['surveyors'] });
  forged.users.set('fay', { email: 'fay@forged.test', email_verified: true });
});

after(async () => {
  await pages.closeAll();
  await closeBrowser(browser);
  await Promise.allSettled([idp?.close(), forged?.close(), silent?.close()]);
  await t?.close();
});

/** At the IdP: its login form (any password), then its consent. */
async function signInAtIdp(page: Page, login: string) {
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'any');
  await page.click('button[type=submit]');
  await page.click('button[type=submit]'); // Continue (consent)
}

/** The whole sign-in through the IdP, Allow, the code exchanged: Scanbase's own token pair. */
async function ssoTokens(page: Page, email: string, login: string) {
  const { verifier } = await openAuthorize(page, base);
  await continueWithSso(page, email, 'Acme Login');
  await signInAtIdp(page, login);
  await page.waitForURL(/\/oauth\/authorize\?/);
  assert.match((await page.textContent('main'))!, new RegExp(`Signed in as ${email}`));
  await page.click('button[value=allow]');
  const code = (await page.textContent('#code'))!.trim();
  const res = await exchangeCode(fetchTransport(base), code, '/', verifier);
  assert.equal(res.status, 200, res.body);
  return JSON.parse(res.body) as { access_token: string; user_id: string };
}

async function membership(userId: string) {
  const owner = caller(t, (await t.tokens('owner@acme.test')).access_token);
  const user = await owner('GET', `/api/2/accounts/${ACME}/users/${userId}`);
  const groups = await owner('GET', `/api/2/accounts/${ACME}/groups`);
  const inGroups = (groups.body as { name: string; userIds: string[] }[])
    .filter((g) => g.userIds.some((u) => u.endsWith(userId)))
    .map((g) => g.name);
  return { status: user.status, user: user.body, inGroups };
}

test('first SSO sign-in creates the user just in time, in the mapped group, and the OAuth flow issues Scanbase tokens that work on the API', async () => {
  const page = await pages.page();
  const tokens = await ssoTokens(page, 'sam@acme.test', 'sam');
  const me = await bearerGet(fetchTransport(base), '/oauth/userinfo', tokens.access_token);
  assert.equal(me.status, 200, me.body);
  assert.equal(JSON.parse(me.body).email, 'sam@acme.test');
  const userId = tokens.user_id.split(':').at(-1)!;
  const m = await membership(userId);
  assert.equal(m.status, 200, JSON.stringify(m.user));
  assert.deepEqual(m.inGroups, ['Surveyors']);
  const accounts = await bearerGet(fetchTransport(base), '/api/2/accounts', tokens.access_token);
  assert.equal(accounts.status, 200);
  assert.ok(accounts.body.includes(ACME), 'a member of the account');
});

test('the mapping rules are applied again at each sign-in: groups and the account role follow the IdP', async () => {
  idp.users.set('sam', { ...idp.users.get('sam'), groups: ['office', 'it-admins'] });
  const tokens = await ssoTokens(await pages.page(), 'sam@acme.test', 'sam');
  const userId = tokens.user_id.split(':').at(-1)!;
  const m = await membership(userId);
  assert.deepEqual(m.inGroups, ['Office']);
  const sam = caller(t, tokens.access_token);
  const admins = await sam('GET', `/api/2/accounts/${ACME}/sso`);
  assert.equal(admins.status, 200, 'an administrator now: he reads the SSO settings');
});

test('a domain that requires SSO refuses the password form with a message naming the IdP, and offers it', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await page.fill('#email', 'pat@acme.test');
  await page.fill('#password', 'pat-password-1');
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/login')), page.click('button.primary[type=submit]')]);
  assert.equal(res.status(), 403);
  const alert = (await page.textContent('[role=alert]'))!;
  assert.match(alert, /acme\.test sign in with Acme Login, not with a password/);
  assert.equal((await page.textContent('#continue-sso'))?.trim(), 'Continue with Acme Login');
});

test('an ID token whose signature does not verify with the IdP\'s published keys is refused with a clear page', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await continueWithSso(page, 'fay@forged.test', 'Forged Login');
  const waitCallback = page.waitForResponse((r) => r.url().includes('/sso/callback'));
  await signInAtIdp(page, 'fay');
  assert.equal((await waitCallback).status(), 403);
  assert.equal(await page.textContent('h1'), 'Sign-in refused');
  assert.match((await page.textContent('[role=alert]'))!, /identity provider's answer was refused: .*signature/i);
  assert.equal(await t.core.store.repos.users.byEmail('fay@forged.test'), null, 'no user created');
});

test('an ID token carrying another nonce than the one sent is refused', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  // The authorization request reaches the IdP with its nonce replaced (in /sso/start's redirect).
  await page.route(`${base}/sso/start`, async (route) => {
    const res = await route.fetch({ maxRedirects: 0 });
    const u = new URL(res.headers().location!);
    assert.ok(u.searchParams.get('nonce'), 'a nonce is sent');
    u.searchParams.set('nonce', 'a-nonce-scanbase-never-sent');
    await route.fulfill({ status: 303, headers: { ...res.headers(), location: u.href } });
  });
  idp.users.set('nina', { email: 'nina@acme.test', email_verified: true, groups: [] });
  await continueWithSso(page, 'nina@acme.test', 'Acme Login');
  const waitCallback = page.waitForResponse((r) => r.url().includes('/sso/callback'));
  await signInAtIdp(page, 'nina');
  assert.equal((await waitCallback).status(), 403);
  assert.match((await page.textContent('[role=alert]'))!, /nonce/i);
  assert.equal(await t.core.store.repos.users.byEmail('nina@acme.test'), null);
});

test('a replayed callback (its state used already) is refused with a clear page', async () => {
  const page = await pages.page();
  const callbacks: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${base}/sso/callback`)) callbacks.push(r.url());
  });
  await ssoTokens(page, 'sam@acme.test', 'sam');
  assert.equal(callbacks.length, 1);
  const replay = await page.goto(callbacks[0]!);
  assert.equal(replay?.status(), 400);
  assert.equal(await page.textContent('h1'), 'Sign-in link expired');
  assert.match((await page.textContent('[role=alert]'))!, /unknown, was used already, or expired/);
});

test('an IdP that does not answer gives a clear page after the timeout, not a hang', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await page.fill('#email', 'dan@down.test');
  await page.click('#use-sso');
  const started = Date.now();
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/sso/start')), page.click('#continue-sso')]);
  const took = Date.now() - started;
  assert.equal(res.status(), 503);
  assert.equal(await page.textContent('h1'), 'Identity provider unavailable');
  assert.match((await page.textContent('[role=alert]'))!, /did not answer/);
  assert.ok(took >= TIMEOUT_SECONDS * 1000 - 200 && took < TIMEOUT_SECONDS * 1000 + 5000, `answered after ${took} ms`);
});
