// The project lifecycle end to end, against a real started server, over HTTP with
// operator-issued tokens: create a project, its work zones and members (API 2), read it
// through API 2 and API 1, soft delete (403 deleted-project), restore, permanent delete
// (404 on both generations); then the projects-last-accessed report shows the service's
// current day for a project read that day, and users-last-activity the reader's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callsAs, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';
import { ACCOUNT_ID, GROUP_ID, PROJECT_SEED, SUB_A, SURVEYOR_ID, emailOf } from '../support/projects.ts';

let server: OAuthServer;
const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const A1 = `/api/accounts/${ACCOUNT_ID}`;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  server = await startOAuthServer();
  ({ api, forgetTokens } = callsAs(server, emailOf));
  await server.seed(PROJECT_SEED);
  // Work around noon, service time, so that "today" cannot change under the test.
  const { now } = await server.operator<{ now: string }>('GET', '/clock');
  const t = new Date(now);
  const noon = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + (t.getUTCHours() >= 12 ? 1 : 0), 12);
  await server.advanceClock(Math.ceil((noon - t.getTime()) / 1000));
});
after(async () => {
  await server?.stop();
});

let api: ReturnType<typeof callsAs>['api'];
let forgetTokens: () => void;

const expect = (res: { status: number; body: any }, status: number) => {
  assert.equal(res.status, status, `${JSON.stringify(res.body)}\n--- server log ---\n${server.server.logs().slice(-4000)}`);
  return res.body;
};

test('create, zones, members, read through both APIs, soft delete, restore, permanent delete', async () => {
  const roles = expect(await api('owner', 'GET', `${A2}/roles`), 200) as any[];
  const role = (n: string) => roles.find((r) => r.name === n).id as string;

  const p = expect(await api('projectOwner', 'POST', `${A2}/projects`, { name: 'Harbour', subscriptionId: SUB_A }), 201);
  const P = `${A2}/projects/${uuidOf(p.id)}`;
  const z1 = expect(await api('projectOwner', 'POST', `${P}/workzones`, { name: 'Quay', parentWorkzoneId: p.rootWorkzoneId }), 201);
  const z1a = expect(await api('projectOwner', 'POST', `${P}/workzones`, { name: 'Crane', parentWorkzoneId: z1.id }), 201);
  expect(await api('projectOwner', 'POST', `${P}/members`, { members: { users: [{ user: emailOf('viewer'), role: role('Viewer') }] } }), 204);
  expect(await api('projectOwner', 'POST', `${P}/members`, { workzones: [z1.id], members: { users: [{ user: emailOf('dave'), role: SURVEYOR_ID }] } }), 204);
  expect(await api('projectOwner', 'POST', `${P}/members`, { workzones: [z1a.id], members: { groups: [{ group: GROUP_ID, role: role('Contributor') }] } }), 204);

  // API 2 reads.
  const got = expect(await api('viewer', 'GET', P), 200);
  assert.deepEqual(new Set(got.permissions), new Set(['project:workzones:list', 'project:members:list']));
  assert.equal(expect(await api('viewer', 'GET', `${P}/workzones`), 200).length, 3);
  const access = expect(await api('viewer', 'GET', `${P}/members/access`), 200) as any[];
  const dave = access.find((m) => m.member.email === emailOf('dave'));
  assert.deepEqual(new Set(dave.workzoneIds), new Set([z1.id, z1a.id]));
  assert.deepEqual(access.find((m) => m.member.type === 'group').workzoneIds, [z1a.id]);
  assert.equal(expect(await api('dave', 'GET', `${P}/workzones`), 200).length, 2);
  assert.equal((await api('member', 'GET', P)).body.errorCode, 'not-member-of-project');

  // API 1 reads.
  const p1 = expect(await api('viewer', 'GET', `${A1}/projects/${p.api1Id}`), 200);
  assert.equal(p1.id, p.api1Id);
  assert.equal(p1.workzones.length, 3);
  assert.equal(p1.workzones.filter((z: any) => z.root).length, 1);
  assert.equal(p1.userIds.length, 3);
  assert.equal(p1.groupIds.length, 1);
  assert.deepEqual(p1.permissions, { administrator: false, manager: false, contributor: true });
  const found = expect(await api('owner', 'GET', `${A1}/projects?workzoneId=${z1a.api1Id}`), 200) as any[];
  assert.deepEqual(found.map((x) => x.id), [p.api1Id]);

  // Soft delete: still readable, every other action 403 deleted-project.
  expect(await api('projectOwner', 'DELETE', P), 204);
  assert.equal(expect(await api('viewer', 'GET', P), 200).modificationInfo.isDeleted, true);
  assert.equal(expect(await api('viewer', 'GET', `${A1}/projects/${p.api1Id}`), 200).isDeleted, true);
  const refused = await api('projectOwner', 'POST', `${P}/workzones`, { name: 'Late', parentWorkzoneId: p.rootWorkzoneId });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.errorCode, 'deleted-project');
  assert.equal(refused.body.errorValues.projectId, uuidOf(p.id));
  const refused1 = await api('owner', 'PATCH', `${A1}/projects/${p.api1Id}`, [{ op: 'replace', path: p1.planId, value: p1.planId }]);
  assert.equal(refused1.status, 403);
  assert.equal(refused1.body.code, 'deleted-project');
  assert.equal((await api('projectOwner', 'DELETE', P)).body.errorCode, 'project-deleted');

  // Restore (a project manager may), then delete for good.
  assert.equal(expect(await api('projectManager', 'PUT', `${P}/restore`), 200).modificationInfo.isDeleted, false);
  assert.equal(expect(await api('viewer', 'GET', `${P}/workzones`), 200).length, 3);
  expect(await api('projectOwner', 'DELETE', P), 204);
  expect(await api('projectOwner', 'DELETE', `${P}?permanent=true`), 204);
  assert.equal(expect(await api('projectOwner', 'GET', P), 404).errorCode, 'project-not-found');
  assert.equal(expect(await api('projectOwner', 'GET', `${A1}/projects/${p.api1Id}`), 404).code, 'project-not-found');
  assert.ok(!(expect(await api('owner', 'GET', `${A2}/projects`), 200) as any[]).some((x) => x.id === p.id));
});

test("the reports show the service's current day after a read: the project's access and the reader's activity", async () => {
  const p = expect(await api('projectOwner', 'POST', `${A2}/projects`, { name: 'Dock', subscriptionId: SUB_A }), 201);
  const row = async () =>
    (expect(await api('owner', 'GET', `${A1}/reports/projects-last-accessed?projectId=${p.api1Id}`), 200) as any[])[0];
  const created = (await server.operator<{ now: string }>('GET', '/clock')).now.slice(0, 10);

  // The next day (tokens expire after 3 hours: new ones).
  const { now } = await server.advanceClock(86_400);
  forgetTokens();
  const today = now.slice(0, 10);
  assert.notEqual(today, created);
  const before = await row();
  assert.equal(before.projectName, 'Dock');
  assert.ok(before.lastAccessedDate === null || before.lastAccessedDate === created, before.lastAccessedDate);

  expect(await api('viewer', 'GET', `${A2}/projects/${uuidOf(p.id)}`), 403);
  expect(await api('projectLister', 'GET', `${A1}/projects/${p.api1Id}`), 200);
  let date: string | null = null;
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    date = (await row()).lastAccessedDate;
    if (date === today) break;
  }
  assert.equal(date, today);
  // The reader's own last activity is that day too.
  let activity: string | null = null;
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const rows = expect(await api('owner', 'GET', `${A1}/reports/users-last-activity`), 200) as any[];
    activity = rows.find((r) => r.userEmail === emailOf('projectLister')).lastActivityDate;
    if (activity === today) break;
  }
  assert.equal(activity, today);
});
