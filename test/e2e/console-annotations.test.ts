// The console's annotations and measurements tabs in Chromium: an annotation created at a
// position, commented and deleted; a measurement created from points with its length shown;
// what the service stored checked through the API; a Viewer sees the forms disabled with the
// permission they need (docs/annotations.md).
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, signInThroughConsole } from '../support/console.ts';

const ANA = { email: 'ana@console-annotations.test', password: 'ana-password-1' };
const VIV = { email: 'viv@console-annotations.test', password: 'viv-password-1' };

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
const made = { p: '', path: '', zoneId: '' };

before(async () => {
  server = await world.start();
  await server.seed({
    users: [ANA, VIV].map((u) => ({ ...u, firstName: u.email.slice(0, 3), lastName: 'Console' })),
    accounts: [{ name: 'Notes Inc', owner: ANA.email, projectManagers: [ANA.email], members: [VIV.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  const [account] = await apiAs(server, ANA.email, 'GET', '/api/2/accounts');
  const a = `/api/2/accounts/${uuidOf(account.id)}`;
  const project = await apiAs(server, ANA.email, 'POST', `${a}/projects`, { name: 'Plant east', subscriptionId: account.subscriptions[0].id });
  made.p = `${a}/projects/${uuidOf(project.id)}`;
  made.zoneId = uuidOf(project.rootWorkzoneId);
  made.path = `/console/a/${uuidOf(account.id)}/p/${uuidOf(project.id)}`;
  const roles = await apiAs(server, ANA.email, 'GET', `${a}/roles`);
  const viewer = roles.find((r: { name: string }) => r.name === 'Viewer');
  await apiAs(server, ANA.email, 'POST', `${made.p}/members`, { members: { users: [{ user: VIV.email, role: viewer.id }] } });
});
after(() => world.stop());

test('the console: an annotation created at a position, commented and deleted; a measurement created from points', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('annotations');
  });
  const page = await newPage();
  await page.goto(`${server.url}${made.path}?zone=${made.zoneId}&tab=annotations`);
  await signInThroughConsole(page, ANA, /tab=annotations$/);
  await page.getByText('No annotation in this zone yet.').waitFor();
  const form = page.getByRole('form', { name: 'New annotation' });
  await form.getByLabel('Title').fill('Leaking valve');
  await form.getByLabel('Type').selectOption('Issue');
  await form.getByLabel('Position (X, Y, Z)').fill('12.5, -3, 1.25');
  await form.getByRole('button', { name: 'Create annotation' }).click();
  const item = page.getByRole('listitem', { name: 'Annotation 1: Leaking valve' });
  await item.waitFor();
  assert.match((await item.textContent()) ?? '', /Issue at 12\.5, -3, 1\.25/);
  await item.getByLabel('Comment on Leaking valve').fill('Seen on the morning round');
  await item.getByRole('button', { name: 'Add the comment on Leaking valve' }).click();
  await page.getByRole('list', { name: 'Comments on Leaking valve' }).getByText('Seen on the morning round').waitFor();
  await assertNoSeriousAxeViolations(page, 'annotations');
  const [stored] = await apiAs(server, ANA.email, 'GET', `${made.p}/annotations?includeComments=true`);
  assert.deepEqual([stored.annotationType, stored.position, stored.comments.map((c: { description: string }) => c.description)], [
    'Issue', { x: 12.5, y: -3, z: 1.25 }, ['Seen on the morning round'],
  ]);
  page.once('dialog', (d) => void d.accept());
  await item.getByRole('button', { name: 'Delete Leaking valve' }).click();
  await page.getByText('No annotation in this zone yet.').waitFor();

  await page.getByRole('tab', { name: 'Measurements' }).click();
  await page.getByText('No measurement in this zone yet.').waitFor();
  const m = page.getByRole('form', { name: 'New measurement' });
  await m.getByLabel('Measurement name').fill('Pipe run');
  await m.getByLabel('Kind').selectOption('polyline');
  await m.getByLabel('Points (X, Y, Z per line)').fill('0, 0, 0\n3, 4, 0\n3, 4, 2');
  await m.getByRole('button', { name: 'Create measurement' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Pipe run' });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /polyline7\.000 m/);
  await assertNoSeriousAxeViolations(page, 'measurements');
  done = true;
});

test('the console: a Viewer reads annotations but sees the forms disabled with the permission they need', async () => {
  await apiAs(server, ANA.email, 'POST', `${made.p}/annotations`, { workzoneId: made.zoneId, annotationType: 'Note', title: 'Check the gauge', position: { x: 0, y: 0, z: 0 }, savedView: null });
  const page = await newPage();
  await page.goto(`${server.url}${made.path}?zone=${made.zoneId}&tab=annotations`);
  await signInThroughConsole(page, VIV, /tab=annotations$/);
  await page.getByRole('listitem', { name: /Check the gauge/ }).waitFor();
  const create = page.getByRole('button', { name: 'Create annotation' });
  assert.ok(await create.isDisabled());
  await page.getByText(/Needs workzone:annotations:write/).first().waitFor();
  await page.getByRole('tab', { name: 'Measurements' }).click();
  await page.getByText('Needs workzone:measurements:read to see this zone\'s measurements.').waitFor();
});
