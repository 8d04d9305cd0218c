// The console's account features (issue 26 items 1 and 4, issue 27 "Mail without SMTP") in
// headless Chromium against one started service (no SMTP_URL: mail stays in the outbox):
// - "Sign out everywhere" from the account menu ends this console's session, another
//   browser's and an API token, and each console says what happened;
// - a password reset's last page leads to the console, which explains the reset and offers
//   "Sign out everywhere";
// - the account's users list marks an invited user who has not accepted as pending, the
//   pending view lists only them, and Withdraw withdraws the invitation;
// - the signed-in user's own invitations are on the accounts screen and his account screen
//   (with their number in the account menu): Accept makes him a member, Decline drops it;
// - the account's notices ("E-mail is off") are a banner for those who invite users, in the
//   page's flow (never over the 3D view's controls), dismissed for the session.
// axe-core finds no serious or critical violation on each of these screens at 1280 × 800 and 390 × 844.
// @engine-independent (the console is a client of the API; the API's data path is tested elsewhere)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, screenshot, signInThroughConsole } from '../support/console.ts';
import { DEMO_OWNER, DEMO_VIEWER, demoSite, type DemoSite } from '../support/console-demo.ts';

let server: OAuthServer;
let site: DemoSite;
const world = consoleWorld();
const { newPage, showPages } = world;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** The owner of two other accounts, which invite the demo's Viewer. */
const OLGA = { email: 'olga@other.test', password: 'olga-password-1' };
/** A member of the demo account who resets his password. */
const RAE = { email: 'rae@console.test', password: 'rae-password-1' };
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  server = await world.start();
  site = await demoSite(server);
  await server.seed({
    users: [OLGA, RAE].map((u) => ({ ...u, firstName: u.email.slice(0, 4), lastName: 'Test' })),
    accounts: [
      { name: 'Other Ltd', owner: OLGA.email, subscriptions: [{ name: 'Other', isActive: true }] },
      { name: 'Third Co', owner: OLGA.email, subscriptions: [{ name: 'Third', isActive: true }] },
      // The demo's account as demoSite seeded it, with one more member.
      { name: 'Console Inc', owner: DEMO_OWNER.email, projectManagers: [DEMO_OWNER.email], members: [DEMO_VIEWER.email, RAE.email], subscriptions: [{ name: 'Main', isActive: true }] },
    ],
  });
});
after(() => world.stop());

/** axe at both sizes on what the page shows now; the page is left at its first size. */
async function axeAtBothSizes(page: Page, screen: string): Promise<void> {
  const size = page.viewportSize() ?? DESKTOP;
  for (const v of [DESKTOP, PHONE]) {
    await page.setViewportSize(v);
    await assertNoSeriousAxeViolations(page, `${screen} at ${v.width}×${v.height}`);
  }
  await page.setViewportSize(size);
}

async function signedIn(user: { email: string; password: string }, path = '/console/', backTo = /\/console\/$/, viewport = DESKTOP): Promise<Page> {
  const page = await newPage(viewport);
  // Pico's colour transitions off, so axe reads the final colours of a button just pressed.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${server.url}${path}`);
  await signInThroughConsole(page, user, backTo);
  return page;
}

const accountMenu = (page: Page) => page.getByRole('button', { name: /^Your account/ });

test('sign out everywhere: the account menu ends this console\'s session, another browser\'s and an API token issued before, and each console says what happened', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-everywhere');
  });
  const here = await signedIn(DEMO_OWNER);
  const elsewhere = await signedIn(DEMO_OWNER, `/console/a/${site.accountId}`, new RegExp(`/console/a/${site.accountId}$`));
  await elsewhere.getByRole('link', { name: 'Refinery north' }).waitFor();
  const { access_token: cliToken } = await server.operator<{ access_token: string }>('POST', '/tokens', { email: DEMO_OWNER.email });
  const isLogged = async () => (await fetch(`${server.url}/api/isLogged`, { headers: { authorization: `Bearer ${cliToken}` } })).status;
  assert.equal(await isLogged(), 200);

  // The menu: who is signed in, Your account, Sign out everywhere.
  await accountMenu(here).click();
  const menu = here.locator('.account-menu .menu');
  await menu.getByText(`Signed in as ${DEMO_OWNER.email}`).waitFor();
  await axeAtBothSizes(here, 'the account menu, open');
  await menu.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = here.getByRole('dialog', { name: 'Sign out everywhere?' });
  await dialog.getByText(/^Every session of yours ends/).waitFor();
  await axeAtBothSizes(here, 'the sign-out-everywhere dialog');
  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await isLogged(), 200);

  await accountMenu(here).click();
  await menu.getByRole('button', { name: 'Sign out everywhere' }).click();
  const [call, end] = await Promise.all([
    here.waitForResponse((r) => new URL(r.url()).pathname === '/api/2/me/sign-out-everywhere'),
    here.waitForResponse((r) => new URL(r.url()).pathname === '/console/session/end'),
    dialog.getByRole('button', { name: 'Sign out everywhere' }).click(),
  ]);
  assert.equal(call.status(), 204);
  assert.equal(end.status(), 200, 'then the console ends its own session (its cookie)');
  // This console: signed out, and told why.
  await here.getByRole('heading', { name: 'Signed out everywhere' }).waitFor();
  await here.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal((await here.context().cookies()).some((c) => c.name === 'sb_console'), false, 'the console cookie is cleared');
  await axeAtBothSizes(here, 'signed out everywhere');
  // The token issued before is refused.
  assert.equal(await isLogged(), 401);
  // The other browser's console: its next call is refused, its session with it, and it says so.
  await elsewhere.getByRole('link', { name: 'Refinery north' }).click();
  await elsewhere.getByRole('heading', { name: 'Your session has ended' }).waitFor();
  await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();
  // A reload of this console stays signed out (the cookie's refresh token is revoked).
  await here.reload();
  await here.getByRole('button', { name: 'Sign in' }).waitFor();
  done = true;
});

test('after a password reset: the reset\'s last page opens the console, which says every session ended and offers Sign out everywhere', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-after-reset');
  });
  const page = await newPage(DESKTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${server.url}/forgot-password`);
  await page.fill('#email', RAE.email);
  await page.click('button[type=submit]');
  await page.locator('#sent').waitFor();
  // The reset mail is made off the request path (the same answer time for every address): wait for it.
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    const outbox = await server.operator<{ to: string; links: string[] }[]>('GET', '/outbox');
    link = outbox.filter((m) => m.to === RAE.email).flatMap((m) => m.links).find((l) => l.includes('/password-reset/'));
    if (!link) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(link, 'the reset link is in the outbox');
  await page.goto(link);
  const newPassword = 'rae-new-password-2';
  await page.fill('#password', newPassword);
  await page.fill('#confirm', newPassword);
  await page.click('button[type=submit]');
  await page.locator('#signed-out-everywhere').waitFor();
  await page.getByRole('link', { name: 'Open the console' }).click();

  // The console drops the marker from its address, explains, and asks to sign in.
  await page.waitForURL(/\/console\/$/);
  await page.getByRole('heading', { name: 'Your password was changed' }).waitFor();
  await signInThroughConsole(page, { email: RAE.email, password: newPassword }, /\/console\/$/);
  const prompt = page.locator('section.banner.prompt');
  await prompt.getByRole('heading', { name: 'Your password was changed' }).waitFor();
  await prompt.getByRole('button', { name: 'Sign out everywhere' }).waitFor();
  await axeAtBothSizes(page, 'the prompt after a reset');
  // Dismissed, it stays away after a reload.
  await prompt.getByRole('button', { name: 'Dismiss the password notice' }).click();
  await prompt.waitFor({ state: 'detached' });
  await page.reload();
  await page.getByRole('link', { name: 'Console Inc' }).waitFor();
  assert.equal(await page.locator('section.banner.prompt').count(), 0);
  done = true;
});

test('pending invitations: the users list marks an invited user who has not accepted, the pending view lists only them, and Withdraw withdraws the invitation', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-pending');
  });
  const newcomer = 'newcomer@console.test';
  const page = await signedIn(DEMO_OWNER, `/console/a/${site.accountId}/users`, /\/users$/);
  await page.getByRole('table').waitFor();
  await page.fill('#invite-email', newcomer);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await page.locator('.toast').filter({ hasText: `${newcomer} is invited: they join when they accept` }).waitFor();
  const row = page.getByRole('row').filter({ hasText: newcomer });
  await row.getByText('Pending', { exact: true }).waitFor();
  // Members carry no marker.
  assert.equal(await page.getByRole('row').filter({ hasText: DEMO_VIEWER.email }).getByText('Pending', { exact: true }).count(), 0);
  await axeAtBothSizes(page, 'users with a pending invitee');

  // The pending view: only those who have not accepted.
  await page.getByRole('button', { name: 'Pending invitations (1)' }).click();
  const rows = page.getByRole('row');
  assert.equal(await rows.count(), 2, 'a header and one pending row');
  await rows.filter({ hasText: newcomer }).waitFor();
  await axeAtBothSizes(page, 'pending invitations');

  // Withdraw, confirmed in a dialog: the API no longer lists him.
  await row.getByRole('button', { name: `Withdraw invitation to ${newcomer}` }).click();
  await page.getByRole('dialog', { name: 'Withdraw the invitation?' }).getByRole('button', { name: 'Withdraw invitation' }).click();
  await page.locator('.toast').filter({ hasText: `Invitation to ${newcomer} withdrawn` }).waitFor();
  await page.getByText('No invitation is waiting for an answer.').waitFor();
  const users = await apiAs(server, DEMO_OWNER.email, 'GET', `/api/2/accounts/${site.accountId}/users`);
  assert.equal(users.some((u: { email: string }) => u.email === newcomer), false);
  await screenshot(page, 'account-pending-withdrawn');
  done = true;
});

test('the user\'s own invitations: on the accounts screen and his account screen, counted in the account menu; Accept makes him a member, Decline drops it', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-my-invitations');
  });
  const olgaAccounts = await apiAs(server, OLGA.email, 'GET', '/api/2/accounts');
  for (const name of ['Other Ltd', 'Third Co']) {
    const a = olgaAccounts.find((x: { name: string }) => x.name === name);
    await apiAs(server, OLGA.email, 'POST', `/api/2/accounts/${uuidOf(a.id)}/users/bulk-invite`, [{ email: DEMO_VIEWER.email, roles: ['projectLister'] }]);
  }
  const page = await signedIn(DEMO_VIEWER);
  const invitations = page.getByRole('region', { name: /^Invitations/ });
  const other = invitations.getByRole('listitem').filter({ hasText: '“Other Ltd”' });
  await other.waitFor();
  await other.getByText(/Invited by “olga Test”/).waitFor();
  await other.getByText('as Project lister').waitFor();
  await invitations.getByRole('listitem').filter({ hasText: '“Third Co”' }).waitFor();
  await page.getByRole('button', { name: `Your account: ${DEMO_VIEWER.email} 2 invitations waiting` }).waitFor();
  // Not a member yet: the account is not in his list.
  assert.equal(await page.getByRole('link', { name: 'Other Ltd' }).count(), 0);
  await axeAtBothSizes(page, 'accounts with invitations');

  await other.getByRole('button', { name: 'Accept the invitation to “Other Ltd”' }).click();
  await page.locator('.toast').filter({ hasText: 'You joined “Other Ltd”' }).waitFor();
  await page.getByRole('link', { name: 'Other Ltd' }).waitFor();
  await page.getByRole('button', { name: `Your account: ${DEMO_VIEWER.email} 1 invitation waiting` }).waitFor();

  // His account screen, from the menu: the other invitation, declined there.
  await accountMenu(page).click();
  await page.getByRole('link', { name: /^Your account \(1 invitation\)/ }).click();
  await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
  const third = page.getByRole('region', { name: /^Invitations/ }).getByRole('listitem').filter({ hasText: '“Third Co”' });
  await third.waitFor();
  await axeAtBothSizes(page, 'the account screen');
  await third.getByRole('button', { name: 'Decline the invitation to “Third Co”' }).click();
  await page.getByText('No invitation is waiting for you.').waitFor();
  await page.getByRole('button', { name: `Your account: ${DEMO_VIEWER.email}`, exact: true }).waitFor();
  assert.deepEqual(await apiAs(server, DEMO_VIEWER.email, 'GET', '/api/2/me/invitations'), []);
  const mine = (await apiAs(server, DEMO_VIEWER.email, 'GET', '/api/2/accounts')).map((a: { name: string }) => a.name).sort();
  assert.deepEqual(mine, ['Console Inc', 'Other Ltd']);
  done = true;
});

test('the account\'s notices: "E-mail is off" is a banner for those who invite users, in the page\'s flow beside the 3D view, dismissed for the session; a member is not told', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-notices');
  });
  for (const viewport of [DESKTOP, PHONE]) {
    const size = `${viewport.width}×${viewport.height}`;
    const page = await signedIn(DEMO_OWNER, `/console/a/${site.accountId}`, new RegExp(`/console/a/${site.accountId}$`), viewport);
    const banner = page.getByRole('region', { name: 'Notice: E-mail is off' });
    await banner.getByText('npm run admin -- outbox').waitFor();
    await assertNoSeriousAxeViolations(page, `projects with a notice at ${size}`);

    // The zone's screen: the banner is above the workspace; the 3D view and its controls are clear of it.
    await page.goto(`${server.url}${site.zonePath('tags')}`);
    await page.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
    await banner.waitFor();
    // (No function declared inside evaluate: the test's compiler would name it with a helper the page lacks.)
    const [bannerBox, canvas, tools, centre] = await page.evaluate(() =>
      ['section.banner.notice', 'canvas.scene', '.scene-tools', 'main .centre'].map((s) => document.querySelector(s)!.getBoundingClientRect().toJSON() as DOMRect),
    );
    const boxes = { banner: bannerBox!, canvas: canvas!, tools: tools!, centre: centre! };
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    assert.equal(overlaps(boxes.banner, boxes.tools), false, `the banner covers the view's controls: ${JSON.stringify(boxes)}`);
    assert.equal(overlaps(boxes.banner, boxes.canvas), false, `the banner covers the view: ${JSON.stringify(boxes)}`);
    for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(boxes.canvas[k] - boxes.centre[k]) <= 1, `the view fills its panel: ${JSON.stringify(boxes)}`);
    if (viewport.width > 760) assert.ok(Math.abs(boxes.canvas.y + boxes.canvas.height - viewport.height) <= 1, `the view reaches the window's bottom: ${JSON.stringify(boxes)}`);
    // Beside the view it takes one line until opened.
    const lineHeight = await banner.locator('p').evaluate((e) => parseFloat(getComputedStyle(e).lineHeight));
    assert.ok(boxes.banner.height < 2 * lineHeight + 20, `one line: ${boxes.banner.height}`);
    await assertNoSeriousAxeViolations(page, `zone with a notice at ${size}`);
    await banner.getByRole('button', { name: 'More' }).click();
    await banner.getByRole('button', { name: 'Less' }).waitFor();
    assert.ok((await banner.boundingBox())!.height > boxes.banner.height, 'opened, the whole notice');
    await banner.getByRole('button', { name: 'Less' }).click();
    if (viewport === DESKTOP) await screenshot(page, 'account-notice-zone');

    // Dismissed: gone on every screen of this tab, after a reload too; a new browser sees it again.
    await banner.getByRole('button', { name: 'Dismiss the notice “E-mail is off” for this session' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
    await page.goto(`${server.url}/console/a/${site.accountId}/users`);
    await page.getByRole('table').waitFor();
    assert.equal(await page.locator('section.banner.notice').count(), 0);
  }
  const fresh = await signedIn(DEMO_OWNER, `/console/a/${site.accountId}`, new RegExp(`/console/a/${site.accountId}$`));
  await fresh.getByRole('region', { name: 'Notice: E-mail is off' }).waitFor();

  // A member who does not invite users is not told (the service answers him no notice).
  const member = await signedIn(DEMO_VIEWER, `/console/a/${site.accountId}`, new RegExp(`/console/a/${site.accountId}$`));
  // Every notices answer he gets is read as it passes (a response's body is gone once the page
  // navigates, and the load before the reload may answer late on a busy machine).
  const answers: unknown[] = [];
  await member.route(`**/api/2/accounts/${site.accountId}/notices`, async (route) => {
    const response = await route.fetch();
    answers.push(await response.json());
    await route.fulfill({ response });
  });
  await member.reload();
  await member.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await member.locator('main .loading').waitFor({ state: 'detached' });
  for (let waited = 0; !answers.length && waited < 30_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  assert.ok(answers.length > 0, 'the console asked for the notices');
  for (const a of answers) assert.deepEqual(a, []);
  assert.equal(await member.locator('section.banner.notice').count(), 0);
  done = true;
});

test('errors and loading on the account screens: a failed load shows its error with Try again, never beside a spinner, and Try again loads it (users, groups, roles, reports)', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-load-errors');
  });
  const page = await signedIn(DEMO_OWNER, `/console/a/${site.accountId}`, new RegExp(`/console/a/${site.accountId}$`));
  await page.getByRole('link', { name: 'Refinery north' }).waitFor();
  for (const [screen, loaded] of [
    ['users', () => page.getByRole('cell', { name: DEMO_VIEWER.email, exact: true })],
    ['groups', () => page.getByRole('heading', { name: 'Groups', level: 1 })],
    ['roles', () => page.getByRole('cell', { name: 'Viewer', exact: true })],
    ['reports', () => page.getByRole('button', { name: /^Export .* as CSV$/ }).first()],
  ] as const) {
    // The service's API fails at the network (every call of the screen).
    await page.route(/\/api\//, (r) => r.abort('connectionrefused'));
    await page.goto(`${server.url}/console/a/${site.accountId}/${screen}`);
    const error = page.locator('main .error').first();
    await error.waitFor();
    await error.getByRole('button', { name: 'Try again' }).waitFor();
    assert.equal(await page.locator('main [aria-busy=true]').count(), 0, `${screen}: no spinner beside the error`);
    await assertNoSeriousAxeViolations(page, `${screen}, failed`);
    await page.unroute(/\/api\//);
    // Each failed load has its own Try again (the reports screen has two).
    // Last first: an error that goes does not move the ones before it.
    const retries = page.locator('main').getByRole('button', { name: 'Try again' });
    for (let i = (await retries.count()) - 1; i >= 0; i--) await retries.nth(i).click();
    await loaded().waitFor();
    // Every load of the screen ends without an error (the reports' two come back one by one).
    await page.locator('main .error').first().waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await page.locator('main .error').count(), 0, `${screen}: the error is gone`);
  }
  done = true;
});

test('a request without an answer times out: its error says so with Try again (no spinner beside it), and Try again loads the screen', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('account-timeout');
  });
  const page = await newPage(DESKTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // The page's clock, moved by the test past the request's time limit (30 s) instead of waiting.
  await page.clock.install();
  await page.goto(`${server.url}/console/`);
  await signInThroughConsole(page, DEMO_OWNER, /\/console\/$/);
  await page.getByRole('link', { name: 'Console Inc' }).waitFor();
  // The users' list is asked and never answered (the route is kept, never handled).
  const stalled: Route[] = [];
  await page.route(/\/api\/2\/accounts\/[^/]+\/users$/, (r) => void stalled.push(r));
  await Promise.all([page.waitForRequest(/\/users$/), page.goto(`${server.url}/console/a/${site.accountId}/users`)]);
  await page.getByRole('status').filter({ hasText: 'Loading users' }).waitFor();
  await page.clock.fastForward(31_000);
  const error = page.locator('main .error').first();
  await error.getByText(/did not answer in time/).waitFor();
  await error.getByRole('button', { name: 'Try again' }).waitFor();
  assert.equal(await page.locator('main [aria-busy=true]').count(), 0, 'no spinner beside the error');
  await assertNoSeriousAxeViolations(page, 'users, timed out');
  assert.equal(stalled.length, 1);
  await page.unroute(/\/api\/2\/accounts\/[^/]+\/users$/);
  await error.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('cell', { name: DEMO_VIEWER.email, exact: true }).waitFor();
  assert.equal(await page.locator('main .error').count(), 0);
  done = true;
});
