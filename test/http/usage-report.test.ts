// The usage report of a subscription (vendor getUsageReport): actions per UTC day, per user,
// per project, counted in the transaction of each action (migration 0030's triggers): scans
// and 360 images registered, tags created. `account:subscriptions:read` and
// `account:users:read` to read it; deleted projects only with includeDeleted; the period's
// checks; unavailable with HIDE_PRIVACY_DATA=1. PGlite by default; TEST_DATABASE_URL runs it
// on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, SUB_A, SUB_B, addMembers, assertProblem, createProject, emailOf, projectWorld, serviceNow, uuidOf, type World } from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let w: World;
let P: any;
let Q: any;
let vendor: VendorValidator | null = null;
const report = (sub = SUB_A, query = '') => `${A2}/subscriptions/${sub}/usage-report${query}`;

const conforms = (status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate('getUsageReport', status, body);
  assert.deepEqual(errors, [], `getUsageReport: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!, { name: 'Usage P' });
  Q = await createProject(w.as.projectOwner!, { name: 'Usage Q' });
  for (const p of [P, Q]) await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
  // The manager: two scans and one 360 image on P, one scan on Q, three tags on P.
  await upload(t, w.as.manager!, P.id, P.rootWorkzoneId, [
    { name: 's1', extension: 'pts', content: bytes(10, 1) }, { name: 's2', extension: 'ptx', content: bytes(11, 2) }, { name: 'pano', extension: '360', content: bytes(12, 3) },
  ]);
  await upload(t, w.as.manager!, Q.id, Q.rootWorkzoneId, [{ name: 's3', extension: 'pts', content: bytes(13, 4) }]);
  const list = await w.as.manager!('POST', `${A2}/projects/${uuidOf(P.id)}/tag-lists`, { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'Usage tags' });
  assert.equal(list.status, 201, JSON.stringify(list.body));
  const bulk = await w.as.manager!('POST', `${A2}/projects/${uuidOf(P.id)}/tag-lists/${uuidOf(list.body.id)}/tags/bulk`, { create: [{ data: { id: 'a' } }, { data: { id: 'b' } }, { data: { id: 'c' } }] });
  assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
});
after(() => t.close());

test('the report counts each registered scan, 360 image and created tag per day, user and project, in the vendor shape', async () => {
  const res = await w.as.owner!('GET', report());
  assert.equal(res.status, 200, JSON.stringify(res.body));
  conforms(200, res.body);
  const today = (await serviceNow(t)).toISOString().slice(0, 10);
  const row = (p: any) => res.body.find((r: any) => r.projectId === p.id && r.userId === `urn:svc:user:${w.ids.manager}`);
  assert.deepEqual(row(P), {
    date: today, userId: `urn:svc:user:${w.ids.manager}`, firstName: 'manager', lastName: 'Test', email: emailOf('manager'), company: 'Proj Inc',
    projectId: P.id, projectName: 'Usage P', scansUploaded: 2, scansDownload: 0, '360ImagesUploaded': 1, cropsDownloaded: 0,
    unifiedMeshesCreated: 0, tagsUploaded: 3, tagsDownloaded: 0,
  });
  assert.equal(row(Q).scansUploaded, 1);
  assert.equal(row(Q).tagsUploaded, 0);
  // Another subscription of the account has none of it.
  const other = await w.as.owner!('GET', report(SUB_B));
  assert.equal(other.status, 200);
  assert.deepEqual(other.body, []);
});

test('the period: from and until are inclusive UTC days; a period before the actions is empty', async () => {
  const today = (await serviceNow(t)).toISOString().slice(0, 10);
  const within = await w.as.owner!('GET', report(SUB_A, `?from=${today}&until=${today}`));
  assert.equal(within.status, 200);
  assert.ok(within.body.length >= 2);
  const before = await w.as.owner!('GET', report(SUB_A, '?from=2020-01-01&until=2020-01-31'));
  assert.deepEqual(before.body, []);
});

test('a deleted project is reported only with includeDeleted=true', async () => {
  const X = await createProject(w.as.projectOwner!, { name: 'Usage X' });
  await upload(t, w.as.projectOwner!, X.id, X.rootWorkzoneId, [{ name: 'x', extension: 'pts', content: bytes(14, 5) }]);
  const has = async (query: string) => (await w.as.owner!('GET', report(SUB_A, query))).body.some((r: any) => r.projectId === X.id);
  assert.equal(await has(''), true);
  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(X.id)}`)).status, 204);
  assert.equal(await has(''), false);
  assert.equal(await has('?includeDeleted=true'), true);
  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(X.id)}?permanent=true`)).status, 204);
  assert.equal(await has('?includeDeleted=true'), true, 'a permanently deleted project stays in the report, under its last name');
});

test('reading it needs account:subscriptions:read and account:users:read: members and project listers are refused, outsiders do not find the account', async () => {
  assert.equal((await w.as.administrator!('GET', report())).status, 200);
  for (const who of ['viewer', 'member', 'projectLister'] as const) {
    const res = await w.as[who]!('GET', report());
    assertProblem(res, 403, 'view-report-forbidden');
    assert.ok(res.body.errorValues.requiredPermissions.length > 0, who);
  }
  // Outside the account, the account itself is not found (as every account-level read answers).
  assertProblem(await w.as.outsider!('GET', report()), 404, 'account-not-found');
});

test('documented errors: a bad or reversed period, an unknown or malformed subscription', async () => {
  assertProblem(await w.as.owner!('GET', report(SUB_A, '?from=2026-13-01')), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', report(SUB_A, '?from=2026-03-02&until=2026-03-01')), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', report(SUB_A, '?from=2000-01-01&until=2026-01-01')), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', report(SUB_A, '?includeDeleted=maybe')), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', report('b9999999-9999-4999-8999-999999999999')), 404, 'subscription-not-found');
  assertProblem(await w.as.owner!('GET', report('urn:svc:project:b9999999-9999-4999-8999-999999999999')), 400, 'invalid-subscription-urn');
  assert.equal((await t.app.inject({ method: 'GET', url: report() })).statusCode, 401);
});

test('HIDE_PRIVACY_DATA=1: the report is unavailable (403 usage-report-unavailable), after the permission check', async () => {
  const hidden = await testApp({ HIDE_PRIVACY_DATA: '1' });
  try {
    const hw = await projectWorld(hidden);
    assertProblem(await hw.as.owner!('GET', report()), 403, 'usage-report-unavailable');
    assertProblem(await hw.as.viewer!('GET', report()), 403, 'view-report-forbidden');
  } finally {
    await hidden.close();
  }
});
