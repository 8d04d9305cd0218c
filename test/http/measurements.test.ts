// Measurements through API 2: the vendor's getMeasurements (workzone:measurements:read on at
// least one zone, only those zones' measurements) and our extension's create, get, PUT and
// DELETE (workzone:measurements:write), with distance, polyline, area and height computed
// from points in project coordinates. PGlite by default; TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, ASSISTANT_ID, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let w: World;
let sql: Sql;
let P: any;
let Z: any;
let url = '';
let vendor: VendorValidator | null = null;

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Level 2');
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }] });
  // bob measures on Z only (the Assistant role holds `measure`).
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('bob'), role: ASSISTANT_ID }] }, [Z.id]);
  url = `${A2}/projects/${uuidOf(P.id)}/measurements`;
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
});
after(() => t.close());

const conforms = (status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate('getMeasurements', status, body);
  assert.deepEqual(errors, [], `getMeasurements: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};
const pt = (x: number, y: number, z: number) => ({ x, y, z });
const m = (workzoneId: string, kind: string, points: unknown[], extra: Record<string, unknown> = {}) => ({ workzoneId, name: `${kind} 1`, kind, points, ...extra });
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

test('each kind is measured from its points: distance, polyline, area, height', async () => {
  const d = (await w.as.manager!('POST', url, m(Z.id, 'distance', [pt(0, 0, 0), pt(3, 4, 12)]))).body;
  close(d.length, 13);
  close(d.height, 12);
  close(d.width, 5);
  assert.deepEqual([d.startPoint, d.endPoint], [pt(0, 0, 0), pt(3, 4, 12)]);
  const pl = (await w.as.manager!('POST', url, m(Z.id, 'polyline', [pt(0, 0, 0), pt(1, 0, 0), pt(1, 2, 0), pt(1, 2, 2)]))).body;
  close(pl.length, 5);
  assert.equal(pl.area, null);
  // A 2 × 3 rectangle standing in a vertical plane: area 6, perimeter 10.
  const ar = (await w.as.manager!('POST', url, m(Z.id, 'area', [pt(0, 0, 0), pt(2, 0, 0), pt(2, 0, 3), pt(0, 0, 3)]))).body;
  close(ar.area, 6);
  close(ar.length, 10);
  const h = (await w.as.manager!('POST', url, m(P.rootWorkzoneId, 'height', [pt(5, 5, 1), pt(6, 5, -1.5)]))).body;
  close(h.height, 2.5);
  const list = await w.as.manager!('GET', url);
  assert.equal(list.status, 200);
  conforms(200, list.body);
  assert.deepEqual(list.body.map((x: any) => x.kind), ['distance', 'polyline', 'area', 'height']);
  assert.match(list.body[0].id, /^urn:svc:measurement:/);
  // bob reads Z only.
  assert.deepEqual((await w.as.bob!('GET', url)).body.map((x: any) => x.id), [d.id, pl.id, ar.id]);
  for (const x of [d, pl, ar, h]) assert.equal((await w.as.manager!('DELETE', `${url}/${x.id}`)).status, 204);
  assert.deepEqual((await w.as.manager!('GET', url)).body, []);
});

test('get and PUT (a move needs write on both zones), delete (204 then 404)', async () => {
  const c = (await w.as.bob!('POST', url, m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)], { cameraState: '{"fov":60}' }))).body;
  assert.equal(c.createdBy, `urn:svc:user:${w.ids.bob}`);
  assert.equal((await w.as.bob!('GET', `${url}/${uuidOf(c.id)}`)).body.cameraState, '{"fov":60}');
  const put = await w.as.bob!('PUT', `${url}/${c.id}`, m(Z.id, 'polyline', [pt(0, 0, 0), pt(0, 1, 0), pt(0, 1, 1)], { name: 'Pipe run' }));
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.name, 'Pipe run');
  assert.equal(put.body.cameraState, null);
  close(put.body.length, 2);
  const refused = assertProblem(await w.as.bob!('PUT', `${url}/${c.id}`, m(P.rootWorkzoneId, 'distance', [pt(0, 0, 0), pt(1, 0, 0)])), 403, 'update-measurement-forbidden');
  assert.deepEqual(refused.errorValues.requiredPermissions, ['workzone:measurements:write']);
  const moved = await w.as.manager!('PUT', `${url}/${c.id}`, m(P.rootWorkzoneId, 'distance', [pt(0, 0, 0), pt(1, 0, 0)]));
  assert.equal(moved.body.workzoneId, P.rootWorkzoneId);
  assert.deepEqual((await w.as.bob!('GET', url)).body, []);
  assertProblem(await w.as.bob!('GET', `${url}/${c.id}`), 403, 'list-measurements-forbidden');
  assert.equal((await w.as.manager!('DELETE', `${url}/${c.id}`)).status, 204);
  assertProblem(await w.as.manager!('DELETE', `${url}/${c.id}`), 404, 'measurement-not-found');
});

test('refusals: listing without workzone:measurements:read anywhere, and each write without workzone:measurements:write', async () => {
  const c = (await w.as.manager!('POST', url, m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)]))).body;
  // The Viewer role holds no measurement permission.
  const list = assertProblem(await w.as.viewer!('GET', url), 403, 'list-measurements-forbidden');
  assert.deepEqual(list.errorValues.requiredPermissions, ['workzone:measurements:read']);
  for (const [res, code] of [
    [await w.as.viewer!('POST', url, m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)])), 'create-measurement-forbidden'],
    [await w.as.bob!('POST', url, m(P.rootWorkzoneId, 'distance', [pt(0, 0, 0), pt(1, 0, 0)])), 'create-measurement-forbidden'],
    [await w.as.viewer!('PUT', `${url}/${c.id}`, m(Z.id, 'distance', [pt(0, 0, 0), pt(2, 0, 0)])), 'update-measurement-forbidden'],
    [await w.as.viewer!('DELETE', `${url}/${c.id}`), 'delete-measurement-forbidden'],
  ] as const) assert.deepEqual(assertProblem(res, 403, code).errorValues.requiredPermissions, ['workzone:measurements:write'], code);
  assertProblem(await w.as.member!('GET', url), 403, 'not-member-of-project');
  assertProblem(await w.as.outsider!('GET', url), 404, 'account-not-found');
  close((await w.as.manager!('GET', `${url}/${c.id}`)).body.length, 1);
  await w.as.manager!('DELETE', `${url}/${c.id}`);
});

test('bad input is a 400 (points per kind, finite numbers, limits, unknown fields); unknown references 400/404; nothing written', async () => {
  const p = (b: unknown) => w.as.manager!('POST', url, b);
  assertProblem(await p(m(Z.id, 'distance', [pt(0, 0, 0)])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 1, 1), pt(2, 2, 2)])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'height', [pt(0, 0, 0), pt(1, 1, 1), pt(2, 2, 2)])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'area', [pt(0, 0, 0), pt(1, 0, 0)])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'polyline', Array.from({ length: 1001 }, (_, i) => pt(i, 0, 0)))), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'volume', [pt(0, 0, 0), pt(1, 0, 0)])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'distance', [pt(0, 0, 0), { x: 1, y: 0 }])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'distance', [pt(0, 0, 0), { x: '1', y: 0, z: 0 }])), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'distance', [pt(0, 0, 0), pt(1e308 * 10, 0, 0)])), 400, 'invalid-input');
  assertProblem(await p({ ...m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)]), name: '' }), 400, 'invalid-input');
  assertProblem(await p({ ...m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)]), name: 'x'.repeat(256) }), 400, 'invalid-input');
  assertProblem(await p({ ...m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)]), extra: true }), 400, 'invalid-input');
  assertProblem(await p(m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)], { scanId: '00000000-0000-4000-8000-000000000000' })), 400, 'invalid-input');
  assertProblem(await p(m('00000000-0000-4000-8000-000000000000', 'distance', [pt(0, 0, 0), pt(1, 0, 0)])), 404, 'workzone-not-found');
  assertProblem(await w.as.manager!('GET', `${url}/urn:svc:measurement:nope`), 400, 'invalid-measurement-urn');
  assertProblem(await w.as.manager!('GET', `${url}/00000000-0000-4000-8000-000000000000`), 404, 'measurement-not-found');
  assert.deepEqual((await w.as.manager!('GET', url)).body, []);
});

test('each change publishes its typed domain event', async () => {
  const c = (await w.as.manager!('POST', url, m(Z.id, 'distance', [pt(0, 0, 0), pt(1, 0, 0)]))).body;
  await w.as.manager!('PUT', `${url}/${c.id}`, m(P.rootWorkzoneId, 'height', [pt(0, 0, 0), pt(0, 0, 1)]));
  await w.as.manager!('DELETE', `${url}/${c.id}`);
  const got = await sql.query<{ type: string; data: any }>(`SELECT type, data FROM domain_events WHERE data->>'measurementId' = $1 ORDER BY seq`, [uuidOf(c.id)]);
  assert.deepEqual(got.map((e) => [e.type, e.data.workzoneId]), [
    ['measurement.created', uuidOf(Z.id)], ['measurement.updated', uuidOf(P.rootWorkzoneId)], ['measurement.deleted', uuidOf(P.rootWorkzoneId)],
  ]);
  assert.equal(got[1]!.data.kind, 'height');
});
