// Integrations through API 2 (vendor getAccountIntegrations … deleteAutodeskConnection,
// createAnnotationIntegrationLinks; docs/integrations.md), against a fake Konekt and a fake
// Autodesk: a real HTTP server on a loopback port started here (test/support/fake-integrations.ts).
// Rules checked: `account:integrations:*` for an account's hubs, `project:integrations:*` and
// `project:annotations:create-integration-link` through rule 8 (annotations:write on the root
// zone); the vendor's 409 for a second configuration; tokens never shown; the Autodesk sign-in
// (state single use, the client's credentials sent); without configuration, what needs the
// third party answers 503 `integration-unavailable` and the records still work. Bodies checked
// against the vendor's schemas. PGlite by default; TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, ANNOTATOR_ID, SURVEYOR_ID, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type Call, type Res, type World,
} from '../support/projects.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';
import { startFakeIntegrations, type FakeIntegrations } from '../support/fake-integrations.ts';
import { looksSealed } from '../../src/core/crypto/secret-box.ts';

let fake: FakeIntegrations;
let t: TestApp;
let bare: TestApp;
let w: World;
let wBare: World;
let sql: Sql;
let P: any;
let Z: any;
let vendor: VendorValidator | null = null;
const HUB_TOKEN = 'konekt-token-of-hub-1';
const OTHER_HUB_TOKEN = 'konekt-token-of-hub-2';

before(async () => {
  fake = await startFakeIntegrations();
  fake.hubs.push(
    { token: HUB_TOKEN, id: 'hub-1', name: 'Acme hub', beta: false, projects: [{ id: '41', name: 'Tower' }] },
    { token: OTHER_HUB_TOKEN, id: 'hub-2', name: 'Other hub', beta: true, projects: [] },
  );
  t = await testApp({
    KONEKT_API_URL: fake.url, AUTODESK_API_URL: fake.url, AUTODESK_CLIENT_ID: fake.autodesk.clientId, AUTODESK_CLIENT_SECRET: fake.autodesk.clientSecret,
    INTEGRATIONS_TIMEOUT: '5',
    // The links stay pending here: the batch that creates them is test/http/integration-links-batch.test.ts's.
    TASK_PERIODS: 'integration-links=86400',
  }, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Level 2');
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }, { user: emailOf('alice'), role: SURVEYOR_ID }],
  });
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('bob'), role: ANNOTATOR_ID }] }, [Z.id]);
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
});
after(async () => {
  await t?.close();
  await bare?.close();
  await fake?.close();
});

const conforms = (operationId: string, status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId}: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};
const expect = (res: { status: number; body: any }, status: number, operationId?: string) => {
  assert.equal(res.status, status, JSON.stringify(res.body));
  if (operationId) conforms(operationId, status, res.body);
  return res.body;
};
const projectUrl = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;
const eventsOf = async (prefix: string) =>
  (await sql.query<{ type: string; data: any }>(`SELECT type, data FROM domain_events WHERE type LIKE $1 ORDER BY seq`, [`${prefix}%`])).map((e) => e.type);

test('account Konekt hubs: created from what Konekt says of the token (201), read, listed with their linked projects, options updated, disconnected and connected again, deleted; the token is never shown', async () => {
  const created = expect(await w.as.administrator!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN, options: { syncStrategy: 'BOTH_WAY' } }), 201, 'createAccountIntegrationKonekt');
  assert.match(created.id, /^urn:svc:newforma-konekt-hub:/);
  assert.equal(created.konektId, 'hub-1');
  assert.equal(created.name, 'Acme hub');
  assert.equal(created.connected, true);
  assert.deepEqual(created.options, { allowCreateNewUsersOnHub: false, syncStrategy: 'BOTH_WAY' });
  assert.deepEqual(created.konektProjects, [{ id: '41', name: 'Tower' }]);
  assert.equal(created.link, `${fake.url}/hubs/hub-1`);
  assert.ok(!JSON.stringify(created).includes(HUB_TOKEN));
  assert.equal(fake.requests.at(-1)!.headers.authorization, `Bearer ${HUB_TOKEN}`);

  const hub = `${A2}/integrations/konekt/${created.id}`;
  expect(await w.as.owner!('GET', hub), 200, 'getKonektAccountIntegrationById');
  const updated = expect(await w.as.owner!('PUT', hub, { options: { allowCreateNewUsersOnHub: true } }), 200, 'updateKonektAccountIntegration');
  assert.deepEqual(updated.options, { allowCreateNewUsersOnHub: true, syncStrategy: 'BOTH_WAY' });

  // A project configured with the hub is listed among its linked projects.
  expect(await w.as.manager!('POST', `${projectUrl(P)}/integrations/konekt`, { hubId: 'hub-1', konektProjectId: 41, options: { allowInviteUsers: true } }), 201);
  const list = expect(await w.as.administrator!('GET', `${A2}/integrations`), 200, 'getAccountIntegrations');
  assert.deepEqual(list.konekt.map((k: any) => k.id), [created.id]);
  assert.deepEqual(list.konekt[0].linkedProjects, [{ id: P.id, konektId: 41, options: { allowInviteUsers: true, syncStrategy: 'BOTH_WAY' } }]);

  assert.equal((await w.as.owner!('DELETE', `${hub}/connection`)).status, 204);
  assert.equal((await w.as.owner!('GET', hub)).body.connected, false);
  const again = expect(await w.as.owner!('POST', `${hub}/connection`, { token: HUB_TOKEN }), 200, 'connectKonektAccountIntegration');
  assert.equal(again.connected, true);

  assert.equal((await w.as.owner!('DELETE', hub)).status, 204);
  assertProblem(await w.as.owner!('GET', hub), 404, 'newforma-konekt-hub-not-found');
  assert.equal((await w.as.manager!('DELETE', `${projectUrl(P)}/integrations/konekt`)).status, 204);
  assert.deepEqual(await eventsOf('account-integration.'), [
    'account-integration.created', 'account-integration.updated', 'account-integration.connection-changed', 'account-integration.connection-changed', 'account-integration.deleted',
  ]);
});

test('account integrations need account:integrations:read (view-account-integrations-forbidden) and :write (manage-account-integrations-forbidden): the owner and administrators only', async () => {
  const created = expect(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 201);
  const hub = `${A2}/integrations/konekt/${created.id}`;
  for (const who of ['manager', 'projectManager', 'member']) {
    const read = assertProblem(await w.as[who]!('GET', `${A2}/integrations`), 403, 'view-account-integrations-forbidden');
    assert.deepEqual(read.errorValues.requiredPermissions, ['account:integrations:read']);
    assertProblem(await w.as[who]!('GET', hub), 403, 'view-account-integrations-forbidden');
    for (const [method, url, body] of [
      ['POST', `${A2}/integrations/konekt`, { token: OTHER_HUB_TOKEN }], ['PUT', hub, { options: {} }], ['DELETE', hub, undefined],
      ['POST', `${hub}/connection`, { token: HUB_TOKEN }], ['DELETE', `${hub}/connection`, undefined],
    ] as const) {
      const refused = assertProblem(await w.as[who]!(method, url, body), 403, 'manage-account-integrations-forbidden');
      assert.deepEqual(refused.errorValues.requiredPermissions, ['account:integrations:write'], `${who} ${method} ${url}`);
    }
  }
  assertProblem(await w.as.outsider!('GET', `${A2}/integrations`), 404, 'account-not-found');
  assert.equal((await w.as.owner!('GET', hub)).body.connected, true, 'nothing changed');
  assert.equal((await w.as.owner!('DELETE', hub)).status, 204);
});

test('account Konekt errors: the same hub twice 409, a token Konekt refuses 400, a token of another hub 400, an unknown or malformed reference 404/400', async () => {
  const created = expect(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 201);
  const hub = `${A2}/integrations/konekt/${created.id}`;
  const conflict = assertProblem(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 409, 'integration-already-exists');
  assert.equal(conflict.title, 'Conflict');
  if (vendor) assert.deepEqual(vendor.validateComponent('ErrorConflict', conflict), []);
  assertProblem(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: 'not-a-konekt-token' }), 400, 'integration-token-refused');
  assertProblem(await w.as.owner!('POST', `${hub}/connection`, { token: OTHER_HUB_TOKEN }), 400, 'integration-token-refused');
  assertProblem(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: '' }), 400, 'invalid-input');
  assertProblem(await w.as.owner!('PUT', hub, { options: { syncStrategy: 'SOMETIMES' } }), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', `${A2}/integrations/konekt/8b0c5e4e-8a53-4a6f-9d5e-3f1f0a1b2c3d`), 404, 'newforma-konekt-hub-not-found');
  assertProblem(await w.as.owner!('GET', `${A2}/integrations/konekt/urn:svc:project:8b0c5e4e-8a53-4a6f-9d5e-3f1f0a1b2c3d`), 400, 'invalid-newforma-konekt-hub-urn');
  // Konekt down: the vendor's 503, and nothing recorded.
  fake.failWith = 502;
  try {
    assertProblem(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: OTHER_HUB_TOKEN }), 503, 'integration-unavailable');
    assertProblem(await w.as.owner!('POST', `${hub}/connection`, { token: HUB_TOKEN }), 503, 'integration-unavailable');
  } finally {
    fake.failWith = null;
  }
  assert.equal((await w.as.owner!('GET', `${A2}/integrations`)).body.konekt.length, 1);
  assert.equal((await w.as.owner!('DELETE', hub)).status, 204);
});

test('project Konekt configuration: create (201) once (409 after), read, overwrite, delete (204), then 404; konektProjectId null creates the project on Konekt with the hub\'s token', async () => {
  const url = `${projectUrl(P)}/integrations/konekt`;
  assertProblem(await w.as.manager!('GET', url), 404, 'konekt-project-integration-not-found');
  assertProblem(await w.as.manager!('PUT', url, { hubId: 'hub-1', konektProjectId: 41, options: { allowInviteUsers: false } }), 404, 'konekt-project-integration-not-found');
  const created = expect(await w.as.manager!('POST', url, { hubId: 'hub-1', konektProjectId: 41, options: { allowInviteUsers: false, syncStrategy: 'UPDATES_ONLY_FROM_KONEKT' } }), 201, 'createKonektProjectIntegration');
  assert.equal(created.projectId, P.id);
  assert.equal(created.konektId, 41);
  assert.equal(created.createdBy, `urn:svc:user:${w.ids.manager}`);
  assert.equal(created.link, `${fake.url}/hubs/hub-1/projects/41`);
  assertProblem(await w.as.manager!('POST', url, { hubId: 'hub-1', konektProjectId: 42, options: { allowInviteUsers: false } }), 409, 'integration-already-exists');
  expect(await w.as.viewer!('GET', url), 403);
  expect(await w.as.projectOwner!('GET', url), 200, 'getKonektProjectIntegration');
  const put = expect(await w.as.projectOwner!('PUT', url, { hubId: 'hub-1', konektProjectId: 43, options: { allowInviteUsers: true } }), 200, 'updateKonektProjectIntegration');
  assert.deepEqual([put.konektId, put.options.syncStrategy, put.createdBy, put.updatedBy], [43, 'BOTH_WAY', created.createdBy, `urn:svc:user:${w.ids.projectOwner}`]);
  expect(await w.as.manager!('GET', `${projectUrl(P)}/integrations`), 200, 'getProjectIntegrations');
  assert.equal((await w.as.manager!('DELETE', url)).status, 204);
  assertProblem(await w.as.manager!('DELETE', url), 404, 'konekt-project-integration-not-found');

  // null: a new project on the hub, which needs the hub connected on the account.
  assertProblem(await w.as.manager!('POST', url, { hubId: 'hub-1', konektProjectId: null, options: { allowInviteUsers: true } }), 400, 'invalid-input');
  const hub = expect(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN, options: { syncStrategy: 'UPDATES_ONLY_FROM_KONEKT' } }), 201);
  const made = expect(await w.as.manager!('POST', url, { hubId: 'hub-1', konektProjectId: null, options: { allowInviteUsers: true } }), 201);
  const asked = fake.requests.at(-1)!;
  assert.deepEqual([asked.method, asked.url, asked.headers.authorization, JSON.parse(asked.body).name], ['POST', '/v1/hub/projects', `Bearer ${HUB_TOKEN}`, P.name]);
  assert.ok(fake.hubs[0]!.projects.some((p) => Number(p.id) === made.konektId));
  assert.equal(made.options.syncStrategy, 'UPDATES_ONLY_FROM_KONEKT', 'the hub\'s strategy when the project names none');
  assert.equal((await w.as.manager!('DELETE', url)).status, 204);
  assert.equal((await w.as.owner!('DELETE', `${A2}/integrations/konekt/${hub.id}`)).status, 204);
});

test('project Autodesk configuration: create (201) once (409 after), read, list, overwrite, delete (204), then 404', async () => {
  const url = `${projectUrl(P)}/integrations/autodesk`;
  assertProblem(await w.as.manager!('GET', url), 404, 'autodesk-project-integration-not-found');
  const created = expect(await w.as.manager!('POST', url, { autodeskHubId: 'b.hub', autodeskProjectId: 'b.project' }), 201, 'createAutodeskProjectIntegration');
  assert.equal(created.link, `${fake.url}/hubs/b.hub/projects/b.project`);
  assertProblem(await w.as.manager!('POST', url, { autodeskHubId: 'b.hub', autodeskProjectId: 'b.other' }), 409, 'integration-already-exists');
  expect(await w.as.manager!('GET', url), 200, 'getAutodeskProjectIntegration');
  const put = expect(await w.as.manager!('PUT', url, { autodeskHubId: 'b.hub', autodeskProjectId: 'b.other' }), 200, 'updateAutodeskProjectIntegration');
  assert.equal(put.autodeskProjectId, 'b.other');
  const all = expect(await w.as.manager!('GET', `${projectUrl(P)}/integrations`), 200, 'getProjectIntegrations');
  assert.deepEqual(Object.keys(all), ['autodesk']);
  assertProblem(await w.as.manager!('POST', url, { autodeskHubId: '', autodeskProjectId: 'x' }), 400, 'invalid-input');
  assert.equal((await w.as.manager!('DELETE', url)).status, 204);
  assertProblem(await w.as.manager!('DELETE', url), 404, 'autodesk-project-integration-not-found');
  assertProblem(await w.as.manager!('PUT', url, { autodeskHubId: 'b.hub', autodeskProjectId: 'b.other' }), 404, 'autodesk-project-integration-not-found');
  assert.deepEqual(await eventsOf('project-integration.'), [
    'project-integration.created', 'project-integration.deleted', // the first test's
    'project-integration.created', 'project-integration.updated', 'project-integration.deleted', 'project-integration.created', 'project-integration.deleted', // Konekt
    'project-integration.created', 'project-integration.updated', 'project-integration.deleted', // Autodesk
  ]);
});

test('rule 8: project integrations need annotations:write on the root zone (view-/manage-project-integrations-forbidden); non-members are not members', async () => {
  const base = `${projectUrl(P)}/integrations`;
  for (const who of ['viewer', 'alice', 'bob']) {
    const read = assertProblem(await w.as[who]!('GET', base), 403, 'view-project-integrations-forbidden');
    assert.deepEqual(read.errorValues.requiredPermissions, ['project:integrations:read']);
    for (const path of ['/konekt', '/autodesk']) assertProblem(await w.as[who]!('GET', `${base}${path}`), 403, 'view-project-integrations-forbidden');
    for (const [method, path, body] of [
      ['POST', '/konekt', { hubId: 'h', konektProjectId: 1, options: { allowInviteUsers: true } }], ['PUT', '/konekt', { hubId: 'h', konektProjectId: 1, options: { allowInviteUsers: true } }],
      ['DELETE', '/konekt', undefined], ['POST', '/autodesk', { autodeskHubId: 'h', autodeskProjectId: 'p' }],
      ['PUT', '/autodesk', { autodeskHubId: 'h', autodeskProjectId: 'p' }], ['DELETE', '/autodesk', undefined],
    ] as const) {
      const refused = assertProblem(await w.as[who]!(method, `${base}${path}`, body), 403, 'manage-project-integrations-forbidden');
      assert.deepEqual(refused.errorValues.requiredPermissions, ['project:integrations:write']);
    }
    const links = assertProblem(await w.as[who]!('POST', `${projectUrl(P)}/annotations/bulk-create-integration`, { integrationTypes: ['AUTODESK'] }), 403, 'create-integration-link-forbidden');
    assert.deepEqual(links.errorValues.requiredPermissions, ['project:annotations:create-integration-link']);
  }
  assertProblem(await w.as.member!('GET', base), 403, 'not-member-of-project');
  assertProblem(await w.as.outsider!('GET', base), 404, 'account-not-found');
  assertProblem(await w.as.manager!('GET', `${A2}/projects/8b0c5e4e-8a53-4a6f-9d5e-3f1f0a1b2c3d/integrations`), 404, 'project-not-found');
});

/** Follows getAutodeskConnectionUrl to the fake's sign-in page, as a browser would: the authorize address and its parameters. */
async function startAutodeskSignIn(call: Call, redirectUri: string): Promise<URL> {
  const res = await call('GET', `/api/2/integrations/autodesk/connection/url?redirectUri=${encodeURIComponent(redirectUri)}`);
  assert.equal(res.status, 302, JSON.stringify(res.body));
  return new URL(String(res.headers.location));
}

test('the Autodesk sign-in: a 302 to Autodesk with the client and a state, the callback exchanges the code with the client\'s credentials, keeps the connection and sends the browser to redirectUri; the state is single use', async () => {
  assertProblem(await w.as.manager!('GET', '/api/2/integrations/autodesk/connection'), 404, 'autodesk-connection-not-found');
  const authorize = await startAutodeskSignIn(w.as.manager!, 'http://localhost:5173/after?tab=integrations');
  assert.equal(authorize.origin + authorize.pathname, `${fake.url}/authentication/v2/authorize`);
  assert.equal(authorize.searchParams.get('client_id'), fake.autodesk.clientId);
  assert.equal(authorize.searchParams.get('response_type'), 'code');
  const callback = authorize.searchParams.get('redirect_uri')!;
  assert.equal(callback, 'http://localhost:8080/integrations/autodesk/callback');
  const state = authorize.searchParams.get('state')!;
  assert.ok(state.length >= 40);

  // The person signs in at Autodesk, which sends the browser back with a code.
  fake.autodesk.codes.set('code-1', 'autodesk-access-1');
  fake.autodesk.users.set('autodesk-access-1', { email: 'manager@acme.example', preferred_username: 'mgr', given_name: 'Mia', family_name: 'Ger' });
  fake.autodesk.hubs = [{ id: 'b.hub', name: 'Acme ACC', projects: [{ id: 'b.project', name: 'Tower' }] }];
  const back = await t.app.inject({ method: 'GET', url: `/integrations/autodesk/callback?code=code-1&state=${state}` });
  assert.equal(back.statusCode, 302, back.body);
  assert.equal(back.headers.location, 'http://localhost:5173/after?tab=integrations');
  const exchange = fake.requests.find((r) => r.url === '/authentication/v2/token')!;
  assert.equal(exchange.headers.authorization, `Basic ${Buffer.from(`${fake.autodesk.clientId}:${fake.autodesk.clientSecret}`).toString('base64')}`);
  assert.equal(new URLSearchParams(exchange.body).get('redirect_uri'), callback);

  const connection = expect(await w.as.manager!('GET', '/api/2/integrations/autodesk/connection'), 200, 'getAutodeskConnection');
  assert.deepEqual(connection, {
    email: 'manager@acme.example', userName: 'mgr', firstName: 'Mia', lastName: 'Ger',
    hubs: [{ autodeskId: 'b.hub', name: 'Acme ACC', projects: [{ autodeskId: 'b.project', name: 'Tower' }] }],
  });
  assertProblem(await w.as.viewer!('GET', '/api/2/integrations/autodesk/connection'), 404, 'autodesk-connection-not-found');
  // The state was used: a replay is refused and changes nothing.
  assertProblem(await t.app.inject({ method: 'GET', url: `/integrations/autodesk/callback?code=code-1&state=${state}` }).then((r) => ({ status: r.statusCode, body: r.json(), headers: r.headers })), 400, 'autodesk-sign-in-failed');

  // Autodesk refusing a code, or the person denying: back to redirectUri with the reason.
  const second = await startAutodeskSignIn(w.as.viewer!, 'https://app.example/done');
  const refused = await t.app.inject({ method: 'GET', url: `/integrations/autodesk/callback?code=unknown&state=${second.searchParams.get('state')}` });
  assert.equal(refused.headers.location, 'https://app.example/done?error=access_denied');
  const third = await startAutodeskSignIn(w.as.viewer!, 'https://app.example/done');
  const denied = await t.app.inject({ method: 'GET', url: `/integrations/autodesk/callback?error=access_denied&state=${third.searchParams.get('state')}` });
  assert.equal(denied.headers.location, 'https://app.example/done?error=access_denied');
  assertProblem(await w.as.viewer!('GET', '/api/2/integrations/autodesk/connection'), 404, 'autodesk-connection-not-found');

  assertProblem(await w.as.viewer!('GET', '/api/2/integrations/autodesk/connection/url?redirectUri=javascript:alert(1)'), 400, 'invalid-input');
  assert.deepEqual(await eventsOf('autodesk-connection.'), ['autodesk-connection.changed']);
});

test('tokens are sealed at rest (the kernel\'s secret box): the database holds no Konekt or Autodesk token in plain text, and the service still uses them', async () => {
  // The manager connected to Autodesk in the sign-in test: both of its tokens are sealed.
  const [connection] = await sql.query<{ access: string; refresh: string | null }>(
    'SELECT access_token AS access, refresh_token AS refresh FROM autodesk_connections WHERE user_id = $1', [w.ids.manager]);
  assert.ok(connection, 'the manager\'s Autodesk connection');
  assert.ok(looksSealed(connection.access) && looksSealed(connection.refresh!), JSON.stringify(connection));
  assert.ok(!connection.access.includes('token') && !connection.refresh!.includes('token'));

  const hub = expect(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 201);
  const stored = async () => (await sql.query<{ token: string }>('SELECT token FROM account_konekt_integrations WHERE id = $1', [uuidOf(hub.id)]))[0]!.token;
  const sealed = await stored();
  assert.ok(looksSealed(sealed) && !sealed.includes(HUB_TOKEN), sealed);
  // Sealed twice, the same token reads differently (a fresh IV each time).
  expect(await w.as.owner!('POST', `${A2}/integrations/konekt/${hub.id}/connection`, { token: HUB_TOKEN }), 200);
  assert.notEqual(await stored(), sealed);

  // The service opens it to call Konekt: a project created on the hub is asked with the token itself.
  const url = `${projectUrl(P)}/integrations/konekt`;
  const asked = async () => {
    expect(await w.as.manager!('POST', url, { hubId: 'hub-1', konektProjectId: null, options: { allowInviteUsers: true } }), 201);
    assert.equal(fake.requests.at(-1)!.headers.authorization, `Bearer ${HUB_TOKEN}`);
    assert.equal((await w.as.manager!('DELETE', url)).status, 204);
  };
  await asked();

  // A row kept before tokens were sealed (plain text) is read as it is, then sealed by the task.
  await sql.query('UPDATE account_konekt_integrations SET token = $2 WHERE id = $1', [uuidOf(hub.id), HUB_TOKEN]);
  await sql.query('UPDATE autodesk_connections SET refresh_token = $2 WHERE user_id = $1', [w.ids.manager, 'plain-refresh']);
  await asked();
  assert.ok((await t.core.integrations.sealPlainTokens()) >= 2);
  assert.ok(looksSealed(await stored()));
  const [after] = await sql.query<{ refresh: string }>('SELECT refresh_token AS refresh FROM autodesk_connections WHERE user_id = $1', [w.ids.manager]);
  assert.ok(looksSealed(after!.refresh));
  assert.equal(await t.core.integrations.sealPlainTokens(), 0, 'nothing left in plain text');
  await asked();
  assert.equal((await w.as.owner!('DELETE', `${A2}/integrations/konekt/${hub.id}`)).status, 204);
});

test('integration links: Konekt when the project\'s hub is connected, Autodesk when the annotation\'s author is connected; existing links, unmet prerequisites and PROCORE are left out', async () => {
  const links = `${projectUrl(P)}/annotations/bulk-create-integration`;
  const note = (workzoneId: string, title: string) => ({ workzoneId, annotationType: 'Issue', title, position: { x: 0, y: 0, z: 0 }, savedView: null });
  const byManager = expect(await w.as.manager!('POST', `${projectUrl(P)}/annotations`, note(P.rootWorkzoneId, 'By the manager')), 201);
  const byOwner = expect(await w.as.projectOwner!('POST', `${projectUrl(P)}/annotations`, note(Z.id, 'By the project owner')), 201);

  // Nothing configured on the project yet: nothing initialised.
  assert.deepEqual(expect(await w.as.manager!('POST', links, { integrationTypes: ['AUTODESK', 'NEWFORMA_KONEKT'] }), 202, 'createAnnotationIntegrationLinks'), { created: {} });

  const hub = expect(await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 201);
  expect(await w.as.manager!('POST', `${projectUrl(P)}/integrations/konekt`, { hubId: 'hub-1', konektProjectId: 41, options: { allowInviteUsers: true } }), 201);
  expect(await w.as.manager!('POST', `${projectUrl(P)}/integrations/autodesk`, { autodeskHubId: 'b.hub', autodeskProjectId: 'b.project' }), 201);
  // The manager connected to Autodesk in the previous test; the project owner did not.
  const made = expect(await w.as.manager!('POST', links, { annotations: [byManager.id, byOwner.id], integrationTypes: ['AUTODESK', 'NEWFORMA_KONEKT', 'PROCORE'] }), 202, 'createAnnotationIntegrationLinks');
  assert.deepEqual(made, { created: { [byManager.id]: ['AUTODESK', 'NEWFORMA_KONEKT'], [byOwner.id]: ['NEWFORMA_KONEKT'] } });
  // Again: they exist.
  assert.deepEqual(expect(await w.as.manager!('POST', links, { integrationTypes: ['AUTODESK', 'NEWFORMA_KONEKT'] }), 202), { created: {} });
  const rows = await sql.query<{ type: string; url: string | null }>(
    'SELECT integration_type AS type, url FROM annotation_integration_links WHERE project_id = $1 ORDER BY integration_type', [uuidOf(P.id)]);
  assert.deepEqual(rows.map((r) => [r.type, r.url]), [['AUTODESK', null], ['NEWFORMA_KONEKT', null], ['NEWFORMA_KONEKT', null]]);
  assert.deepEqual(await eventsOf('annotation-integration-links.'), ['annotation-integration-links.created']);
  // The annotations' `integrations` field shows them, pending (url null), in the vendor's shape.
  const shown = expect(await w.as.manager!('GET', `${projectUrl(P)}/annotations/${byManager.id}`), 200, 'getAnnotationById');
  const pending = { url: null, status: 'pending', failure: null };
  assert.deepEqual(shown.integrations, [{ type: 'AUTODESK', ...pending }, { type: 'NEWFORMA_KONEKT', ...pending }]);
  const listed = expect(await w.as.manager!('GET', `${projectUrl(P)}/annotations`), 200, 'getAnnotationsFromProject');
  assert.deepEqual(listed.find((a: any) => a.id === byOwner.id).integrations, [{ type: 'NEWFORMA_KONEKT', ...pending }]);

  assertProblem(await w.as.manager!('POST', links, { annotations: ['urn:svc:annotation:8b0c5e4e-8a53-4a6f-9d5e-3f1f0a1b2c3d'], integrationTypes: ['AUTODESK'] }), 404, 'annotation-not-found');
  assertProblem(await w.as.manager!('POST', links, { annotations: ['urn:svc:project:8b0c5e4e-8a53-4a6f-9d5e-3f1f0a1b2c3d'], integrationTypes: ['AUTODESK'] }), 400, 'invalid-annotation-urn');
  assertProblem(await w.as.manager!('POST', links, { integrationTypes: ['SHAREPOINT'] }), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', links, {}), 400, 'invalid-input');

  assert.equal((await w.as.manager!('DELETE', '/api/2/integrations/autodesk/connection')).status, 204);
  assertProblem(await w.as.manager!('DELETE', '/api/2/integrations/autodesk/connection'), 404, 'autodesk-connection-not-found');
  assertProblem(await w.as.manager!('GET', '/api/2/integrations/autodesk/connection'), 404, 'autodesk-connection-not-found');
  for (const p of ['konekt', 'autodesk']) assert.equal((await w.as.manager!('DELETE', `${projectUrl(P)}/integrations/${p}`)).status, 204);
  assert.equal((await w.as.owner!('DELETE', `${A2}/integrations/konekt/${hub.id}`)).status, 204);
});

test('without configuration: what needs Konekt or Autodesk answers 503 integration-unavailable (never a made-up success), and the records still work', async () => {
  bare = await testApp();
  wBare = await projectWorld(bare);
  const p = await createProject(wBare.as.projectOwner!);
  const unavailable = (res: Res, integration: string) =>
    assert.equal(assertProblem(res, 503, 'integration-unavailable').errorValues.integration, integration);
  unavailable(await wBare.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 'NEWFORMA_KONEKT');
  unavailable(await wBare.as.projectOwner!('GET', '/api/2/integrations/autodesk/connection/url?redirectUri=http://localhost:5173/'), 'AUTODESK');
  unavailable(await wBare.as.projectOwner!('POST', `${projectUrl(p)}/annotations/bulk-create-integration`, { integrationTypes: ['AUTODESK'] }), 'AUTODESK');
  unavailable(await wBare.as.projectOwner!('POST', `${projectUrl(p)}/annotations/bulk-create-integration`, { integrationTypes: ['NEWFORMA_KONEKT'] }), 'NEWFORMA_KONEKT');
  unavailable(await wBare.as.projectOwner!('POST', `${projectUrl(p)}/integrations/konekt`, { hubId: 'hub-1', konektProjectId: null, options: { allowInviteUsers: true } }), 'NEWFORMA_KONEKT');
  // PROCORE is never offered: left out, as the vendor leaves out a link whose configuration is missing.
  assert.deepEqual(expect(await wBare.as.projectOwner!('POST', `${projectUrl(p)}/annotations/bulk-create-integration`, { integrationTypes: ['PROCORE'] }), 202), { created: {} });

  const k = expect(await wBare.as.projectOwner!('POST', `${projectUrl(p)}/integrations/konekt`, { hubId: 'hub-1', konektProjectId: 7, options: { allowInviteUsers: true } }), 201, 'createKonektProjectIntegration');
  assert.equal(k.link, '');
  expect(await wBare.as.projectOwner!('POST', `${projectUrl(p)}/integrations/autodesk`, { autodeskHubId: 'h', autodeskProjectId: 'p' }), 201, 'createAutodeskProjectIntegration');
  expect(await wBare.as.projectOwner!('GET', `${projectUrl(p)}/integrations`), 200, 'getProjectIntegrations');
  assert.deepEqual(expect(await wBare.as.owner!('GET', `${A2}/integrations`), 200), { konekt: [] });
  assertProblem(await wBare.as.owner!('GET', '/api/2/integrations/autodesk/connection'), 404, 'autodesk-connection-not-found');
});

test('getAutodeskConnectionUrl with answer=json (our extension, for the console) answers 200 {url}: the same sign-in address with a fresh single-use state; another answer is refused', async () => {
  const res = await w.as.viewer!('GET', `/api/2/integrations/autodesk/connection/url?redirectUri=${encodeURIComponent('https://app.example/back')}&answer=json`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const url = new URL(res.body.url);
  assert.equal(url.origin + url.pathname, `${fake.url}/authentication/v2/authorize`);
  assert.equal(url.searchParams.get('client_id'), fake.autodesk.clientId);
  assert.ok((url.searchParams.get('state') ?? '').length >= 40);
  const redirect = await startAutodeskSignIn(w.as.viewer!, 'https://app.example/back');
  assert.notEqual(redirect.searchParams.get('state'), url.searchParams.get('state'));
  assertProblem(await w.as.viewer!('GET', `/api/2/integrations/autodesk/connection/url?redirectUri=${encodeURIComponent('https://app.example/back')}&answer=html`), 400, 'invalid-input');
});
