// The console's operator page (issue 32 item 5) in headless Chromium against one started
// service with SANDBOX=1 and OPERATOR_TOKEN, reached without an account session:
// - a wrong operator token is refused with a message saying so; the right one opens the
//   tools, and the token is in no storage and no address (a reload asks for it again);
// - a refused API request shows in the journal (followed with the long poll) with its rule;
// - a fault rule added with the form is applied to the next matching request and counted;
// - a snapshot saved, the clock moved, the snapshot restored through its confirmation
//   dialog: the clock is back where it was at the save;
// - axe-core finds no serious or critical violation at 1280 × 800 and 390 × 844.
// @engine-independent (the console is a client of the operator API; its data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { E2E_OPERATOR_TOKEN, type OAuthServer } from '../support/oauth-client.ts';
import { assertNoSeriousAxeViolations, consoleWorld, screenshot } from '../support/console.ts';

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A user whose token passes the bearer check (fault rules match after it). */
const PAT = { email: 'pat@operator.test', password: 'pat-password-1' };
let patToken: string;
/** Pat's subscription (a PATCH with an unknown field is a schema refusal). */
let subscriptionPath: string;

before(async () => {
  server = await world.start();
  const seeded = await server.seed({
    users: [{ ...PAT, firstName: 'Pat', lastName: 'Test' }],
    accounts: [{ name: 'Operator Ltd', owner: PAT.email, subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  subscriptionPath = `/api/2/accounts/${seeded.accounts[0].id}/subscriptions/${seeded.accounts[0].subscriptions[0].id}`;
  patToken = (await server.operator<{ access_token: string }>('POST', '/tokens', { email: PAT.email })).access_token;
});
after(() => world.stop());

async function axeAtBothSizes(page: Page, screen: string): Promise<void> {
  for (const v of [DESKTOP, PHONE]) {
    await page.setViewportSize(v);
    await assertNoSeriousAxeViolations(page, `${screen} at ${v.width}×${v.height}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** The operator page, opened with the right token. */
async function operatorPage(): Promise<Page> {
  const page = await newPage(DESKTOP);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${server.url}/console/operator`);
  await page.getByLabel('Operator token').fill(E2E_OPERATOR_TOKEN);
  await page.getByRole('button', { name: 'Open the operator tools' }).click();
  await page.getByRole('heading', { name: 'Request journal' }).waitFor();
  return page;
}

/** Runs `f` and shows what the pages showed when it fails. */
async function showingPagesOnFailure(name: string, f: () => Promise<void>): Promise<void> {
  try {
    await f();
  } catch (e) {
    await showPages(name);
    throw e;
  }
}

test('the operator token: a wrong one is refused with a message saying so, the right one opens the tools without an account session, and it is kept in memory only', () =>
  showingPagesOnFailure('operator-token', async () => {
    const page = await newPage(DESKTOP);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const sessionCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/console/session')) sessionCalls.push(r.url());
    });
    await page.goto(`${server.url}/console/operator`);
    await page.getByRole('heading', { name: 'Operator' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign in' }).count(), 0, 'no account sign-in is asked for');
    await axeAtBothSizes(page, 'the operator token form');

    const wrong = 'not-the-operator-token-of-this-service';
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/_operator/snapshots'),
      (async () => {
        await page.getByLabel('Operator token').fill(wrong);
        await page.getByRole('button', { name: 'Open the operator tools' }).click();
      })(),
    ]);
    assert.equal(answer.status(), 401);
    await page.getByRole('alert').filter({ hasText: 'The service refused this operator token' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Request journal' }).count(), 0);
    await axeAtBothSizes(page, 'a refused operator token');

    await page.getByLabel('Operator token').fill(E2E_OPERATOR_TOKEN);
    await page.getByRole('button', { name: 'Open the operator tools' }).click();
    await page.getByRole('heading', { name: 'Request journal' }).waitFor();
    await page.getByRole('heading', { name: 'Fault rules' }).waitFor();
    await page.getByRole('heading', { name: 'Snapshots' }).waitFor();
    await page.getByRole('heading', { name: 'Clock' }).waitFor();
    // Memory only: not in the address, not in either storage, not in a cookie.
    const kept = await page.evaluate(() => JSON.stringify({ url: location.href, local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
    assert.ok(!kept.includes(E2E_OPERATOR_TOKEN), `the token is kept somewhere: ${kept}`);
    assert.ok(!(await page.context().cookies()).some((c) => c.value.includes(E2E_OPERATOR_TOKEN)));
    assert.deepEqual(sessionCalls, [], 'the page does not touch the account session (its refresh would be a 401 in the journal)');
    // A reload forgets it; so does Forget the token.
    await page.reload();
    await page.getByLabel('Operator token').waitFor();
    await page.getByLabel('Operator token').fill(E2E_OPERATOR_TOKEN);
    await page.getByRole('button', { name: 'Open the operator tools' }).click();
    await page.getByRole('button', { name: 'Forget the token' }).click();
    await page.getByLabel('Operator token').waitFor();
  }));

test('the operator calls are same-origin: the page\'s CSP allows them, and the operator API grants no other origin (no CORS)', async () => {
  const pageAnswer = await fetch(`${server.url}/console/operator`);
  assert.equal(pageAnswer.status, 200);
  assert.match(pageAnswer.headers.get('content-security-policy') ?? '', /connect-src 'self'/);
  const other = await fetch(`${server.url}/_operator/snapshots`, { headers: { origin: 'http://elsewhere.test', authorization: `Bearer ${E2E_OPERATOR_TOKEN}` } });
  assert.equal(other.status, 200);
  assert.equal(other.headers.get('access-control-allow-origin'), null, 'another origin\'s page cannot read the answer');
  const preflight = await fetch(`${server.url}/_operator/snapshots`, {
    method: 'OPTIONS',
    headers: { origin: 'http://elsewhere.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });
  assert.equal(preflight.headers.get('access-control-allow-origin'), null, 'nor send it the token');
});

test('the journal: a refused API request appears, followed as it happens, with the rule that refused it; the status filter keeps only matching entries', () =>
  showingPagesOnFailure('operator-journal', async () => {
    const page = await operatorPage();
    const table = page.getByRole('region', { name: 'Journal entries' });
    // Made after the page is following: the long poll brings it.
    await page.waitForTimeout(300);
    const res = await fetch(`${server.url}/api/2/accounts`, { headers: { authorization: 'Bearer not-a-token' } });
    assert.equal(res.status, 401);
    const row = table.getByRole('row').filter({ hasText: '/api/2/accounts' }).filter({ hasText: '401' }).first();
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /authentication/, `the row names the rule: ${text}`);
    // A schema refusal: the field and what the schema expects.
    const bad = await fetch(`${server.url}${subscriptionPath}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${patToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', colour: 'red' }),
    });
    assert.equal(bad.status, 400);
    const schemaRow = table.getByRole('row').filter({ hasText: 'updateSubscription' }).first();
    await schemaRow.waitFor();
    assert.match(await schemaRow.innerText(), /invalid-input schema \(field: body\.colour; expected: must NOT have additional properties\)/);
    // A successful request too, then the filter on 4xx shows the refusal only.
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    await table.getByRole('row').filter({ hasText: '/healthz' }).first().waitFor();
    await page.getByRole('form', { name: 'Journal filters' }).getByLabel('Status').selectOption('4xx');
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/_operator/journal?') && r.url().includes('status=4xx')),
      page.getByRole('button', { name: 'Filter' }).click(),
    ]);
    await table.getByRole('row').filter({ hasText: '/api/2/accounts' }).first().waitFor();
    assert.equal(await table.getByRole('row').filter({ hasText: '/healthz' }).count(), 0, 'a 200 is not a 4xx');
    await axeAtBothSizes(page, 'the journal with a refusal');
    await screenshot(page, 'operator-journal');
  }));

test('fault rules: a rule added with the form answers the next matching request with its status, is marked in the journal, and is counted', () =>
  showingPagesOnFailure('operator-faults', async () => {
    const page = await operatorPage();
    await page.getByText('No fault rule').waitFor();
    const form = page.getByRole('form', { name: 'New fault rule' });
    await form.getByLabel('Name (optional)').fill('isLogged fails once');
    await form.getByLabel('Operation').fill('isLogged');
    await form.getByLabel('Effect').selectOption('status');
    await form.getByLabel('Status').selectOption('503');
    await form.getByLabel('At most (times, optional)').fill('1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const rules = page.getByRole('region', { name: 'Fault rules' });
    await rules.getByRole('row').filter({ hasText: 'isLogged fails once' }).waitFor();
    const listed = await server.operator<{ rules: { id: string; match: unknown; effect: unknown; count: number }[] }>('GET', '/faults');
    assert.equal(listed.rules.length, 1);
    assert.deepEqual(listed.rules[0]!.match, { operationId: 'isLogged' });
    assert.deepEqual(listed.rules[0]!.effect, { kind: 'status', status: 503 });
    assert.equal(listed.rules[0]!.count, 1);

    // Applied once: the first isLogged gets the injected 503, the next one runs normally.
    const isLogged = () => fetch(`${server.url}/api/isLogged`, { headers: { authorization: `Bearer ${patToken}` } });
    const first = await isLogged();
    assert.equal(first.status, 503);
    // API 1's error format ({code, message}), naming the rule.
    const body = await first.text();
    assert.ok(body.includes(listed.rules[0]!.id), `the answer names the rule: ${body}`);
    assert.equal((await isLogged()).status, 200);
    const journal = page.getByRole('region', { name: 'Journal entries' });
    const marked = journal.getByRole('row').filter({ hasText: `by rule ${listed.rules[0]!.id}` }).first();
    await marked.waitFor();
    assert.match(await marked.innerText(), /503[\s\S]*injected-fault/);
    // Rule, Matches, Effect, Probability, Count, Matched, Injected. The Count column shows 1 from
    // the start: wait for the refreshed Injected column itself (a refresh every 2 s until then).
    const row = rules.getByRole('row').filter({ hasText: 'isLogged fails once' });
    let cells: string[] = [];
    for (let waited = 0; waited < 30_000 && cells[6] !== '1'; waited += 200) {
      if (waited % 2000 === 0) await page.getByRole('button', { name: 'Refresh the fault rules' }).click();
      await new Promise((resolve) => setTimeout(resolve, 200));
      cells = await row.getByRole('cell').allInnerTexts();
    }
    assert.equal(cells[6], '1', `injected once: ${cells.join(' | ')}`);
    await axeAtBothSizes(page, 'the fault rules');

    // Deleted through its confirmation.
    await rules.getByRole('button', { name: 'Delete rule isLogged fails once' }).click();
    await page.getByRole('dialog', { name: 'Delete this fault rule?' }).getByRole('button', { name: 'Delete rule' }).click();
    await page.getByText('No fault rule').waitFor();
    assert.equal((await server.operator<{ rules: unknown[] }>('GET', '/faults')).rules.length, 0);
  }));

test('snapshots and the clock: save a snapshot, move the clock, restore the snapshot after confirming, and the clock is back where it was', () =>
  showingPagesOnFailure('operator-snapshots', async () => {
    const page = await operatorPage();
    const before = await server.operator<{ offsetSeconds: number }>('GET', '/clock');
    await page.getByLabel('Snapshot name').fill('before-move');
    await page.getByRole('button', { name: 'Save snapshot' }).click();
    const snapshots = page.getByRole('region', { name: 'Snapshots' });
    await snapshots.getByRole('row').filter({ hasText: 'before-move' }).waitFor();

    await page.getByLabel('Move by (negative: back)').fill('2');
    await page.getByLabel('Unit').selectOption('hours');
    await page.getByRole('button', { name: 'Move the clock' }).click();
    await page.locator('#clock-state').filter({ hasText: `offset ${before.offsetSeconds + 7200} s` }).waitFor();
    assert.equal((await server.operator<{ offsetSeconds: number }>('GET', '/clock')).offsetSeconds, before.offsetSeconds + 7200);

    await snapshots.getByRole('button', { name: 'Restore before-move' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore before-move?' });
    await dialog.getByText(/what was written since is lost/).waitFor();
    await axeAtBothSizes(page, 'the restore confirmation');
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await server.operator<{ offsetSeconds: number }>('GET', '/clock')).offsetSeconds, before.offsetSeconds + 7200);

    await snapshots.getByRole('button', { name: 'Restore before-move' }).click();
    const [restored] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/_operator/snapshots/before-move/restore'),
      dialog.getByRole('button', { name: 'Restore snapshot' }).click(),
    ]);
    assert.equal(restored.status(), 200);
    await page.locator('#clock-state').filter({ hasText: `offset ${before.offsetSeconds} s` }).waitFor();
    assert.equal((await server.operator<{ offsetSeconds: number }>('GET', '/clock')).offsetSeconds, before.offsetSeconds);
    await axeAtBothSizes(page, 'the snapshots and the clock');
    await screenshot(page, 'operator-snapshots');

    await snapshots.getByRole('button', { name: 'Delete snapshot before-move' }).click();
    await page.getByRole('dialog', { name: 'Delete before-move?' }).getByRole('button', { name: 'Delete snapshot' }).click();
    await page.getByText('No snapshot yet').waitFor();
  }));
