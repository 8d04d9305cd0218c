// Who may do what with files, derived from the spec's combination table and the vendor's
// permission notes (docs/files.md "Permissions"): uploading scans needs
// reality-data:write + import-jobs-reality-data:write, documents documents:write; reading
// the bytes of a scan reality-data:read, of a document documents:read; moving a scan
// reality-data:transform; the cover project:project:update-details. Refusals are 403
// with the spec's codes and requiredPermissions; nothing is recorded.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, SURVEYOR_ID, addMembers, assertApi1Error, assertProblem, createProject, emailOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { bulkUrl, bytes, filesUrl, item, pendingOf, upload } from '../support/files.ts';

let t: TestApp;
let w: World;
let P: any;
let root: string;
let scanFile: { id: string; blobName: string };
let docFile: { id: string; blobName: string };

const scan = (name: string, seed: number) => ({ name, extension: 'e57', content: bytes(64, seed) });
const doc = (name: string, seed: number) => ({ name, extension: 'pdf', content: bytes(64, seed) });

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  root = P.rootWorkzoneId;
  // viewer: Viewer; manager: Manager; alice: Surveyor (view3d + upload); bob: Contributor (… upload, upload_doc …).
  await addMembers(w.as.projectOwner!, P.id, {
    users: [
      { user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager },
      { user: emailOf('alice'), role: SURVEYOR_ID }, { user: emailOf('bob'), role: w.roles.Contributor },
    ],
  });
  const out = await upload(t, w.as.manager!, P.id, root, [scan('S', 1), doc('D', 2)]);
  scanFile = out[0]!;
  docFile = out[1]!;
});
after(() => t.close());

const REALITY_WRITE = ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'];

describe('uploads', () => {
  test('scans: the Manager, Surveyor (upload) and Contributor roles sign; the Viewer role gets 403 create-file-forbidden', async () => {
    for (const who of ['manager', 'alice', 'bob', 'projectOwner']) {
      const res = await w.as[who]!('POST', bulkUrl(P.id, root), [item(scan(`by ${who}`, 3))]);
      assert.equal(res.status, 200, `${who}: ${JSON.stringify(res.body)}`);
    }
    const before = (await pendingOf(t, P.id)).length;
    const res = await w.as.viewer!('POST', bulkUrl(P.id, root), [item(scan('no', 4))]);
    assert.deepEqual(assertProblem(res, 403, 'create-file-forbidden').errorValues.requiredPermissions, REALITY_WRITE);
    assert.equal((await pendingOf(t, P.id)).length, before, 'nothing recorded');
  });

  test('documents need workzone:documents:write: the Surveyor role (no upload_doc) is refused', async () => {
    const res = await w.as.alice!('POST', bulkUrl(P.id, root), [item(doc('no', 5))]);
    assert.deepEqual(assertProblem(res, 403, 'create-file-forbidden').errorValues.requiredPermissions, ['workzone:documents:write']);
    assert.equal((await w.as.bob!('POST', bulkUrl(P.id, root), [item(doc('yes', 6))])).status, 200);
  });

  test('registration needs the same permissions as signing', async () => {
    const res = await w.as.viewer!('PUT', bulkUrl(P.id, root), [{ ...item(scan('x', 7)), blobName: 'whatever.e57' }]);
    assert.deepEqual(assertProblem(res, 403, 'create-file-forbidden').errorValues.requiredPermissions, REALITY_WRITE);
  });

  test('callers outside the project: 403 not-member-of-project; another account: refused', async () => {
    assertProblem(await w.as.member!('POST', bulkUrl(P.id, root), [item(scan('m', 8))]), 403, 'not-member-of-project');
    const outsider = await w.as.outsider!('POST', bulkUrl(P.id, root), [item(scan('o', 9))]);
    assert.ok(outsider.status === 403 || outsider.status === 404, JSON.stringify(outsider.body));
  });
});

describe('reading', () => {
  test('members list and get files; a non-member, even a project lister, gets 403 not-member-of-project (both APIs)', async () => {
    for (const who of ['viewer', 'manager', 'alice']) {
      const res = await w.as[who]!('GET', filesUrl(P.id));
      assert.equal(res.status, 200);
      assert.ok(res.body.length >= 2, who);
      assert.equal((await w.as[who]!('GET', `${filesUrl(P.id)}/${scanFile.id}`)).status, 200);
    }
    assertProblem(await w.as.projectLister!('GET', filesUrl(P.id)), 403, 'not-member-of-project');
    assertProblem(await w.as.projectLister!('GET', `${filesUrl(P.id)}/${scanFile.id}`), 403, 'not-member-of-project');
    assertProblem(await w.as.member!('GET', filesUrl(P.id)), 403, 'not-member-of-project');
    assertApi1Error(await w.as.member!('GET', `${A1}/projects/${P.api1Id}/files`), 403, 'not-member-of-project');
  });

  test('downloads: a scan needs reality-data:read (Viewer has it), a document documents:read (Viewer lacks it)', async () => {
    const blob = (b: string) => `${A2}/projects/${uuidOf(P.id)}/blobs/${b}`;
    assert.equal((await w.as.viewer!('GET', blob(scanFile.blobName))).status, 302);
    const res = await w.as.viewer!('GET', blob(docFile.blobName));
    assert.deepEqual(assertProblem(res, 403, 'view-file-forbidden').errorValues.requiredPermissions, ['workzone:documents:read']);
    assert.equal((await w.as.bob!('GET', blob(docFile.blobName))).status, 302);
    assertProblem(await w.as.viewer!('POST', `${A2}/projects/${uuidOf(P.id)}/blobs`, [scanFile.blobName, docFile.blobName]), 403, 'view-file-forbidden');
  });
});

describe('writing', () => {
  test('rename and delete need the category write permission', async () => {
    const res = await w.as.viewer!('PATCH', `${filesUrl(P.id)}/${scanFile.id}`, { name: 'nope' });
    assert.deepEqual(assertProblem(res, 403, 'update-file-forbidden').errorValues.requiredPermissions, REALITY_WRITE);
    assertProblem(await w.as.viewer!('DELETE', `${filesUrl(P.id)}/${scanFile.id}`), 403, 'delete-file-forbidden');
    assertProblem(await w.as.alice!('DELETE', `${filesUrl(P.id)}/${docFile.id}`), 403, 'delete-file-forbidden');
    assert.equal((await w.as.alice!('PATCH', `${filesUrl(P.id)}/${scanFile.id}`, { name: 'Renamed by the surveyor' })).status, 200);
  });

  test('bulk-transformation of a scan needs workzone:reality-data:transform (Manager yes, Contributor no)', async () => {
    const url = `${filesUrl(P.id)}/bulk-transformation`;
    const res = await w.as.bob!('POST', url, [{ id: scanFile.id, translation: { x: 1, y: 1, z: 1 } }]);
    assert.deepEqual(assertProblem(res, 403, 'update-file-forbidden').errorValues.requiredPermissions, ['workzone:reality-data:transform']);
    assert.equal((await w.as.manager!('POST', url, [{ id: scanFile.id, translation: { x: 1, y: 1, z: 1 } }])).status, 200);
  });

  test('the project cover needs project:project:update-details', async () => {
    const body = { name: 'c', extension: 'png', size: 10, md5: '0123456789abcdef0123456789abcdef' };
    const res = await w.as.viewer!('POST', `${A2}/projects/${uuidOf(P.id)}/cover`, body);
    assert.deepEqual(assertProblem(res, 403, 'update-project-forbidden').errorValues.requiredPermissions, ['project:project:update-details']);
    assert.equal((await w.as.manager!('POST', `${A2}/projects/${uuidOf(P.id)}/cover`, body)).status, 200);
  });
});
