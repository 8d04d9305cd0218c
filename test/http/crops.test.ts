// Crops through API 2 (vendor getCrops, createCrop, getCrop, putCrop, deleteCrop,
// signCropCoverURL): workzone:crops:read to see (held with reality-data:read),
// workzone:crops:write to change (the measurements row), on both zones for a move;
// ?workzones= filters; the cover is signed, uploaded, and named in thumbnailBlobName.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { md5Hex, pngBytes, putSigned } from '../support/files.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let w: World;
let P: any;
let Z: any;
let vendor: VendorValidator | null = null;
let cropsUrl = '';

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId);
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }] });
  cropsUrl = `${A2}/projects/${uuidOf(P.id)}/crops`;
  if (vendorSpecAvailable()) {
    vendor = loadVendorValidator({
      patch: withOurUrnNamespace, // CONTRACT §2: the URN namespace is ours (svc)
    });
  }
});
after(() => t.close());

const conforms = (operationId: string, status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId}: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};

const cropBody = (workzoneId: string, extra: Record<string, unknown> = {}) => ({
  workzoneId, name: 'Section A', crop: '[[1,0,0,1]]', actualCrop: '[[1,0,0,1]]', rotation: '0', cameraType: 'overview',
  cameraState: '{"position":[0,0,0]}', scan: 'scan-1', layers: null, oview: 1, settings: null, ...extra,
});

test('create (201), get, list, move between zones with PUT, ?workzones= filters, delete (204)', async () => {
  const created = await w.as.manager!('POST', cropsUrl, cropBody(P.rootWorkzoneId));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  conforms('createCrop', 201, created.body);
  const c = created.body;
  assert.match(c.id, /^urn:svc:crop:/);
  assert.equal(c.workzoneId, P.rootWorkzoneId);
  assert.equal(c.thumbnailBlobName, null);

  const got = await w.as.viewer!('GET', `${cropsUrl}/${c.id}`);
  assert.equal(got.status, 200);
  conforms('getCrop', 200, got.body);
  const list = await w.as.viewer!('GET', cropsUrl);
  conforms('getCrops', 200, list.body);
  assert.deepEqual(list.body.map((x: any) => x.id), [c.id]);

  const moved = await w.as.manager!('PUT', `${cropsUrl}/${uuidOf(c.id)}`, cropBody(Z.id, { name: 'Section B' }));
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  conforms('putCrop', 200, moved.body);
  assert.equal(moved.body.workzoneId, Z.id);
  assert.equal(moved.body.name, 'Section B');
  assert.equal(moved.body.oview, 1);

  assert.deepEqual((await w.as.viewer!('GET', `${cropsUrl}?workzones=${uuidOf(Z.id)}`)).body.map((x: any) => x.id), [c.id]);
  assert.deepEqual((await w.as.viewer!('GET', `${cropsUrl}?workzones=${P.rootWorkzoneId}`)).body, []);
  assert.deepEqual((await w.as.viewer!('GET', `${cropsUrl}?workzones=`)).body, []);
  assertProblem(await w.as.viewer!('GET', `${cropsUrl}?workzones=00000000-0000-4000-8000-000000000000`), 400, 'invalid-input');

  assert.equal((await w.as.manager!('DELETE', `${cropsUrl}/${c.id}`)).status, 204);
  assertProblem(await w.as.manager!('GET', `${cropsUrl}/${c.id}`), 404, 'crop-not-found');
});

test('the Viewer role reads crops but may not create, change or delete them (403 with requiredPermissions)', async () => {
  const c = (await w.as.manager!('POST', cropsUrl, cropBody(P.rootWorkzoneId))).body;
  const res = await w.as.viewer!('POST', cropsUrl, cropBody(P.rootWorkzoneId));
  assert.deepEqual(assertProblem(res, 403, 'create-crop-forbidden').errorValues.requiredPermissions, ['workzone:crops:write']);
  assertProblem(await w.as.viewer!('PUT', `${cropsUrl}/${c.id}`, cropBody(P.rootWorkzoneId)), 403, 'update-crop-forbidden');
  assertProblem(await w.as.viewer!('DELETE', `${cropsUrl}/${c.id}`), 403, 'delete-crop-forbidden');
  assertProblem(await w.as.member!('GET', cropsUrl), 403, 'not-member-of-project');
  // a project lister sees the project listed but is no member
  assertProblem(await w.as.projectLister!('GET', cropsUrl), 403, 'not-member-of-project');
  assertProblem(await w.as.manager!('POST', cropsUrl, cropBody(P.rootWorkzoneId, { name: '   ' })), 400, 'invalid-input');
});

test('crop cover: sign, PUT, then thumbnailBlobName names it; an unsigned name is refused', async () => {
  const c = (await w.as.manager!('POST', cropsUrl, cropBody(P.rootWorkzoneId))).body;
  const png = pngBytes(300, 5);
  const signed = await w.as.manager!('POST', `${cropsUrl}/${c.id}/cover`, { name: 'thumb', extension: 'png', size: png.length, md5: md5Hex(png) });
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  conforms('signCropCoverURL', 200, signed.body);
  assertProblem(
    await w.as.manager!('PUT', `${cropsUrl}/${c.id}`, cropBody(P.rootWorkzoneId, { thumbnailBlobName: signed.body.file.blobName })),
    400, 'blob-not-uploaded',
  );
  assert.ok((await putSigned(t, signed.body.file.url, png)).statusCode < 300);
  const res = await w.as.manager!('PUT', `${cropsUrl}/${c.id}`, cropBody(P.rootWorkzoneId, { thumbnailBlobName: signed.body.file.blobName }));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.thumbnailBlobName, signed.body.file.blobName);
  assert.match(res.body.thumbnailUrl, /\/blobs\//);
  assert.equal((await w.as.viewer!('GET', new URL(res.body.thumbnailUrl).pathname)).status, 302);
  assertProblem(await w.as.manager!('PUT', `${cropsUrl}/${c.id}`, cropBody(P.rootWorkzoneId, { thumbnailBlobName: 'nope.png' })), 400, 'unknown-blob-name');
  assertProblem(await w.as.viewer!('POST', `${cropsUrl}/${c.id}/cover`, { name: 'x', extension: 'png', size: 1, md5: md5Hex('x') }), 403, 'update-crop-forbidden');
});
