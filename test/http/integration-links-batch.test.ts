// The batch behind createAnnotationIntegrationLinks (docs/integrations.md "Integration links"),
// against a fake Konekt and a fake Autodesk: a real HTTP server on a loopback port started here
// (test/support/fake-integrations.ts). Rules checked: a pending link becomes an issue at the
// third party and its `url` is set; Autodesk is called as the annotation's author, with a token
// at its end renewed first (single-use refresh tokens: one renewal per user at a time) and a
// refused one renewed once; no answer leaves the link pending with its reason, retried after
// 30 s doubled, failed after 8 attempts; a refusal or a missing configuration fails it at once;
// a failed link is initialised again by a new request; a link is claimed by one pass at a time
// (two passes at once create each issue once) and taken over after its lease; a repeated
// request creates nothing twice at a third party that honours its key; the task runs on a
// server up longer than its period. PGlite by default; TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { looksSealed } from '../../src/core/crypto/secret-box.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, addMembers, createProject, emailOf, projectWorld, uuidOf, type Call, type World } from '../support/projects.ts';
import { loadVendorValidator, describeErrors, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';
import { connectToAutodesk, startFakeIntegrations, type FakeIntegrations } from '../support/fake-integrations.ts';

const HUB_TOKEN = 'konekt-token-of-the-batch-hub';
/** Generous: the fake answers from this process, which PGlite shares (a slow answer would be "no answer", and retried). */
const TIMEOUT = 30;
const LEASE_SECONDS = 3 * TIMEOUT + 30;
let fake: FakeIntegrations;
let t: TestApp;
let w: World;
let sql: Sql;
let vendor: VendorValidator | null = null;

const env = (fakeUrl: string, periods: string) => ({
  KONEKT_API_URL: fakeUrl, AUTODESK_API_URL: fakeUrl, AUTODESK_CLIENT_ID: 'scanbase-app', AUTODESK_CLIENT_SECRET: 'app-secret-1',
  INTEGRATIONS_TIMEOUT: String(TIMEOUT), TASK_PERIODS: periods,
});

before(async () => {
  fake = await startFakeIntegrations();
  fake.hubs.push({ token: HUB_TOKEN, id: 'hub-b', name: 'Batch hub', beta: false, projects: [{ id: '41', name: 'Tower' }] });
  fake.autodesk.hubs = [{ id: 'b.hub', name: 'Acme ACC', projects: [{ id: 'b.tower', name: 'Tower' }] }];
  // The batch runs when a test says so here; the last test shows the task running on its own.
  t = await testApp(env(fake.url, 'integration-links=86400'), { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
  const inject = (url: string) => t.app.inject({ method: 'GET', url });
  await connectToAutodesk(fake, inject, w.as.manager!, 'autodesk-access-manager', emailOf('manager'));
  await connectToAutodesk(fake, inject, w.as.projectOwner!, 'autodesk-access-owner', emailOf('projectOwner'));
  const hub = await w.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN });
  assert.equal(hub.status, 201, JSON.stringify(hub.body));
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
});
after(async () => {
  await t?.close();
  await fake?.close();
});

const ok = (res: { status: number; body: any }, status: number) => {
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res.body;
};
const projectUrl = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;
/** Through the sandbox clock: the offset is stored, so the clock's periodic reload on this node keeps it (a write to the clock alone was put back by the reload, and a token due to end was not). */
const advance = async (seconds: number) => { await t.core.sandboxClock.advance(seconds); };
const eventsOf = async (type: string) =>
  (await sql.query<{ data: any }>('SELECT data FROM domain_events WHERE type = $1 ORDER BY seq', [type])).map((e) => e.data);

/** A project configured for Konekt (hub-b, project 41) and Autodesk (b.hub / b.tower); the manager may write annotations on its root. */
async function configuredProject(): Promise<any> {
  const p = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
  ok(await w.as.manager!('POST', `${projectUrl(p)}/integrations/konekt`, { hubId: 'hub-b', konektProjectId: 41, options: { allowInviteUsers: false } }), 201);
  ok(await w.as.manager!('POST', `${projectUrl(p)}/integrations/autodesk`, { autodeskHubId: 'b.hub', autodeskProjectId: 'b.tower' }), 201);
  return p;
}

async function annotate(call: Call, p: any, title: string, description: string | null = null): Promise<any> {
  return ok(await call('POST', `${projectUrl(p)}/annotations`, {
    workzoneId: p.rootWorkzoneId, annotationType: 'Issue', title, description, position: { x: 1, y: 2, z: 3 }, savedView: null,
  }), 201);
}

const initialise = async (p: any, annotations: any[], types: string[]) =>
  ok(await w.as.manager!('POST', `${projectUrl(p)}/annotations/bulk-create-integration`, { annotations: annotations.map((a) => a.id), integrationTypes: types }), 202);

async function linksOf(p: any, annotation: any): Promise<any[]> {
  const body = ok(await w.as.manager!('GET', `${projectUrl(p)}/annotations/${annotation.id}`), 200);
  if (vendor) {
    const errors = vendor.validate('getAnnotationById', 200, body);
    assert.deepEqual(errors, [], describeErrors(errors));
  }
  return body.integrations;
}

test('a pending Konekt link becomes an issue on the project\'s Konekt project, asked with the hub\'s token: the url is set, the issue carries the annotation\'s number, title, description and console address, an event says so, and a second pass asks nothing', async () => {
  const p = await configuredProject();
  const note = await annotate(w.as.manager!, p, 'Cracked beam', 'North side, level 2');
  assert.deepEqual(await initialise(p, [note], ['NEWFORMA_KONEKT']), { created: { [note.id]: ['NEWFORMA_KONEKT'] } });
  assert.deepEqual(await linksOf(p, note), [{ type: 'NEWFORMA_KONEKT', url: null, status: 'pending', failure: null }]);

  const before = fake.issues.length;
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  const issue = fake.issues.at(-1)!;
  assert.equal(fake.issues.length, before + 1);
  assert.deepEqual({ ...issue, id: undefined, key: undefined }, {
    system: 'konekt', id: undefined, project: '41', title: `#${note.number} Cracked beam`, description: 'North side, level 2', key: undefined, token: HUB_TOKEN,
  });
  assert.match(issue.key, new RegExp(`${uuidOf(note.id)}-NEWFORMA_KONEKT$`));
  const url = `${fake.url}/hubs/hub-b/projects/41/issues/${issue.id}`;
  assert.deepEqual(await linksOf(p, note), [{ type: 'NEWFORMA_KONEKT', url, status: 'created', failure: null }]);
  const sent = JSON.parse(fake.requests.filter((r) => r.url === '/v1/hub/projects/41/issues').at(-1)!.body);
  assert.equal(sent.externalLink, `http://localhost:8080/console/a/${A2.split('/').at(-1)}/p/${uuidOf(p.id)}?tab=annotations`);
  const events = (await eventsOf('annotation-integration-link.created')).filter((e) => e.annotationId === uuidOf(note.id));
  assert.deepEqual(events.map((e) => [e.integration, e.url, e.projectId]), [['NEWFORMA_KONEKT', url, uuidOf(p.id)]]);

  const requests = fake.requests.length;
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 0, retried: 0 });
  assert.equal(fake.requests.length, requests, 'a created link is not asked again');
  // Asked again, a created link exists: nothing is initialised.
  assert.deepEqual(await initialise(p, [note], ['NEWFORMA_KONEKT']), { created: {} });
});

test('Autodesk is asked as the annotation\'s author: a token at its end is renewed first, once for two links (refresh tokens are single use), the new tokens kept sealed; a token Autodesk refuses is renewed once and the call repeated', async () => {
  const p = await configuredProject();
  const first = await annotate(w.as.manager!, p, 'Missing rail');
  const second = await annotate(w.as.manager!, p, 'Loose cable tray');
  const byOwner = await annotate(w.as.projectOwner!, p, 'By the owner');
  await initialise(p, [first, second, byOwner], ['AUTODESK']);
  // The manager's access token is at its end.
  await sql.query('UPDATE autodesk_connections SET expires_at = $2 WHERE user_id = $1', [w.ids.manager, new Date(t.core.clock.nowMs() + 30_000)]);
  const refreshesBefore = fake.requests.filter((r) => r.url === '/authentication/v2/token' && r.body.includes('grant_type=refresh_token')).length;

  assert.deepEqual(await t.core.integrationLinks.run(), { created: 3, failed: 0, retried: 0 });
  const refreshes = fake.requests.filter((r) => r.url === '/authentication/v2/token' && r.body.includes('grant_type=refresh_token'));
  assert.equal(refreshes.length - refreshesBefore, 1, 'one renewal for the two links of one author');
  assert.equal(new URLSearchParams(refreshes.at(-1)!.body).get('refresh_token'), 'refresh-autodesk-access-manager');
  const issues = fake.issues.filter((i) => i.system === 'autodesk').slice(-3);
  assert.deepEqual(issues.map((i) => i.project), ['tower', 'tower', 'tower'], 'the Issues API\'s project id, without "b."');
  const renewed = issues.find((i) => i.title.endsWith('Missing rail'))!.token;
  assert.match(renewed, /^autodesk-access-renewed-/);
  assert.equal(issues.find((i) => i.title.endsWith('Loose cable tray'))!.token, renewed);
  assert.equal(issues.find((i) => i.title.endsWith('By the owner'))!.token, 'autodesk-access-owner');
  const [stored] = await sql.query<{ access: string; refresh: string; expires: Date }>(
    'SELECT access_token AS access, refresh_token AS refresh, expires_at AS expires FROM autodesk_connections WHERE user_id = $1', [w.ids.manager]);
  assert.ok(looksSealed(stored!.access) && looksSealed(stored!.refresh), 'the renewed tokens are sealed');
  assert.ok(stored!.expires.getTime() > t.core.clock.nowMs() + 3000_000, 'the new end is kept');
  for (const a of [first, second]) {
    const [link] = await linksOf(p, a);
    assert.equal(link.status, 'created');
    assert.match(link.url, new RegExp(`^${fake.url}/hubs/b\\.hub/projects/b\\.tower/issues/issue-\\d+$`));
  }

  // Autodesk stops taking the renewed token before its end: renewed once more, and the issue created.
  fake.autodesk.users.delete(renewed);
  const third = await annotate(w.as.manager!, p, 'Blocked exit');
  await initialise(p, [third], ['AUTODESK']);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  const last = fake.issues.at(-1)!;
  assert.notEqual(last.token, renewed);
  assert.match(last.token, /^autodesk-access-renewed-/);
});

test('a third party that does not answer: the link stays pending with the reason, is retried when due (30 s, then doubled), and fails after 8 attempts; a request after that initialises it again, and it is created', async () => {
  const p = await configuredProject();
  const note = await annotate(w.as.manager!, p, 'Water ingress');
  await initialise(p, [note], ['NEWFORMA_KONEKT']);
  fake.issueFailures.push(503);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 0, retried: 1 });
  const [pending] = await linksOf(p, note);
  assert.equal(pending.status, 'pending');
  assert.equal(pending.url, null);
  assert.match(pending.failure, /answered 503/);
  // Not due yet: not asked.
  const requests = fake.requests.length;
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 0, retried: 0 });
  assert.equal(fake.requests.length, requests);
  await advance(31);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  assert.equal((await linksOf(p, note))[0].status, 'created');

  // Down for good: 8 attempts, each when due, then failed with the reason and an event.
  const other = await annotate(w.as.manager!, p, 'Fire door');
  await initialise(p, [other], ['NEWFORMA_KONEKT']);
  fake.failWith = 502;
  try {
    for (let attempt = 1; attempt <= 7; attempt++) {
      assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 0, retried: 1 }, `attempt ${attempt}`);
      await advance(Math.min(3600, 30 * 2 ** (attempt - 1)) - 1);
      assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 0, retried: 0 }, `not due a second before attempt ${attempt + 1}`);
      await advance(1);
    }
    assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 1, retried: 0 });
  } finally {
    fake.failWith = null;
  }
  const [failed] = await linksOf(p, other);
  assert.equal(failed.status, 'failed');
  assert.equal(failed.url, null);
  assert.match(failed.failure, /^Konekt did not answer in 8 attempts: .*answered 502/);
  const events = (await eventsOf('annotation-integration-link.failed')).filter((e) => e.annotationId === uuidOf(other.id));
  assert.equal(events.length, 1);
  assert.equal(events[0].failure, failed.failure);

  assert.deepEqual(await initialise(p, [other], ['NEWFORMA_KONEKT']), { created: { [other.id]: ['NEWFORMA_KONEKT'] } });
  assert.deepEqual(await linksOf(p, other), [{ type: 'NEWFORMA_KONEKT', url: null, status: 'pending', failure: null }]);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  assert.equal((await linksOf(p, other))[0].status, 'created');
});

test('a link that cannot be created as things stand fails at once with why: the project\'s configuration removed, the author disconnected from Autodesk, the third party refusing it', async () => {
  const p = await configuredProject();
  const note = await annotate(w.as.manager!, p, 'Scaffold');
  const byOwner = await annotate(w.as.projectOwner!, p, 'Owner\'s note');
  await initialise(p, [note, byOwner], ['NEWFORMA_KONEKT', 'AUTODESK']);
  assert.equal((await w.as.manager!('DELETE', `${projectUrl(p)}/integrations/konekt`)).status, 204);
  await sql.query('DELETE FROM autodesk_connections WHERE user_id = $1', [w.ids.projectOwner]);
  fake.issueFailures.push(403);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 4, retried: 0 });
  const failures = [...await linksOf(p, note), ...await linksOf(p, byOwner)].map((l) => [l.type, l.status, l.failure]);
  assert.deepEqual(failures, [
    ['AUTODESK', 'failed', `Autodesk refused it: 127.0.0.1:${new URL(fake.url).port} answered 403`],
    ['NEWFORMA_KONEKT', 'failed', 'the project is no longer configured for Konekt'],
    ['AUTODESK', 'failed', 'the annotation\'s author is not connected to Autodesk'],
    ['NEWFORMA_KONEKT', 'failed', 'the project is no longer configured for Konekt'],
  ]);
  // The owner signs in to Autodesk again: initialised again, the link is created.
  await connectToAutodesk(fake, (url) => t.app.inject({ method: 'GET', url }), w.as.projectOwner!, 'autodesk-access-owner-2', emailOf('projectOwner'));
  assert.deepEqual(await initialise(p, [byOwner], ['AUTODESK']), { created: { [byOwner.id]: ['AUTODESK'] } });
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  assert.equal(fake.issues.at(-1)!.token, 'autodesk-access-owner-2');
});

test('a link is claimed by one pass at a time: two passes at once create each of 12 issues once; a link held by a node that died is taken over after its lease, and asked again with the same key it creates nothing twice', async () => {
  const p = await configuredProject();
  const notes = [];
  for (let i = 0; i < 12; i++) notes.push(await annotate(w.as.manager!, p, `Item ${i}`));
  await initialise(p, notes, ['NEWFORMA_KONEKT']);
  const before = fake.issues.length;
  const [a, b] = await Promise.all([t.core.integrationLinks.run(), t.core.integrationLinks.run()]);
  assert.equal(a.created + b.created, 12);
  assert.equal(fake.issues.length - before, 12);
  assert.equal(new Set(fake.issues.slice(before).map((i) => i.key)).size, 12);

  // A node claimed a link and died: its lease (3 × INTEGRATIONS_TIMEOUT + 30 s) holds it.
  const held = await annotate(w.as.manager!, p, 'Held');
  await initialise(p, [held], ['NEWFORMA_KONEKT']);
  await sql.query('UPDATE annotation_integration_links SET claimed_until = $2, attempts = 1 WHERE annotation_id = $1',
    [uuidOf(held.id), new Date(t.core.clock.nowMs() + LEASE_SECONDS * 1000)]);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 0, failed: 0, retried: 0 });
  await advance(LEASE_SECONDS + 1);
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  const url = (await linksOf(p, held))[0].url;

  // Had that node created the issue before it died, the same key asks for it again: nothing more is created.
  await sql.query(`UPDATE annotation_integration_links SET state = 'pending', url = NULL, claimed_until = NULL WHERE annotation_id = $1`, [uuidOf(held.id)]);
  const count = fake.issues.length;
  assert.deepEqual(await t.core.integrationLinks.run(), { created: 1, failed: 0, retried: 0 });
  assert.equal(fake.issues.length, count);
  assert.equal((await linksOf(p, held))[0].url, url);
});

test('the task creates pending links on its own on a server up longer than its period', async () => {
  const server = await testApp(env(fake.url, 'integration-links=1'));
  try {
    const world = await projectWorld(server);
    ok(await world.as.owner!('POST', `${A2}/integrations/konekt`, { token: HUB_TOKEN }), 201);
    const p = await createProject(world.as.projectOwner!);
    ok(await world.as.projectOwner!('POST', `${projectUrl(p)}/integrations/konekt`, { hubId: 'hub-b', konektProjectId: 41, options: { allowInviteUsers: false } }), 201);
    const note = ok(await world.as.projectOwner!('POST', `${projectUrl(p)}/annotations`, {
      workzoneId: p.rootWorkzoneId, annotationType: 'Note', title: 'On its own', position: { x: 0, y: 0, z: 0 }, savedView: null,
    }), 201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    ok(await world.as.projectOwner!('POST', `${projectUrl(p)}/annotations/bulk-create-integration`, { integrationTypes: ['NEWFORMA_KONEKT'] }), 202);
    let status = 'pending';
    for (let waited = 0; status === 'pending' && waited < 15_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = ok(await world.as.projectOwner!('GET', `${projectUrl(p)}/annotations/${note.id}`), 200).integrations[0].status;
    }
    assert.equal(status, 'created');
  } finally {
    await server.close();
  }
});
