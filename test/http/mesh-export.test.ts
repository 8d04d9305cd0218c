// Export to mesh (vendor postExportToMesh): a job on the job runner builds a real triangle
// mesh from the zone's scans with Open3D (a worker process), stores it as an OBJ file of the
// zone, mails the requester and counts in the usage report; `workzone:reality-data:read` and
// `workzone:export-jobs-reality-data:write` to ask; 503 `mesher-unavailable` without a mesher.
// The point cloud is generated here: a sphere of radius 1 m, 4,000 points. PGlite by default;
// TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, SUB_A, SURVEYOR_ID, addMembers, assertProblem, createProject, createZone, emailOf, outbox, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { bytes, getSigned, upload } from '../support/files.ts';
import { lasFileOf } from '../support/console.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

const MESHER = process.env.MESH_PYTHON || '/usr/bin/python3';
const hasMesher = spawnSync(MESHER, ['-c', 'import open3d'], { stdio: 'ignore' }).status === 0;

let t: TestApp;
let w: World;
let P: any;
let Z: any;
let sphere = '';
let other = '';
let vendor: VendorValidator | null = null;
const url = () => `${A2}/projects/${uuidOf(P.id)}/jobs/export-to-mesh`;
const body = (extra: Record<string, unknown> = {}) => ({ scans: [sphere], name: 'Sphere mesh', outputFormat: 'obj', resolution: 0.05, workzoneId: P.rootWorkzoneId, ...extra });

/** A Fibonacci sphere: `count` points evenly spread on a sphere of `radius` around (10, 20, 5). */
const spherePoint = (count: number, radius: number) => (i: number): [number, number, number] => {
  const y = 1 - (2 * (i + 0.5)) / count;
  const r = Math.sqrt(1 - y * y);
  const phi = i * Math.PI * (3 - Math.sqrt(5));
  return [10 + radius * r * Math.cos(phi), 20 + radius * y, 5 + radius * r * Math.sin(phi)];
};

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Other zone');
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('manager'), role: w.roles.Manager }, { user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('alice'), role: SURVEYOR_ID }],
  });
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
  sphere = (await upload(t, w.as.manager!, P.id, P.rootWorkzoneId, [{ name: 'sphere', extension: 'las', content: lasFileOf(4000, spherePoint(4000, 1)) }]))[0]!.id;
  other = (await upload(t, w.as.manager!, P.id, Z.id, [{ name: 'elsewhere', extension: 'las', content: lasFileOf(100, spherePoint(100, 1)) }]))[0]!.id;
});
after(() => t.close());

test('the job builds a real mesh of the sphere: an OBJ file of the zone with faces on the surface, the requester mailed, the usage counted', { skip: !hasMesher && `no Open3D for ${MESHER} (npm run setup installs python3-open3d)` }, async () => {
  const res = await w.as.manager!('POST', url(), body());
  assert.equal(res.status, 201, JSON.stringify(res.body));
  if (vendor) assert.deepEqual(vendor.validate('postExportToMesh', 201, res.body), [], describeErrors(vendor.validate('postExportToMesh', 201, res.body)));
  assert.match(res.body.jobId, /^urn:svc:workflowjob:/);
  const file = res.body.file;
  assert.equal(file.name, 'Sphere mesh');
  assert.equal(file.extension, 'obj');
  assert.equal(file.workzoneId, P.rootWorkzoneId);

  await t.core.jobRunner.drain();
  const job = await t.core.store.repos.jobs.byId(uuidOf(res.body.jobId));
  assert.equal(job?.state, 'done', job?.lastError ?? '');
  const got = await w.as.manager!('GET', `${A2}/projects/${uuidOf(P.id)}/files/${uuidOf(file.id)}`);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  assert.equal(got.body.type, 'model');
  const redirect = await w.as.manager!('GET', `${A2}/projects/${uuidOf(P.id)}/blobs/${got.body.blobName}`);
  assert.equal(redirect.status, 302);
  const obj = (await getSigned(t, String(redirect.headers.location))).body.toString('utf8');
  assert.equal(obj.length, got.body.size);

  // A valid mesh: vertices, triangles whose indices name them, and the vertices on the sphere.
  const vertices = obj.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.split(/\s+/).slice(1, 4).map(Number));
  const faces = obj.split('\n').filter((l) => l.startsWith('f ')).map((l) => l.split(/\s+/).slice(1).map((v) => Number(v.split('/')[0])));
  assert.ok(vertices.length > 100, `${vertices.length} vertices`);
  assert.ok(faces.length > 200, `${faces.length} faces`);
  for (const f of faces) {
    assert.equal(f.length, 3);
    for (const k of f) assert.ok(Number.isInteger(k) && k >= 1 && k <= vertices.length, `face index ${k}`);
  }
  const radii = vertices.map(([x, y, z]) => Math.hypot(x! - 10, y! - 20, z! - 5));
  const mean = radii.reduce((a, b) => a + b, 0) / radii.length;
  assert.ok(Math.abs(mean - 1) < 0.1, `mean distance to the centre ${mean}`);

  const mail = (await outbox(t)).find((m) => m.to === emailOf('manager') && m.subject === 'Export to mesh finished: Sphere mesh');
  assert.ok(mail, 'the requester is mailed');
  assert.match(mail.text, new RegExp(uuidOf(file.id)));
  const usage = await w.as.owner!('GET', `${A2}/subscriptions/${SUB_A}/usage-report`);
  assert.equal(usage.body.find((r: any) => r.projectId === P.id && r.userId.endsWith(w.ids.manager!)).unifiedMeshesCreated, 1);
});

test('crop regions keep only the points inside one of them: a region that holds none fails the job, and the requester is told why', { skip: !hasMesher && `no Open3D for ${MESHER}` }, async () => {
  // x ≥ 100: no point of the sphere.
  const res = await w.as.manager!('POST', url(), body({ name: 'Empty crop', items: [{ cropRegions: [[[1, 0, 0, -100]]] }] }));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await t.core.jobRunner.drain();
  const job = await t.core.store.repos.jobs.byId(uuidOf(res.body.jobId));
  assert.equal(job?.state, 'failed');
  assert.equal((await w.as.manager!('GET', `${A2}/projects/${uuidOf(P.id)}/files/${uuidOf(res.body.file.id)}`)).status, 404);
  const mail = (await outbox(t)).find((m) => m.subject === 'Export to mesh failed: Empty crop');
  assert.ok(mail);
  assert.match(mail.text, /0 points/);
});

test('asking needs workzone:reality-data:read and workzone:export-jobs-reality-data:write on the zone', async () => {
  for (const who of ['viewer', 'alice'] as const) {
    const refused = assertProblem(await w.as[who]!('POST', url(), body()), 403, 'create-export-to-mesh-forbidden');
    assert.ok(refused.errorValues.requiredPermissions.includes('workzone:export-jobs-reality-data:write'), who);
  }
  assertProblem(await w.as.member!('POST', url(), body()), 403, 'not-member-of-project');
  assert.equal((await t.app.inject({ method: 'POST', url: url(), payload: body() })).statusCode, 401);
});

test('documented errors: a format this mesher does not write, a resolution out of bounds, scans that are not point clouds of the zone, unknown refs', async () => {
  assertProblem(await w.as.manager!('POST', url(), body({ outputFormat: 'fbx' })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url(), body({ outputFormat: 'ply' })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url(), body({ resolution: 0.5 })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url(), body({ name: 'a/b' })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url(), body({ scans: [] })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url(), body({ scans: [other] })), 400, 'invalid-input');
  const pts = (await upload(t, w.as.manager!, P.id, P.rootWorkzoneId, [{ name: 'not-read', extension: 'pts', content: bytes(20, 9) }]))[0]!.id;
  assertProblem(await w.as.manager!('POST', url(), body({ scans: [pts] })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url(), body({ scans: ['f9999999-9999-4999-8999-999999999999'] })), 404, 'file-not-found');
  assertProblem(await w.as.manager!('POST', url(), body({ workzoneId: 'f9999999-9999-4999-8999-999999999999' })), 404, 'workzone-not-found');
  assertProblem(await w.as.manager!('POST', url(), body({ workzoneId: 'urn:svc:project:f9999999-9999-4999-8999-999999999999' })), 400, 'invalid-workzone-urn');
});

test('without a mesher on the node the request answers 503 mesher-unavailable (the vendor\'s "technical stack" error) and queues nothing', async () => {
  const bare = await testApp({ MESH_PYTHON: '/nonexistent/python3' });
  try {
    const bw = await projectWorld(bare);
    const p = await createProject(bw.as.projectOwner!);
    const id = (await upload(bare, bw.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 's', extension: 'las', content: lasFileOf(50, spherePoint(50, 1)) }]))[0]!.id;
    const res = await bw.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/jobs/export-to-mesh`, { ...body(), scans: [id], workzoneId: p.rootWorkzoneId });
    assertProblem(res, 503, 'mesher-unavailable');
    assert.deepEqual(await bare.core.store.repos.jobs.activeOn([`workzone:${uuidOf(p.rootWorkzoneId)}`]), [], 'no job was queued');
    if (vendor) assert.deepEqual(vendor.validate('postExportToMesh', 503, res.body), []);
  } finally {
    await bare.close();
  }
});
