// SCIM 2.0 provisioning (docs/identity.md "SCIM provisioning"): the account's SCIM token on
// API 2 (administrators only, shown once, rotated at once); the request sequences Okta and
// Entra ID send, from their public documentation (test/fixtures/scim); filters, pagination
// and SCIM's error format; deactivation ending a user's access from his next request; a
// group's membership driving project access. On PostgreSQL (TEST_DATABASE_URL), the
// deactivation is also seen by a second node from the next request.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, addMembers, assertProblem, caller, createProject, emailOf, projectWorld, uuidOf, urn, type World } from '../support/projects.ts';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { eventually, twoNodes } from '../support/two-nodes.ts';
import { confirmSsoDomain } from '../../src/modules/sso/index.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/scim/${name}.json`, import.meta.url), 'utf8'));
const OKTA = fixture('okta');
const ENTRA = fixture('entra');
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A fixture with the ids this service answered put in. */
const filled = (body: unknown, ids: Record<string, string>) =>
  JSON.parse(JSON.stringify(body).replace(/\{(userId|groupId)\}/g, (_m, k: string) => ids[k]!));

interface ScimRes { status: number; body: any; headers: Record<string, unknown> }
type Scim = (method: string, path: string, body?: unknown) => Promise<ScimRes>;

function scimAs(t: TestApp, token: string): Scim {
  return async (method, path, body) => {
    const res = await t.app.inject({
      method: method as 'GET', url: `/scim/v2${path}`,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
  };
}

function assertScimError(res: ScimRes, status: number, scimType?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(res.body.schemas, [ERROR]);
  assert.equal(res.body.status, String(status));
  if (scimType) assert.equal(res.body.scimType, scimType, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /^application\/scim\+json/);
}

async function scimToken(w: World, who = 'administrator'): Promise<string> {
  const res = await w.as[who]!('POST', `${A2}/scim/token`);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.token;
}

describe('SCIM on one node', () => {
  let t: TestApp;
  let w: World;
  /** The account's SCIM token of the moment, and the IdP calling with it. */
  let token = '';
  const scim: Scim = (method, path, body) => scimAs(t, token)(method, path, body);

  before(async () => {
    t = await testApp();
    w = await projectWorld(t);
    token = await scimToken(w);
  });
  after(() => t.close());

  test('the SCIM token: administrators make it (shown once, stored hashed), others are refused, a new one replaces the old at once, revoked it is refused', async () => {
    const made = await w.as.owner!('POST', `${A2}/scim/token`);
    assert.equal(made.status, 201);
    assert.match(made.body.token, /^scim_/);
    assert.equal(made.body.baseUrl, 'http://localhost:8080/scim/v2');
    const shown = await w.as.administrator!('GET', `${A2}/scim/token`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.hasToken, true);
    assert.equal(shown.body.createdBy, urn('user', w.ids.owner!));
    assert.ok(!JSON.stringify(shown.body).includes(made.body.token), 'never shown again');
    const stored = await t.core.store.repos.scim.token(uuidOf((await w.as.owner!('GET', A2)).body.id));
    assert.ok(stored && !stored.tokenHash.includes(made.body.token) && stored.tokenHash.length === 64, 'a SHA-256, not the token');
    for (const who of ['projectManager', 'projectLister', 'member', 'viewer'] as const) {
      assertProblem(await w.as[who]!('GET', `${A2}/scim/token`), 403, 'read-scim-forbidden');
      assertProblem(await w.as[who]!('POST', `${A2}/scim/token`), 403, 'manage-scim-forbidden');
      assertProblem(await w.as[who]!('DELETE', `${A2}/scim/token`), 403, 'manage-scim-forbidden');
    }
    assertProblem(await w.as.outsider!('GET', `${A2}/scim/token`), 404, 'account-not-found');
    assertProblem(await w.as.owner!('POST', `/api/2/accounts/${urn('project', w.ids.owner!)}/scim/token`), 400, 'invalid-account-urn');
    // scim's token (made in before) was replaced by the owner's: refused from now on.
    assertScimError(await scim('GET', '/Users'), 401);
    token = made.body.token;
    assert.equal((await scim('GET', '/Users')).status, 200);
    assert.equal((await w.as.administrator!('DELETE', `${A2}/scim/token`)).status, 204);
    assertScimError(await scim('GET', '/Users'), 401);
    assertProblem(await w.as.administrator!('DELETE', `${A2}/scim/token`), 404, 'scim-token-not-found');
    token = await scimToken(w);
  });

  test('without the account\'s SCIM token nothing is answered: no token, a user\'s access token, a made-up token are 401 in SCIM\'s format', async () => {
    assertScimError(await scimAs(t, '')('GET', '/Users'), 401);
    assertScimError(await scimAs(t, (await t.tokens(emailOf('owner'))).access_token)('GET', '/ServiceProviderConfig'), 401);
    assertScimError(await scimAs(t, 'scim_madeup')('POST', '/Users', OKTA.createUser), 401);
  });

  test('discovery: ServiceProviderConfig (patch and filter supported, bulk not), ResourceTypes User and Group, their Schemas', async () => {
    const spc = await scim('GET', '/ServiceProviderConfig');
    assert.equal(spc.status, 200);
    assert.equal(spc.body.patch.supported, true);
    assert.equal(spc.body.filter.supported, true);
    assert.equal(spc.body.bulk.supported, false);
    assert.deepEqual((await scim('GET', '/ResourceTypes')).body.Resources.map((r: any) => r.id), ['User', 'Group']);
    assert.equal((await scim('GET', '/ResourceTypes/Group')).body.endpoint, '/Groups');
    const schemas = (await scim('GET', '/Schemas')).body.Resources.map((s: any) => s.id);
    assert.deepEqual(schemas, ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:core:2.0:Group']);
    assertScimError(await scim('GET', '/Schemas/urn:nothing'), 404);
  });

  test('Okta\'s sequence: look up, create, update (PUT), group create, member add, rename, member remove, deactivate, reactivate', async () => {
    const none = await scim('GET', OKTA.getUserByUserName);
    assert.equal(none.status, 200);
    assert.equal(none.body.totalResults, 0);
    const created = await scim('POST', '/Users', OKTA.createUser);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.userName, 'test.user@okta.local');
    assert.equal(created.body.externalId, '00ujl29u0le5T6Aj10h7');
    assert.equal(created.body.active, true);
    assert.equal(created.body.meta.location, `http://localhost:8080/scim/v2/Users/${created.body.id}`);
    const ids = { userId: created.body.id as string, groupId: '' };
    const found = await scim('GET', OKTA.getUserByUserName);
    assert.equal(found.body.totalResults, 1);
    assert.equal(found.body.Resources[0].id, ids.userId);
    // The user is a member of the account (API 2 sees him), with no role.
    const asMember = await w.as.owner!('GET', `${A2}/users/${ids.userId}`);
    assert.equal(asMember.status, 200, JSON.stringify(asMember.body));
    assertScimError(await scim('POST', '/Users', OKTA.createUser), 409, 'uniqueness');

    const put = await scim('PUT', `/Users/${ids.userId}`, filled(OKTA.updateUserPut, ids));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.name.givenName, 'Another');

    const group = await scim('POST', '/Groups', OKTA.createGroup);
    assert.equal(group.status, 201, JSON.stringify(group.body));
    ids.groupId = group.body.id;
    const added = await scim('PATCH', `/Groups/${ids.groupId}`, filled(OKTA.addGroupMember, ids));
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.members.map((m: any) => m.value), [ids.userId]);
    const inApi2 = await w.as.owner!('GET', `${A2}/groups/${ids.groupId}`);
    assert.equal(inApi2.status, 200);
    assert.equal(JSON.stringify(inApi2.body).includes(ids.userId), true, 'API 2 sees the member');
    const renamed = await scim('PATCH', `/Groups/${ids.groupId}`, filled(OKTA.renameGroup, ids));
    assert.equal(renamed.body.displayName, 'Test SCIMv2 renamed');
    const removed = await scim('PATCH', `/Groups/${ids.groupId}`, filled(OKTA.removeGroupMember, ids));
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.members, []);

    const off = await scim('PATCH', `/Users/${ids.userId}`, OKTA.deactivateUser);
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.active, false);
    assert.equal((await scim('GET', OKTA.getUserByUserName)).body.Resources[0].active, false, 'still found, inactive');
    assertProblem(await w.as.owner!('GET', `${A2}/users/${ids.userId}`), 404, 'user-not-found');
    const on = await scim('PATCH', `/Users/${ids.userId}`, OKTA.reactivateUser);
    assert.equal(on.body.active, true);
    assert.equal((await w.as.owner!('GET', `${A2}/users/${ids.userId}`)).status, 200, 'a member again');
  });

  test('Entra ID\'s sequence: create (userName not an e-mail), look up by userName and externalId, PATCH with capitalised ops, group create, look up without members, member add and remove, disable with "False"', async () => {
    const created = await scim('POST', '/Users', ENTRA.createUser);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.userName, ENTRA.createUser.userName, 'the IdP\'s userName is kept');
    assert.equal(created.body.emails[0].value, 'test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com');
    const ids = { userId: created.body.id as string, groupId: '' };
    for (const path of [ENTRA.getUserByUserName, ENTRA.getUserByExternalId]) {
      const found = await scim('GET', path);
      assert.equal(found.body.totalResults, 1, path);
      assert.equal(found.body.Resources[0].id, ids.userId);
    }
    const patched = await scim('PATCH', `/Users/${ids.userId}`, ENTRA.updateUser);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.name.familyName, 'updatedFamilyName');

    const group = await scim('POST', '/Groups', ENTRA.createGroup);
    assert.equal(group.status, 201, JSON.stringify(group.body));
    assert.equal(group.body.externalId, ENTRA.createGroup.externalId);
    ids.groupId = group.body.id;
    const found = await scim('GET', ENTRA.getGroupByDisplayName);
    assert.equal(found.body.totalResults, 1);
    assert.equal(found.body.Resources[0].id, ids.groupId);
    assert.equal(found.body.Resources[0].members, undefined, 'excludedAttributes=members');
    assert.equal((await scim('PATCH', `/Groups/${ids.groupId}`, filled(ENTRA.addMember, ids))).body.members.length, 1);
    assert.equal((await scim('PATCH', `/Groups/${ids.groupId}`, filled(ENTRA.removeMember, ids))).body.members.length, 0);

    const off = await scim('PATCH', `/Users/${ids.userId}`, ENTRA.disableUser);
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.active, false);
    assert.equal((await scim('DELETE', `/Users/${ids.userId}`)).status, 204);
    assertScimError(await scim('GET', `/Users/${ids.userId}`), 404);
  });

  test('deactivation ends the user\'s access at once: his access token is refused from the next request, his refresh token too', async () => {
    const pair = await t.tokens(emailOf('dave'));
    const dave = caller(t, pair.access_token);
    assert.equal((await dave('GET', A2)).status, 200);
    const off = await scim('PATCH', `/Users/${w.ids.dave}`, ENTRA.disableUser);
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal((await dave('GET', A2)).status, 401);
    const refreshed = await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'refresh_token', refresh_token: pair.refresh_token } });
    assert.equal(refreshed.statusCode, 401);
    assert.equal(refreshed.json().error, 'invalid_grant');
  });

  test('removing a user from a group takes the project access the group gave him, from his next request', async () => {
    const p = await createProject(w.as.projectOwner!);
    const group = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Surveyors via SCIM' });
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: group.body.id, role: w.roles.Viewer }] });
    const erin = caller(t, (await t.tokens(emailOf('erin'))).access_token);
    const url = `${A2}/projects/${uuidOf(p.id)}/workzones`;
    assert.equal((await erin('GET', url)).status, 403);
    const ids = { userId: w.ids.erin!, groupId: group.body.id };
    assert.equal((await scim('PATCH', `/Groups/${ids.groupId}`, filled(OKTA.addGroupMember, ids))).status, 200);
    assert.equal((await erin('GET', url)).status, 200);
    assert.equal((await scim('PATCH', `/Groups/${ids.groupId}`, filled(OKTA.removeGroupMember, ids))).status, 200);
    assert.equal((await erin('GET', url)).status, 403);
  });

  test('filters: eq on userName, externalId, displayName, with and/or; a filter the grammar refuses is 400 invalidFilter', async () => {
    const both = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${emailOf('alice')}" or userName eq "${emailOf('bob')}"`)}`);
    assert.deepEqual(both.body.Resources.map((u: any) => u.userName).sort(), [emailOf('alice'), emailOf('bob')]);
    const and = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${emailOf('alice')}" and active eq true`)}`);
    assert.equal(and.body.totalResults, 1);
    const groups = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "field team"')}`);
    assert.equal(groups.body.totalResults, 1, 'case-insensitive');
    for (const bad of ['userName eq', 'userName xx "a"', '(userName eq "a"', 'userName eq "a" and']) {
      assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent(bad)}`), 400, 'invalidFilter');
    }
  });

  test('pagination: startIndex (1-based) and count page the list, totalResults counts all', async () => {
    const all = (await scim('GET', '/Users')).body;
    assert.ok(all.totalResults >= 10);
    const page = (await scim('GET', '/Users?startIndex=3&count=2')).body;
    assert.equal(page.totalResults, all.totalResults);
    assert.equal(page.startIndex, 3);
    assert.equal(page.itemsPerPage, 2);
    assert.deepEqual(page.Resources.map((u: any) => u.id), all.Resources.slice(2, 4).map((u: any) => u.id));
    assert.equal((await scim('GET', '/Users?count=0')).body.Resources.length, 0);
  });

  test('errors are SCIM\'s: unknown ids 404, bad JSON and bad PATCH 400, the owner cannot be deactivated, a user of another account is not taken', async () => {
    assertScimError(await scim('GET', '/Users/not-a-uuid'), 404);
    assertScimError(await scim('GET', `/Users/${w.ids.outsider}`), 404);
    assertScimError(await scim('GET', '/Groups/9f1f1f1f-1f1f-4f1f-8f1f-1f1f1f1f1f1f'), 404);
    const raw = await t.app.inject({ method: 'POST', url: '/scim/v2/Users', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, payload: '{"userName":' });
    assert.equal(raw.statusCode, 400);
    assert.equal(raw.json().scimType, 'invalidSyntax');
    assertScimError(await scim('PATCH', `/Users/${w.ids.alice}`, { Operations: [] }), 400, 'invalidSyntax');
    assertScimError(await scim('PATCH', `/Users/${w.ids.alice}`, { schemas: [OKTA.deactivateUser.schemas[0]], Operations: [{ op: 'move', path: 'active' }] }), 400, 'invalidSyntax');
    assertScimError(await scim('PATCH', `/Users/${w.ids.alice}`, { schemas: [OKTA.deactivateUser.schemas[0]], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }), 400, 'invalidValue');
    assertScimError(await scim('PATCH', `/Users/${w.ids.owner}`, OKTA.deactivateUser), 400, 'mutability');
    // projectOwner owns the project made above: his projects must be transferred first, and nothing changed.
    const owns = await scim('PATCH', `/Users/${w.ids.projectOwner}`, OKTA.deactivateUser);
    assertScimError(owns, 400, 'mutability');
    assert.match(owns.body.detail, /owns projects/);
    assert.equal((await scim('GET', `/Users/${w.ids.projectOwner}`)).body.active, true);
    assertScimError(await scim('POST', '/Users', { ...OKTA.createUser, userName: emailOf('outsider'), externalId: 'x' }), 409, 'uniqueness');
    assertScimError(await scim('POST', '/Users', { schemas: OKTA.createUser.schemas }), 400);
    assertScimError(await scim('POST', '/Groups', { displayName: 'Field team' }), 409, 'uniqueness');
    assertScimError(await scim('PATCH', `/Groups/c1111111-1111-4111-8111-111111111111`, filled(OKTA.addGroupMember, { userId: w.ids.outsider! })), 400, 'invalidValue');
  });

  test('a Scanbase user outside the account is taken only once the account has his e-mail domain verified', async () => {
    const body = { schemas: OKTA.createUser.schemas, userName: emailOf('outsider'), name: { givenName: 'Out', familyName: 'Sider' } };
    assertScimError(await scim('POST', '/Users', body), 409, 'uniqueness');
    const claimed = await w.as.owner!('POST', `${A2}/sso/domains`, { domain: 'proj.test' });
    assert.equal(claimed.status, 201, JSON.stringify(claimed.body));
    await confirmSsoDomain({ store: t.core.store, clock: t.core.clock }, 'proj.test', claimed.body.verificationToken);
    const taken = await scim('POST', '/Users', body);
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    assert.equal(taken.body.id, w.ids.outsider, 'the same user, not a copy');
    assert.equal(taken.body.active, true);
  });
});

describe('SCIM deactivation across two nodes (PostgreSQL)', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (two nodes share a PostgreSQL database)' }, () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  let w: World;
  before(async () => {
    nodes = await twoNodes();
    w = await projectWorld(nodes.a);
  });
  after(async () => {
    await nodes?.close();
  });

  test('a user deactivated through node A: his access token, cached by node B, is refused by node B from the next request', async () => {
    const scim = scimAs(nodes.a, await scimToken(w));
    const { access_token } = await nodes.a.tokens(emailOf('carol'));
    const onB = async () => (await nodes.b.app.inject({ url: A2, headers: { authorization: `Bearer ${access_token}` } })).statusCode;
    assert.equal(await onB(), 200, 'node B caches the token and carol\'s revocation point');
    const off = await scim('PATCH', `/Users/${w.ids.carol}`, ENTRA.disableUser);
    assert.equal(off.status, 200, JSON.stringify(off.body));
    // The event reaches node B through LISTEN/NOTIFY; well under the 60 s cache lifetime.
    assert.equal(await eventually(onB, (s) => s === 401, 3000), 401);
  });
});
