// The invitation journey end to end, against a real started server and headless
// Chromium: the account owner invites a new e-mail (POST users/bulk-invite), the link is
// read from the operator outbox, the invitee sets a password on the invitation page, then
// signs in through /oauth/authorize (Allow), the code is exchanged with PKCE, and the new
// user's token lists the account. Also: the link is single use, mismatched passwords keep
// the form with an error, a short password is refused (by the browser and by the server).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from '../support/browser.ts';
import { authorizePath, bearerGet, exchangeCode, pkcePair, randomState, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';

const OWNER = { email: 'olivia@invite.test', password: 'olivia-password-1' };
const INVITEE = 'ivan@invite.test';
const PASSWORD = 'ivan-password-12';
const ACCOUNT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

let server: OAuthServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let link: string;

interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

before(async () => {
  // Settled one by one, so that `after` can stop whichever started when the other failed
  // (a browser left open would keep this test process alive for ever).
  const [s, b] = await Promise.allSettled([startOAuthServer(), launchBrowser()]);
  if (s.status === 'fulfilled') server = s.value;
  if (b.status === 'fulfilled') browser = b.value;
  if (s.status === 'rejected') throw s.reason;
  if (b.status === 'rejected') throw b.reason;
  await server.seed({
    users: [{ ...OWNER, firstName: 'Olivia', lastName: 'Owner' }],
    accounts: [{ id: ACCOUNT_ID, name: 'Invite Co', owner: OWNER.email, subscriptions: [{ name: 'Pro' }] }],
  });
});
after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await closeBrowser(browser);
  await server?.stop();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

/** An assertion message with the end of the server's log (JSON lines, no secrets), to diagnose a 5xx. */
const withLogs = (message: string) => `${message}\n--- server log ---\n${server.server.logs().slice(-6000)}`;

async function api(token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('the owner invites a new e-mail: 201, and the outbox holds one invitation with a link to this server', async () => {
  const { access_token } = await server.operator<{ access_token: string }>('POST', '/tokens', { email: OWNER.email });
  const res = await api(access_token, 'POST', `/api/2/accounts/${ACCOUNT_ID}/users/bulk-invite`, [{ email: INVITEE }]);
  assert.equal(res.status, 201, withLogs(JSON.stringify(res.body)));
  assert.equal(res.body[0].email, INVITEE);

  const outbox = await server.operator<Mail[]>('GET', '/outbox');
  const mails = outbox.filter((m) => m.to === INVITEE);
  assert.equal(mails.length, 1);
  assert.match(mails[0]!.text, /the account “Invite Co”/, 'the account\'s name, quoted, in the text (the subject holds nothing of the inviting side)');
  assert.equal(mails[0]!.links.length, 1);
  link = mails[0]!.links[0]!;
  assert.ok(link.startsWith(`${server.url}/invitations/`), link);
  assert.ok(mails[0]!.text.includes(link));
});

test('mismatched passwords keep the form, with an error, and do not use the link', async () => {
  const page = await newPage();
  const res = await page.goto(link);
  assert.equal(res?.status(), 200);
  assert.match((await page.textContent('main'))!, new RegExp(INVITEE.replace('.', '\\.')));
  await page.fill('#password', PASSWORD);
  await page.fill('#confirm', `${PASSWORD}-typo`);
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
  assert.equal(answer.status(), 400);
  await page.waitForLoadState();
  assert.match((await page.getByRole('alert').textContent())!, /differ/);
  assert.ok(await page.locator('#password').isVisible());
  assert.ok(await page.locator('#confirm').isVisible());
  assert.equal(await page.locator('#done').count(), 0);
});

test('a short password is refused: the browser will not submit it, and the server refuses it when forced', async () => {
  const page = await newPage();
  await page.goto(link);
  await page.fill('#password', 'short');
  await page.fill('#confirm', 'short');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push(r.url());
  });
  await page.click('button[type=submit]');
  assert.equal(await page.locator('#password').evaluate((el) => (el as HTMLInputElement).validity.valid), false);
  assert.deepEqual(posts, [], 'the browser did not send the form');

  // Without the page's own check (an old browser, a script), the server refuses too.
  await page.locator('#password').evaluate((el) => el.removeAttribute('minlength'));
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
  assert.equal(answer.status(), 400);
  await page.waitForLoadState();
  assert.match((await page.getByRole('alert').textContent())!, /8/);
  assert.ok(await page.locator('#password').isVisible(), 'the form is shown again');
});

test('the invitee sets the password in the page and sees "Password set"; the link then answers 404', async () => {
  const page = await newPage();
  await page.goto(link);
  await page.fill('#firstName', 'Ivan');
  await page.fill('#lastName', 'Invitee');
  await page.fill('#password', PASSWORD);
  await page.fill('#confirm', PASSWORD);
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
  assert.equal(answer.status(), 200);
  await page.waitForLoadState();
  assert.match(await page.title(), /Password set/);
  assert.match((await page.textContent('#done'))!, new RegExp(INVITEE.replace('.', '\\.')));

  // Single use: a second visit (same or another browser) answers the 404 page.
  const again = await page.goto(link);
  assert.equal(again?.status(), 404);
  assert.ok(await page.getByRole('alert').isVisible());
  assert.equal(await page.locator('#password').count(), 0);
  const other = await newPage();
  assert.equal((await other.goto(link))?.status(), 404);
  // Posting to the used link changes nothing either.
  const post = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: 'another-password-1', confirm: 'another-password-1' }),
  });
  assert.equal(post.status, 404);
});

test('the invitee signs in through /oauth/authorize in the browser, the code is exchanged with PKCE, and GET /api/2/accounts lists the account', async () => {
  const page = await newPage();
  const state = randomState();
  const { verifier, challenge } = pkcePair();
  const res = await page.goto(`${server.url}${authorizePath({ redirectUri: '/', state, codeChallenge: challenge })}`);
  assert.equal(res?.status(), 200);
  await page.fill('#email', INVITEE);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
  await Promise.all([page.waitForURL(`${server.url}/?**`), page.getByRole('button', { name: 'Allow' }).click()]);
  assert.equal((await page.textContent('#state'))!.trim(), state);
  const code = (await page.textContent('#code'))!.trim();

  const exchanged = await exchangeCode(server.http, code, '/', verifier);
  assert.equal(exchanged.status, 200, withLogs(exchanged.body));
  const tokens = JSON.parse(exchanged.body) as { access_token: string; user_id: string };
  assert.match(tokens.user_id, /^urn:svc:user:/);

  const accounts = await bearerGet(server.http, '/api/2/accounts', tokens.access_token);
  assert.equal(accounts.status, 200, withLogs(accounts.body));
  const list = JSON.parse(accounts.body);
  assert.equal(list.length, 1);
  assert.equal(list[0].id, `urn:svc:account:${ACCOUNT_ID}`);
  assert.equal(list[0].name, 'Invite Co');
  assert.deepEqual(list[0].permissions, { isOwner: false, isAdmin: false, isManager: false, isProjectLister: false });

  // The names typed in the page are the user's.
  const { access_token } = await server.operator<{ access_token: string }>('POST', '/tokens', { email: OWNER.email });
  const me = await api(access_token, 'GET', `/api/2/accounts/${ACCOUNT_ID}/users/${tokens.user_id}`);
  assert.equal(me.status, 200);
  assert.equal(me.body.firstName, 'Ivan');
  assert.equal(me.body.lastName, 'Invitee');
  assert.equal(me.body.invitedBy, list[0].ownerId);
});

test('the refused passwords were never stored: signing in with them fails', async () => {
  for (const wrong of ['short', `${PASSWORD}-typo`]) {
    const page = await newPage();
    await page.goto(`${server.url}${authorizePath({ redirectUri: '/', state: 'refused' })}`);
    await page.fill('#email', INVITEE);
    await page.fill('#password', wrong);
    const [answer] = await Promise.all([page.waitForResponse(/\/oauth\/login$/), page.click('button[type=submit]')]);
    assert.equal(answer.status(), 401);
  }
});
