// The console's share links in Chromium (docs/share-links.md): an annotation and a measurement
// made in the zone, the zone shared with the Share button (with a password), the link opened
// in a fresh browser context without signing in, its password asked, the annotation and the
// measurement seen; after the link's deletion the same address is refused.
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, signInThroughConsole } from '../support/console.ts';

const ANA = { email: 'ana@console-share.test', password: 'ana-password-1' };
const PASSWORD = 'Correct-Horse-9';

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
const made = { p: '', path: '', zoneId: '' };

before(async () => {
  server = await world.start();
  await server.seed({
    users: [{ ...ANA, firstName: 'Ana', lastName: 'Console' }],
    accounts: [{ name: 'Share Inc', owner: ANA.email, projectManagers: [ANA.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  const [account] = await apiAs(server, ANA.email, 'GET', '/api/2/accounts');
  const a = `/api/2/accounts/${uuidOf(account.id)}`;
  const project = await apiAs(server, ANA.email, 'POST', `${a}/projects`, { name: 'Plant west', subscriptionId: account.subscriptions[0].id });
  made.p = `${a}/projects/${uuidOf(project.id)}`;
  made.zoneId = uuidOf(project.rootWorkzoneId);
  made.path = `/console/a/${uuidOf(account.id)}/p/${uuidOf(project.id)}`;
  await apiAs(server, ANA.email, 'POST', `${made.p}/annotations`, {
    workzoneId: project.rootWorkzoneId, annotationType: 'Issue', title: 'Leaking valve', position: { x: 12.5, y: -3, z: 1.25 }, savedView: null,
  });
  await apiAs(server, ANA.email, 'POST', `${made.p}/measurements`, {
    workzoneId: project.rootWorkzoneId, name: 'Pipe run', kind: 'distance', points: [{ x: 0, y: 0, z: 0 }, { x: 3, y: 4, z: 0 }],
  });
});
after(() => world.stop());

test('the console: the zone shared with a password, opened without an account, read-only; refused once deleted', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('share-links');
  });
  const page = await newPage();
  await page.goto(`${server.url}${made.path}?zone=${made.zoneId}&tab=annotations`);
  await signInThroughConsole(page, ANA, /tab=annotations$/);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const form = page.getByRole('form', { name: 'New share link' });
  await form.getByLabel('Link name').fill('For the contractor');
  await form.getByLabel('Password (optional)').fill(PASSWORD);
  await form.getByRole('button', { name: 'Create the link' }).click();
  const field = page.getByLabel('Share link', { exact: true });
  await field.waitFor();
  const link = await field.inputValue();
  assert.match(link, /\/share\/[0-9a-f-]{36}$/);
  const [stored] = await apiAs(server, ANA.email, 'GET', `${made.p}/share-links`);
  assert.deepEqual([stored.name, stored.passwordProtected, stored.workzoneId.endsWith(made.zoneId)], ['For the contractor', true, true]);

  // A fresh browser context: no session, no cookie of the service.
  const guest = await newPage();
  const address = `${server.url}/share/${uuidOf(stored.id)}`;
  await guest.goto(address);
  await guest.getByRole('form', { name: 'Share link password' }).getByLabel('Password').fill(PASSWORD);
  await guest.getByRole('button', { name: 'Open' }).click();
  await guest.getByRole('list', { name: 'Shared annotations' }).getByText(/Leaking valve/).waitFor();
  await guest.getByRole('list', { name: 'Shared measurements' }).getByText(/Pipe run/).waitFor();
  assert.equal(await guest.getByRole('button', { name: 'Sign out' }).count(), 0, 'no account session');
  await assertNoSeriousAxeViolations(guest, 'shared view');

  await apiAs(server, ANA.email, 'DELETE', `${made.p}/share-links/${uuidOf(stored.id)}`);
  const again = await newPage();
  await again.goto(address);
  await again.getByText(/No sharelink with id/).waitFor();
  assert.equal(await again.getByRole('form', { name: 'Share link password' }).count(), 0);
  done = true;
});
