// Single sign-on with SAML 2.0 in a real browser (docs/identity.md "SAML"): headless Chromium
// goes from Scanbase's sign-in page through a real SAML IdP (test/support/saml-idp.ts on
// loopback: the AuthnRequest by redirect, its login form, its HTTP-POST form to the ACS) and
// back, and the OAuth flow continues exactly as after a password sign-in: Allow, a code,
// Scanbase's own tokens, the API. Checked: the user created just in time in the group the
// mapping rules give; a domain that requires SSO refusing the password form; an assertion
// whose signature fails, an expired one and a replayed one refused with a clear page; an IdP
// that is down answering a clear page after the timeout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from '../support/browser.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { freePort } from '../support/server.ts';
import { bearerGet, exchangeCode, fetchTransport } from '../support/oauth-client.ts';
import { startSilentIdp } from '../support/oidc-idp.ts';
import { startTestSamlIdp, SAML_IDP_CERT, type TestSamlIdp } from '../support/saml-idp.ts';
import { FreshPages, configureSso, continueWithSso, openAuthorize } from '../support/sso-browser.ts';

const ACME = 'a5700000-0000-4000-8000-000000000001';
const FORGED = 'a5700000-0000-4000-8000-000000000002';
const STALE = 'a5700000-0000-4000-8000-000000000003';
const DOWN = 'a5700000-0000-4000-8000-000000000004';
const SURVEYORS = 'c5700000-0000-4000-8000-000000000001';
const TIMEOUT_SECONDS = 2;

let t: TestApp;
let base: string;
let idp: TestSamlIdp;
let forged: TestSamlIdp;
let stale: TestSamlIdp;
let silent: { issuer: string; close(): Promise<void> };
let browser: Browser;
const pages = new FreshPages(() => browser);

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await testApp({ PUBLIC_URL: base, SSO_IDP_TIMEOUT: String(TIMEOUT_SECONDS) });
  await t.app.listen({ port, host: '127.0.0.1' });
  const started = await Promise.allSettled([startTestSamlIdp(), startTestSamlIdp({ forge: true }), startTestSamlIdp({ expired: true }), startSilentIdp(), launchBrowser()]);
  if (started[0].status === 'fulfilled') idp = started[0].value;
  if (started[1].status === 'fulfilled') forged = started[1].value;
  if (started[2].status === 'fulfilled') stale = started[2].value;
  if (started[3].status === 'fulfilled') silent = started[3].value;
  if (started[4].status === 'fulfilled') browser = started[4].value;
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;

  await t.seed({
    users: [
      { email: 'owner@acme.test', password: 'owner-password-1' },
      { email: 'pat@acme.test', password: 'pat-password-1' },
      { email: 'owner@forged.test', password: 'owner-password-1' },
      { email: 'owner@stale.test', password: 'owner-password-1' },
      { email: 'owner@down.test', password: 'owner-password-1' },
    ],
    accounts: [
      { id: ACME, name: 'Acme', owner: 'owner@acme.test', members: ['pat@acme.test'], subscriptions: [{ name: 'Basic' }], groups: [{ id: SURVEYORS, name: 'Surveyors', users: [] }] },
      { id: FORGED, name: 'Forged', owner: 'owner@forged.test', subscriptions: [{ name: 'Basic' }] },
      { id: STALE, name: 'Stale', owner: 'owner@stale.test', subscriptions: [{ name: 'Basic' }] },
      { id: DOWN, name: 'Down', owner: 'owner@down.test', subscriptions: [{ name: 'Basic' }] },
    ],
  });
  const saml = (i: TestSamlIdp, name: string) => ({ protocol: 'saml', displayName: name, saml: { metadataXml: i.metadataXml } });
  await configureSso(t, ACME, 'owner@acme.test', 'acme.test', saml(idp, 'Acme SAML'), [{ claim: 'groups', value: 'surveyors', group: SURVEYORS }], true);
  await configureSso(t, FORGED, 'owner@forged.test', 'forged.test', saml(forged, 'Forged SAML'));
  await configureSso(t, STALE, 'owner@stale.test', 'stale.test', saml(stale, 'Stale SAML'));
  await configureSso(t, DOWN, 'owner@down.test', 'down.test', { protocol: 'saml', displayName: 'Down SAML', saml: { entityId: 'urn:down', ssoUrl: `${silent.issuer}/sso`, certificates: [SAML_IDP_CERT] } });
  idp.users.set('sam', { email: 'sam@acme.test', firstName: 'Sam', lastName: 'Surveyor', groups: ['surveyors'] });
  forged.users.set('fay', { email: 'fay@forged.test' });
  stale.users.set('stan', { email: 'stan@stale.test' });
});

after(async () => {
  await pages.closeAll();
  await closeBrowser(browser);
  await Promise.allSettled([idp?.close(), forged?.close(), stale?.close(), silent?.close()]);
  await t?.close();
});

/** At the IdP: its login form, then its page that posts the response to the ACS; answers the ACS's answer. */
async function signInAtIdp(page: Page, login: string) {
  await page.fill('input[name=login]', login);
  await page.click('button[type=submit]');
  const acs = page.waitForResponse((r) => r.url().includes('/acs') && r.request().method() === 'POST');
  await page.click('#post-to-sp');
  return acs;
}

test('first SAML sign-in creates the user just in time in the mapped group, and the OAuth flow issues Scanbase tokens that work on the API', async () => {
  const page = await pages.page();
  const { verifier } = await openAuthorize(page, base);
  await continueWithSso(page, 'sam@acme.test', 'Acme SAML');
  assert.equal((await signInAtIdp(page, 'sam')).status(), 303);
  await page.waitForURL(/\/oauth\/authorize\?/);
  assert.match((await page.textContent('main'))!, /Signed in as sam@acme\.test/);
  await page.click('button[value=allow]');
  const code = (await page.textContent('#code'))!.trim();
  const res = await exchangeCode(fetchTransport(base), code, '/', verifier);
  assert.equal(res.status, 200, res.body);
  const tokens = JSON.parse(res.body) as { access_token: string; user_id: string };
  const me = await bearerGet(fetchTransport(base), '/oauth/userinfo', tokens.access_token);
  assert.equal(JSON.parse(me.body).email, 'sam@acme.test');
  const userId = tokens.user_id.split(':').at(-1)!;
  const groups = await t.core.store.repos.groups.listByAccount(ACME);
  assert.deepEqual(groups.find((g) => g.id === SURVEYORS)?.userIds, [userId]);
});

test('a domain that requires SSO refuses the password form with a message naming the SAML IdP, and offers it', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await page.fill('#email', 'pat@acme.test');
  await page.fill('#password', 'pat-password-1');
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/login')), page.click('button.primary[type=submit]')]);
  assert.equal(res.status(), 403);
  assert.match((await page.textContent('[role=alert]'))!, /acme\.test sign in with Acme SAML, not with a password/);
  assert.equal((await page.textContent('#continue-sso'))?.trim(), 'Continue with Acme SAML');
});

test('an assertion whose signature does not verify with the configured certificate is refused with a clear page', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await continueWithSso(page, 'fay@forged.test', 'Forged SAML');
  assert.equal((await signInAtIdp(page, 'fay')).status(), 403);
  assert.equal(await page.textContent('h1'), 'Sign-in refused');
  assert.match((await page.textContent('[role=alert]'))!, /signature does not verify/);
  assert.equal(await t.core.store.repos.users.byEmail('fay@forged.test'), null);
});

test('an expired assertion is refused with a clear page', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await continueWithSso(page, 'stan@stale.test', 'Stale SAML');
  assert.equal((await signInAtIdp(page, 'stan')).status(), 403);
  assert.match((await page.textContent('[role=alert]'))!, /expired/);
  assert.equal(await t.core.store.repos.users.byEmail('stan@stale.test'), null);
});

test('a replayed assertion (its response posted again from the browser) is refused with a clear page', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await continueWithSso(page, 'sam@acme.test', 'Acme SAML');
  assert.equal((await signInAtIdp(page, 'sam')).status(), 303);
  await page.waitForURL(/\/oauth\/authorize\?/);
  // The same response posted again from a page of the IdP's origin (as an attacker who kept it would).
  const response = idp.responses.at(-1)!;
  await page.goto(idp.ssoUrl);
  const again = page.waitForResponse((r) => r.url().includes('/acs') && r.request().method() === 'POST');
  await page.evaluate(([action, value]) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = action!;
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = 'SAMLResponse';
    input.value = value!;
    form.append(input);
    document.body.append(form);
    form.submit();
  }, [`${base}/sso/saml/${ACME}/acs`, response]);
  assert.equal((await again).status(), 400);
  assert.equal(await page.textContent('h1'), 'Sign-in response used already');
  assert.match((await page.textContent('[role=alert]'))!, /accepted once/);
});

test('a SAML IdP that does not answer gives a clear page after the timeout, not a hang', async () => {
  const page = await pages.page();
  await openAuthorize(page, base);
  await page.fill('#email', 'dan@down.test');
  await page.click('#use-sso');
  const started = Date.now();
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/sso/start')), page.click('#continue-sso')]);
  const took = Date.now() - started;
  assert.equal(res.status(), 503);
  assert.equal(await page.textContent('h1'), 'Identity provider unavailable');
  assert.ok(took >= TIMEOUT_SECONDS * 1000 - 200 && took < TIMEOUT_SECONDS * 1000 + 5000, `answered after ${took} ms`);
});
