// The console's Single sign-on screen (docs/console.md "Single sign-on") in headless Chromium
// against one started service and a real OpenID Connect IdP on loopback (oidc-provider, the
// support of test/e2e/sso-oidc.test.ts): an account administrator sets up the provider (a
// refusal shown at the input it names; the client secret never shown back), claims a domain
// that the operator then verifies with the token the screen showed once, requires single
// sign-on for it, adds a mapping rule and edits it in place, and creates a SCIM token shown
// once with a copy button; then a user of that domain signs in from the console's own Sign in
// through the IdP and lands in the console as a member in the mapped group. A member who is
// not an administrator has no link to the screen, and its address shows the service's refusal.
// axe-core finds no serious or critical violation on the screen.
// @engine-independent (the console is a client of the API; the SSO data path is tested in test/http and test/e2e/sso-oidc)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, screenshot, signInThroughConsole } from '../support/console.ts';
import { startTestIdp, type TestIdp } from '../support/oidc-idp.ts';
import { runAdmin } from '../support/admin.ts';

const ACME = 'a5510000-0000-4000-8000-000000000001';
const SURVEYORS = 'c5510000-0000-4000-8000-000000000001';
const OWNER = { email: 'olive@acme.test', password: 'olive-password-1' };
/** A member of the account with no account role (not an administrator), of a domain that keeps passwords. */
const MEMBER = { email: 'mo@partner.test', password: 'mo-password-1' };
const DESKTOP = { width: 1280, height: 800 };

let server: OAuthServer;
let idp: TestIdp;
const world = consoleWorld();
const { newPage, showPages } = world;

before(async () => {
  server = await world.start();
  idp = await startTestIdp({ redirectUri: `${server.url}/sso/callback` });
  await server.seed({
    users: [OWNER, MEMBER].map((u) => ({ ...u, firstName: u.email.slice(0, 2), lastName: 'Acme' })),
    accounts: [
      {
        id: ACME, name: 'Acme Surveying', owner: OWNER.email, members: [MEMBER.email], subscriptions: [{ name: 'Main', isActive: true }],
        groups: [{ id: SURVEYORS, name: 'Surveyors', users: [] }],
      },
    ],
  });
  idp.users.set('sam', { email: 'sam@acme.test', email_verified: true, given_name: 'Sam', family_name: 'Surveyor', groups: ['surveyors'] });
});
after(async () => {
  await idp?.close();
  await world.stop();
});

async function signedIn(user: { email: string; password: string }, path: string): Promise<Page> {
  const page = await newPage(DESKTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${server.url}${path}`);
  await signInThroughConsole(page, user, new RegExp(`${path.replace(/[/]/g, '\\/')}$`));
  return page;
}

/** The operator verifies a claim as docs/identity.md says: `npm run admin -- confirm-sso-domain` beside the running service. */
async function operatorConfirms(domain: string, token: string) {
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: server.server.dataDir };
  if (server.databaseUrl) env.DATABASE_URL = server.databaseUrl;
  const run = await runAdmin(env, ['confirm-sso-domain', '--domain', domain, '--token', token]);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
}

/**
 * The screen drawn while its three reads are held, then again once they are answered: every
 * section heading and form keeps its place in the page (measured from the top of main, so a
 * banner of the shell above it does not count).
 */
async function assertNoShiftWhileLoading(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const reads = /\/api\/2\/accounts\/[^/]+\/(sso|groups|scim\/token)$/;
  const isRead = (u: URL) => reads.test(u.pathname);
  await page.route(isRead, async (route) => {
    await held;
    await route.continue();
  });
  const places = () =>
    page.evaluate(() => {
      const top = document.querySelector('main')!.getBoundingClientRect().top;
      return ['#sso-provider-title', '#sso-domains-title', '#sso-rules-title', '#sso-scim-title', 'form[aria-label="New mapping rule"]'].map((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return `${s} ${Math.round(r.top - top)} ${Math.round(r.height)}`;
      });
    });
  await page.reload();
  await page.locator('#sso-displayName[disabled]').waitFor();
  const loading = await places();
  release();
  await page.locator('#sso-redirect-uri').waitFor();
  await page.getByRole('button', { name: /^Edit the rule/ }).first().waitFor();
  await page.locator('#scim-token-state').getByText(/set on/).waitFor();
  assert.deepEqual(await places(), loading, 'nothing moved when the settings arrived');
  await page.unroute(isRead);
}

test('an administrator sets up single sign-on in the console, and a user of the verified domain signs in through the IdP from the console', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('sso-admin');
  });
  const page = await signedIn(OWNER, `/console/a/${ACME}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  // Typing the moment the form is enabled (in the same task, before the next frame) is kept: the
  // form is not filled from the settings after it has taken input.
  await page.evaluate(() => {
    const typeWhenEnabled = new MutationObserver(() => {
      const input = document.querySelector<HTMLInputElement>('#sso-displayName');
      if (!input || input.disabled) return;
      typeWhenEnabled.disconnect();
      input.value = 'Typed at once';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    typeWhenEnabled.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
  });
  await page.getByRole('link', { name: 'Single sign-on' }).click();
  await page.waitForURL(new RegExp(`/console/a/${ACME}/sso$`));
  await page.getByRole('heading', { name: 'Identity provider' }).waitFor();
  await page.locator('#sso-displayName:not([disabled])').waitFor();
  await page.evaluate(() => new Promise((frame) => requestAnimationFrame(() => setTimeout(frame, 50))));
  assert.equal(await page.getByLabel('Display name').inputValue(), 'Typed at once');

  // A refusal of the service is shown next to the input it names, and focus moves there.
  await page.getByLabel('Display name').fill('Acme Login');
  await page.getByLabel('Issuer URL').fill('http://login.acme.test');
  await page.getByLabel('Client id').fill(idp.clientId);
  await page.getByLabel('New client secret').fill(idp.clientSecret);
  await page.getByLabel('Scopes').fill('openid email profile groups');
  await page.getByRole('button', { name: 'Save provider' }).click();
  const issuerError = page.locator('#sso-issuer-error');
  await issuerError.waitFor();
  assert.match((await issuerError.textContent())!, /issuer must be an https URL/);
  assert.equal(await page.getByLabel('Issuer URL').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'sso-issuer');
  await page.getByLabel('Issuer URL').fill(idp.issuer);
  await page.getByRole('button', { name: 'Save provider' }).click();
  await page.locator('#sso-redirect-uri').waitFor();
  assert.equal(await page.locator('#sso-redirect-uri').textContent(), `${server.url}/sso/callback`);
  assert.equal(await issuerError.count(), 0, 'the error is gone once saved');
  // Written once, never shown back: the form keeps the stored secret and has no input holding it.
  assert.equal(await page.getByLabel('Keep the stored one').isChecked(), true);
  assert.equal(await page.getByLabel('New client secret').inputValue(), '');
  assert.equal(await page.getByLabel('New client secret').isDisabled(), true, 'enabled only to replace it');
  await page.reload();
  await page.locator('#sso-redirect-uri').waitFor();
  assert.ok(!(await page.content()).includes(idp.clientSecret), 'the secret is nowhere in the page');
  assert.equal(await page.getByLabel('Issuer URL').inputValue(), idp.issuer);

  // A domain: claimed, its token shown once with the operator's command, verified by the operator.
  await page.getByLabel('Domain to claim').fill('acme.test');
  await page.getByRole('button', { name: 'Claim domain' }).click();
  const command = (await page.locator('#sso-operator-command').textContent())!;
  const token = /--token (scanbase-domain-\S+)$/.exec(command)?.[1];
  assert.ok(token, command);
  assert.match(await page.getByRole('row', { name: /acme\.test/ }).innerText(), /Pending/);
  const requireSwitch = page.getByRole('switch', { name: 'Require single sign-on for acme.test' });
  assert.equal(await requireSwitch.isDisabled(), true, 'not verified yet');
  await page.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.locator('#sso-operator-command').count(), 0, 'shown once');
  await operatorConfirms('acme.test', token);
  await page.reload();
  await page.getByRole('row', { name: /acme\.test/ }).getByText('Verified', { exact: true }).waitFor();
  assert.ok(!(await page.content()).includes(token), 'the token is not shown again');
  await requireSwitch.click();
  await page.getByText('acme.test requires single sign-on').waitFor();
  assert.equal(await requireSwitch.isChecked(), true);
  await page.getByRole('row', { name: /acme\.test/ }).getByText(/must sign in with single sign-on/).waitFor();

  // A mapping rule: the form's own check at its input, then added, then edited in place.
  await page.getByLabel('Value').fill('survey');
  await page.getByRole('button', { name: 'Add rule' }).click();
  assert.match((await page.locator('#rule-group-error').textContent())!, /a group, an account role, or both/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'rule-group');
  // Refused again for the same input (the button has the focus now): the focus goes back there.
  await page.getByRole('button', { name: 'Add rule' }).focus();
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.waitForFunction(() => document.activeElement?.id === 'rule-group', undefined, { timeout: 5_000 });
  await page.getByLabel('Group', { exact: true }).selectOption({ label: 'Surveyors' });
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByRole('button', { name: 'Edit the rule groups = survey' }).click();
  assert.equal(await page.getByLabel('Value').inputValue(), 'survey');
  await page.getByLabel('Value').fill('surveyors');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await page.getByRole('button', { name: 'Edit the rule groups = surveyors' }).waitFor();
  const rules = await apiAs(server, OWNER.email, 'GET', `/api/2/accounts/${ACME}/sso`);
  assert.deepEqual(rules.rules.map((r: { claim: string; value: string; group: string }) => [r.claim, r.value, r.group.split(':').at(-1)]), [['groups', 'surveyors', SURVEYORS]]);

  // The SCIM token: created, shown once with a copy button, then only "set on …".
  await page.getByRole('button', { name: 'Create token' }).click();
  const scimToken = await page.getByLabel('SCIM bearer token').inputValue();
  assert.match(scimToken, /^scim_/);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await page.getByRole('region', { name: 'New SCIM token' }).getByText('Copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), scimToken);
  const scim = await fetch(`${server.url}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${scimToken}` } });
  assert.equal(scim.status, 200, 'the token shown is the one the SCIM surface takes');
  await assertNoSeriousAxeViolations(page, 'the single sign-on screen');
  await screenshot(page, 'sso-settings');
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await page.locator('#scim-token-state').getByText(/set on/).waitFor();
  assert.ok(!(await page.content()).includes(scimToken), 'the SCIM token is not shown again');
  assert.equal(await page.getByRole('button', { name: 'Rotate token' }).count(), 1);
  await assertNoShiftWhileLoading(page);

  // A user of the domain, from the console's Sign in: the sign-in page offers the IdP, and back in the console.
  const sam = await newPage(DESKTOP);
  await sam.goto(`${server.url}/console/`);
  await sam.getByRole('button', { name: 'Sign in' }).click();
  await sam.fill('#email', 'sam@acme.test');
  await sam.click('#use-sso');
  assert.equal((await sam.textContent('#continue-sso'))?.trim(), 'Continue with Acme Login');
  await sam.click('#continue-sso');
  await sam.fill('input[name=login]', 'sam');
  await sam.fill('input[name=password]', 'any');
  await sam.click('button[type=submit]');
  await sam.click('button[type=submit]'); // the IdP's consent
  await sam.waitForURL(/\/console\/$/);
  await sam.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  await sam.getByRole('link', { name: 'Acme Surveying' }).waitFor();
  const groups = await apiAs(server, OWNER.email, 'GET', `/api/2/accounts/${ACME}/groups`);
  const users = await apiAs(server, OWNER.email, 'GET', `/api/2/accounts/${ACME}/users`);
  const samId = users.find((u: { email: string }) => u.email === 'sam@acme.test')?.id.split(':').at(-1);
  assert.ok(samId, 'created just in time, a member of the account');
  const surveyors = groups.find((g: { name: string }) => g.name === 'Surveyors');
  assert.ok(surveyors.userIds.some((id: string) => id.endsWith(samId)), 'in the group the rule maps');
  // Not an administrator: no link to the screen for him.
  await sam.goto(`${server.url}/console/a/${ACME}`);
  await sam.getByText(/Needs account:projects:create/).waitFor(); // the account is read: the links it decides are drawn
  assert.equal(await sam.getByRole('link', { name: 'Single sign-on' }).count(), 0);
  done = true;
});

test('a member who is not an administrator has no link to the screen, and its address shows the service\'s refusal with the permission it needs', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('sso-member');
  });
  const page = await signedIn(MEMBER, `/console/a/${ACME}`);
  await page.getByText(/Needs account:projects:create/).waitFor(); // the account is read: the links it decides are drawn
  assert.equal(await page.getByRole('link', { name: 'Single sign-on' }).count(), 0);
  await page.goto(`${server.url}/console/a/${ACME}/sso`);
  const alert = page.locator('.error[role=alert]');
  await alert.waitFor();
  const text = await alert.innerText();
  assert.match(text, /403 \(read-sso-forbidden\)/);
  assert.match(text, /account:administrators:read/);
  assert.equal(await page.getByRole('heading', { name: 'Identity provider' }).count(), 0, 'no form behind the refusal');
  done = true;
});
