// Existence across tenants (docs/security.md "Existence across tenants", issue 26 item 13):
// a caller learns nothing of another tenant's objects. Another account answers every
// route under it exactly as an account that does not exist (404 account-not-found, both
// APIs); another account's projects, roles, groups, users, subscriptions and webhooks named
// through the caller's own account answer as unknown ones; a connect slug of another
// tenant's job as an unknown slug; a user of another tenant named in a member removal as
// an unknown user. Each pair is compared whole: status and body, the id aside.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, OTHER_ACCOUNT_ID, caller, createProject, emailOf, projectWorld, uuidOf, type Call, type Method, type World,
} from '../support/projects.ts';

const UNKNOWN = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
const B2 = `/api/2/accounts/${OTHER_ACCOUNT_ID}`;

let t: TestApp;
let w: World;
let other: Call;
/** Another tenant's objects, by kind. */
const theirs: Record<string, string> = {};
let mine: { projectId: string; rootId: string };

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  // The other tenant's owner creates its projects: he is its project manager too.
  await t.seed({ accounts: [{ id: OTHER_ACCOUNT_ID, name: 'Elsewhere', owner: emailOf('other-owner'), projectManagers: [emailOf('other-owner')] }] });
  other = caller(t, (await t.tokens(emailOf('other-owner'))).access_token);
  const subs = await other('GET', `${B2}/subscriptions`);
  const project = await other('POST', `${B2}/projects`, { name: 'Their project', subscriptionId: subs.body[0].id });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  theirs.project = uuidOf(project.body.id);
  theirs.root = project.body.rootWorkzoneId ? uuidOf(project.body.rootWorkzoneId) : '';
  theirs.role = uuidOf((await other('POST', `${B2}/roles`, { name: 'Theirs', legacyPermissions: ['view3d'] })).body.id);
  theirs.group = uuidOf((await other('POST', `${B2}/groups`, { name: 'Their group' })).body.id);
  theirs.subscription = uuidOf(subs.body[0].id);
  const hook = await other('POST', `${B2}/webhooks`, { url: 'https://hooks.example.com/theirs', events: ['*'] });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  theirs.webhook = uuidOf(hook.body.id);
  theirs.user = w.ids.outsider!;
  const job = await other('POST', `/api/accounts/${OTHER_ACCOUNT_ID}/projects/${theirs.project}/workzones/${theirs.root}/connect/import`);
  assert.equal(job.status, 200, JSON.stringify(job.body));
  theirs.slug = job.body.slug;
  const p = await createProject(w.as.projectOwner!);
  mine = { projectId: uuidOf(p.id), rootId: uuidOf(p.rootWorkzoneId) };
});
after(() => t?.close());

/** The answer to `url(id)`, its id replaced by a placeholder: what the caller can compare. */
async function answer(method: Method, url: (id: string) => string, id: string, payload?: unknown) {
  const res = await w.as.owner!(method, url(id), payload);
  return { status: res.status, body: JSON.stringify(res.body).replaceAll(id, '<id>').replaceAll(encodeURIComponent(id), '<id>') };
}

async function assertSame(method: Method, url: (id: string) => string, theirId: string, unknownId: string, status: number, payload?: unknown) {
  const a = await answer(method, url, theirId, payload);
  const b = await answer(method, url, unknownId, payload);
  assert.equal(a.status, status, `${method} ${url(theirId)}: ${a.body}`);
  assert.deepEqual(a, b, `${method} ${url('…')}: another tenant's object answers as an unknown one`);
}

test('existence: another account answers every route under it, in both APIs, as an account that does not exist', async () => {
  const routes: [Method, string, unknown?][] = [
    ['GET', ''], ['GET', '/subscriptions'], ['GET', '/users'], ['GET', '/roles'], ['GET', '/groups'], ['GET', '/projects'],
    ['GET', '/webhooks'], ['POST', '/users/bulk-invite', [{ email: 'someone@example.com' }]],
    ['GET', `/projects/${UNKNOWN}`], ['DELETE', '/members', [UNKNOWN]],
  ];
  for (const [method, tail, payload] of routes) {
    await assertSame(method, (id) => `/api/2/accounts/${id}${tail}`, OTHER_ACCOUNT_ID, UNKNOWN, 404, payload);
  }
  for (const tail of ['', '/users', '/projects', '/roles', '/groups', '/subscriptions']) {
    await assertSame('GET', (id) => `/api/accounts/${id}${tail}`, OTHER_ACCOUNT_ID, UNKNOWN, 404);
  }
  assert.equal((await other('GET', B2)).status, 200, 'its own members still see it');
});

test('existence: another tenant\'s objects named through the caller\'s own account answer as unknown ones', async () => {
  const cases: [string, (id: string) => string][] = [
    ['project', (id) => `${A2}/projects/${id}`],
    ['role', (id) => `${A2}/roles/${id}`],
    ['group', (id) => `${A2}/groups/${id}`],
    ['user', (id) => `${A2}/users/${id}`],
    ['subscription', (id) => `${A2}/subscriptions/${id}`],
    ['webhook', (id) => `${A2}/webhooks/${id}`],
    ['project', (id) => `${A1}/projects/${id}`],
    ['user', (id) => `${A1}/users/${id}`],
  ];
  for (const [kind, url] of cases) await assertSame('GET', url, theirs[kind]!, UNKNOWN, 404);
});

test('existence: a user of another tenant named in a work-zone member removal answers as an unknown user', async () => {
  await assertSame('DELETE', (id) => `${A2}/projects/${mine.projectId}/workzones/${mine.rootId}/members/users/${id}`, theirs.user!, UNKNOWN, 404);
});

test('existence: another tenant\'s connect job answers as an unknown slug', async () => {
  await assertSame('GET', (slug) => `/connect/${slug}`, theirs.slug!, 'unknownslug0123456789abcdef', 404);
});
