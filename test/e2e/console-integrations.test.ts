// The console's integrations in Chromium (docs/console.md "Integrations"), against a fake
// Konekt and a fake Autodesk (a real HTTP server on loopback, test/support/fake-integrations.ts,
// whose sign-in page sends the browser back as Autodesk's does): the user connects to Autodesk
// through the browser's round trip, an administrator adds the account's Konekt hub with its
// token (never shown again), the project is configured for both, and an annotation's links are
// requested from its panel, followed while the service's batch creates them, and opened.
// A refused sign-in comes back with its reason.
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, signInThroughConsole } from '../support/console.ts';
import { startFakeIntegrations, type FakeIntegrations } from '../support/fake-integrations.ts';

const ANA = { email: 'ana@console-integrations.test', password: 'ana-password-1' };
const TOKEN = 'konekt-console-token-77';

let server: OAuthServer;
let fake: FakeIntegrations;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
const made = { a: '', p: '', account: '', path: '', zoneId: '' };

before(async () => {
  fake = await startFakeIntegrations();
  fake.hubs.push({ token: TOKEN, id: 'hub-console', name: 'Console hub', beta: false, projects: [{ id: '77', name: 'Plant' }] });
  fake.autodesk.hubs = [{ id: 'b.acc', name: 'Acme ACC', projects: [{ id: 'b.plant', name: 'Plant west' }] }];
  server = await world.start({
    env: {
      KONEKT_API_URL: fake.url, AUTODESK_API_URL: fake.url, AUTODESK_CLIENT_ID: fake.autodesk.clientId, AUTODESK_CLIENT_SECRET: fake.autodesk.clientSecret,
      TASK_PERIODS: 'integration-links=1',
    },
  });
  await server.seed({
    users: [{ ...ANA, firstName: 'Ana', lastName: 'Console' }],
    accounts: [{ name: 'Links Inc', owner: ANA.email, projectManagers: [ANA.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  const [account] = await apiAs(server, ANA.email, 'GET', '/api/2/accounts');
  made.account = uuidOf(account.id);
  made.a = `/api/2/accounts/${made.account}`;
  const project = await apiAs(server, ANA.email, 'POST', `${made.a}/projects`, { name: 'Plant west', subscriptionId: account.subscriptions[0].id });
  made.p = `${made.a}/projects/${uuidOf(project.id)}`;
  made.zoneId = uuidOf(project.rootWorkzoneId);
  made.path = `/console/a/${made.account}/p/${uuidOf(project.id)}`;
});
after(async () => {
  await world.stop();
  await fake?.close();
});

test('the console: connect to Autodesk through the browser, add the account\'s Konekt hub, configure the project, request an annotation\'s links and open them once created', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('integrations');
  });
  const page = await newPage();
  await page.goto(`${server.url}/console/a/${made.account}/integrations`);
  await signInThroughConsole(page, ANA, /\/integrations$/);

  // A refused sign-in comes back here with its reason; then the person signs in.
  await page.getByRole('button', { name: 'Connect to Autodesk' }).click();
  await page.getByText('The Autodesk sign-in was refused or cancelled: nothing was connected.').waitFor();
  fake.autodesk.signIn = { accessToken: 'autodesk-access-ana', email: ANA.email };
  await page.getByRole('button', { name: 'Connect to Autodesk' }).click();
  await page.getByText(`Connected as ${ANA.email}; 1 hub: Acme ACC (1 project).`).waitFor();

  const add = page.getByRole('form', { name: 'Add a Konekt hub' });
  await add.getByLabel('Konekt API token of the hub').fill(TOKEN);
  await add.getByRole('button', { name: 'Add the hub' }).click();
  const hubRow = page.getByRole('row').filter({ hasText: 'Console hub' });
  await hubRow.waitFor();
  assert.match((await hubRow.textContent()) ?? '', /hub-console\s*connected/);
  assert.ok(!(await page.content()).includes(TOKEN), 'the token is not shown again');
  await assertNoSeriousAxeViolations(page, 'integrations');

  await apiAs(server, ANA.email, 'POST', `${made.p}/annotations`, {
    workzoneId: made.zoneId, annotationType: 'Issue', title: 'Leaking flange', position: { x: 1, y: 2, z: 3 }, savedView: null,
  });
  await page.goto(`${server.url}${made.path}?zone=${made.zoneId}&tab=annotations`);
  const item = page.getByRole('listitem', { name: 'Annotation 1: Leaking flange' });
  await item.waitFor();
  // Before the project is configured, a request initialises nothing, and says what is missing.
  await item.getByRole('button', { name: 'Link Leaking flange to Konekt' }).click();
  await item.getByText(/No Konekt link was created for Leaking flange: the project must be configured with a Konekt hub/).waitFor();

  await page.getByText('Third-party integrations of the project').click();
  const konekt = page.getByRole('form', { name: 'Konekt configuration' });
  await konekt.getByLabel('Konekt hub id').fill('hub-console');
  await konekt.getByLabel('Konekt project (number, or "new")').fill('77');
  await konekt.getByRole('button', { name: 'Configure Konekt' }).click();
  await page.getByText('hub hub-console, project 77').waitFor();
  const autodesk = page.getByRole('form', { name: 'Autodesk configuration' });
  await autodesk.getByLabel('Autodesk project').selectOption({ label: 'Acme ACC / Plant west' });
  await autodesk.getByRole('button', { name: 'Configure Autodesk' }).click();
  await page.getByText('b.acc / b.plant').waitFor();

  await item.getByRole('button', { name: 'Link Leaking flange to Konekt' }).click();
  await item.getByRole('button', { name: 'Link Leaking flange to Autodesk' }).click();
  // The service's batch creates them (every second here); the panel follows until they are.
  const links = item.getByRole('list', { name: 'Links of Leaking flange' });
  await links.getByRole('link', { name: 'Open in Konekt' }).waitFor({ timeout: 30_000 });
  await links.getByRole('link', { name: 'Open in Autodesk' }).waitFor({ timeout: 30_000 });
  const konektIssue = fake.issues.find((i) => i.system === 'konekt')!;
  const autodeskIssue = fake.issues.find((i) => i.system === 'autodesk')!;
  assert.equal(konektIssue.title, '#1 Leaking flange');
  assert.equal(autodeskIssue.token, 'autodesk-access-ana', 'created as the annotation\'s author');
  assert.equal(await links.getByRole('link', { name: 'Open in Konekt' }).getAttribute('href'), `${fake.url}/hubs/hub-console/projects/77/issues/${konektIssue.id}`);
  assert.equal(await links.getByRole('link', { name: 'Open in Konekt' }).getAttribute('rel'), 'noopener noreferrer');
  assert.equal(await item.getByRole('button', { name: /^Link Leaking flange to/ }).count(), 0, 'no request offered for a link that exists');
  await assertNoSeriousAxeViolations(page, 'annotation links');
  done = true;
});
