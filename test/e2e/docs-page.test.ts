// The docs pages work (issue 14, item 8): in headless Chromium a person opens /api/2/docs,
// presses Authorize, signs in and allows in the pop-up (the docs page's own redirect on
// PUBLIC_URL, a [a-z0-9] state), and then runs GET /api/2/accounts from the page: 200.
// /api/docs does the same for API 1. (Which addresses are accepted on a public origin:
// test/unit/docs-page-redirects.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from '../support/browser.ts';
import { pkcePair, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';

const USER = { email: 'dora@docs.test', password: 'dora-password-1' };

let server: OAuthServer;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  const [s, b] = await Promise.allSettled([startOAuthServer(), launchBrowser()]);
  if (s.status === 'fulfilled') server = s.value;
  if (b.status === 'fulfilled') browser = b.value;
  for (const r of [s, b]) if (r.status === 'rejected') throw r.reason;
  await server.seed({
    users: [{ ...USER, firstName: 'Dora', lastName: 'Docs' }],
    accounts: [{ name: 'Docs Inc', owner: USER.email }],
  });
  context = await browser.newContext();
});
after(async () => {
  await context?.close();
  await closeBrowser(browser);
  await server?.stop();
});

/** Presses Authorize on the docs page and approves in the pop-up (signing in when asked); answers the authorize address used. */
async function authorizeFromDocsPage(page: Page): Promise<URL> {
  await page.locator('.auth-wrapper .btn.authorize').click();
  const modal = page.locator('.modal-ux');
  await modal.waitFor();
  const [popup] = await Promise.all([page.waitForEvent('popup'), modal.locator('.auth-btn-wrapper .btn.modal-btn.auth.authorize').click()]);
  await popup.waitForLoadState('domcontentloaded');
  const authorizeUrl = new URL(popup.url());
  if (await popup.locator('#email').count()) {
    await popup.fill('#email', USER.email);
    await popup.fill('#password', USER.password);
    await Promise.all([popup.waitForURL(/\/oauth\/authorize\?/), popup.click('button[type=submit]')]);
  }
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Allow' }).click()]);
  // swagger-ui exchanges the code (PKCE) and shows Logout once it holds the token.
  await modal.locator('.auth-btn-wrapper button', { hasText: 'Logout' }).waitFor({ timeout: 15_000 });
  await modal.locator('.close-modal').click();
  return authorizeUrl;
}

/** Unfolds the operation's tag (tags start folded), opens the operation, presses Try it out and Execute; answers the status the page shows. */
async function runOperation(page: Page, opblockId: string): Promise<{ status: string; body: string }> {
  const tag = opblockId.split('-')[1]!;
  await page.locator(`#operations-tag-${tag}`).click();
  const block = page.locator(`#${opblockId}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('.try-out__btn').click();
  await block.locator('.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 15_000 });
  const body = (await block.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '';
  return { status: (await status.textContent())!.trim(), body };
}

test('the API 2 docs page: Authorize signs in with PKCE and a [a-z0-9] state, then Try it out runs GET /api/2/accounts: 200', async () => {
  const page = await context.newPage();
  const res = await page.goto(`${server.url}/api/2/docs`);
  assert.equal(res?.status(), 200);
  // No inline script: the state plugin is a served file.
  const csp = res!.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self';/);
  assert.doesNotMatch(csp, /unsafe-inline|upgrade-insecure-requests/);
  await page.locator('.auth-wrapper .btn.authorize').waitFor({ timeout: 30_000 });
  // Every tag of the document is on the page (with all operations unfolded, swagger-ui once
  // stopped after the first tag).
  const doc = (await (await fetch(`${server.url}/api/2/docs/json`)).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const tags = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags ?? [])));
  await page.locator('.opblock-tag-section').nth(tags.size - 1).waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('.opblock-tag-section').count(), tags.size);

  const authorizeUrl = await authorizeFromDocsPage(page);
  assert.equal(authorizeUrl.pathname, '/oauth/authorize');
  assert.match(authorizeUrl.searchParams.get('state') ?? '', /^[a-z0-9]+$/);
  assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${server.url}/api/2/docs/static/oauth2-redirect.html`);

  const { status, body } = await runOperation(page, 'operations-Account-getAccounts');
  assert.equal(status, '200');
  assert.match(body, /Docs Inc/);
  await page.close();
});

test('the API 1 docs page at /api/docs shows API 1 and, after Authorize, runs GET /api/isLogged: 200', async () => {
  const page = await context.newPage();
  const res = await page.goto(`${server.url}/api/docs`);
  assert.equal(res?.status(), 200);
  await page.locator('.auth-wrapper .btn.authorize').waitFor({ timeout: 30_000 });
  assert.match((await page.locator('.info .title').textContent()) ?? '', /Scanbase API 1/);
  const authorizeUrl = await authorizeFromDocsPage(page);
  assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${server.url}/api/docs/static/oauth2-redirect.html`);
  const { status, body } = await runOperation(page, 'operations-default-isLogged');
  assert.equal(status, '200');
  assert.match(body, /"success": true/);
  await page.close();
});

test('the docs pages’ redirect addresses are accepted, and state stays [a-z0-9]+ (swagger-ui’s base64 state is refused)', async () => {
  const { challenge } = pkcePair();
  const authorize = (redirectUri: string, state = 'abc123') =>
    fetch(`${server.url}/oauth/authorize?${new URLSearchParams({ redirect_uri: redirectUri, state, code_challenge: challenge, code_challenge_method: 'S256' })}`);
  const docs = `${server.url}/api/2/docs/static/oauth2-redirect.html`;
  assert.equal((await authorize(docs)).status, 200);
  assert.equal((await authorize(`${server.url}/api/docs/static/oauth2-redirect.html`)).status, 200);
  // swagger-ui's own state (base64 of a date) is still refused.
  assert.equal((await authorize(docs, 'V2VkIE5vdiAyNSAyMDI2')).status, 400);
});
