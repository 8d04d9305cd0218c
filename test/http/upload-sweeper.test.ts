// The upload sweeper (CONTRACT §7): uploads signed and never registered are deleted,
// object and row, once UPLOAD_TTL has passed on the service clock; younger ones and
// registered files stay; concurrent passes delete each upload once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, advanceClock, assertProblem, createProject, createZone, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bulkUrl, bytes, fileRowsOf, item, pendingOf, putSigned, sign, storedObject, upload } from '../support/files.ts';

let t: TestApp;
let w: World;

before(async () => {
  t = await testApp({ UPLOAD_TTL: '60', UPLOAD_URL_TTL: '10' });
  w = await projectWorld(t);
});
after(() => t.close());

test('expired pending uploads lose their object and row; fresh ones, and registered files, stay', async () => {
  const p = await createProject(w.as.projectOwner!);
  const root = p.rootWorkzoneId;
  const kept = { name: 'Kept', extension: 'pdf', content: bytes(100, 1) };
  const uploaded = { name: 'Uploaded', extension: 'pdf', content: bytes(100, 2) };
  const never = { name: 'Never', extension: 'e57', content: bytes(100, 3) };
  const [registered] = await upload(t, w.as.projectOwner!, p.id, root, [kept]);
  const signed = await sign(w.as.projectOwner!, p.id, root, [uploaded, never]);
  assert.ok((await putSigned(t, signed.files[0]!.url, uploaded.content)).statusCode < 300);
  assert.notEqual(await storedObject(t, p.id, signed.files[0]!.blobName), null);

  // Not yet due: nothing is deleted.
  const first = await t.core.uploadSweeper.run();
  assert.equal(first.ran && first.deleted, 0);
  assert.equal((await pendingOf(t, p.id)).length, 2);

  await advanceClock(t, 61);
  const fresh = await sign(w.as.projectOwner!, p.id, root, [{ name: 'Fresh', extension: 'pdf', content: bytes(10, 4) }]);
  const [a, b] = await Promise.all([t.core.uploadSweeper.run(), t.core.uploadSweeper.run()]);
  const deleted = (r: typeof a) => (r.ran ? r.deleted : 0);
  assert.equal(deleted(a) + deleted(b), 2, 'each expired upload is deleted once');

  assert.equal(await storedObject(t, p.id, signed.files[0]!.blobName), null, 'the uploaded object is gone');
  assert.deepEqual((await pendingOf(t, p.id)).map((u) => u.blobName), [fresh.files[0]!.blobName]);
  assert.notEqual(await storedObject(t, p.id, registered!.blobName), null, 'registered files keep their object');
  assert.equal((await fileRowsOf(t, p.id)).length, 1);

  const late = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(uploaded), blobName: signed.files[0]!.blobName }]);
  assertProblem(late, 400, 'unknown-blob-name');
});

test('an upload past its time but not yet swept cannot be registered (400 upload-expired)', async () => {
  const p = await createProject(w.as.projectOwner!);
  const s = { name: 'Late', extension: 'pdf', content: bytes(50, 5) };
  const signed = await sign(w.as.projectOwner!, p.id, p.rootWorkzoneId, [s]);
  assert.ok((await putSigned(t, signed.files[0]!.url, s.content)).statusCode < 300);
  await advanceClock(t, 61);
  assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, p.rootWorkzoneId), [{ ...item(s), blobName: signed.files[0]!.blobName }]), 400, 'upload-expired');
  assert.equal((await fileRowsOf(t, p.id)).length, 0);
});

test('objects whose rows went by cascade (work zone, permanent project deletion) are deleted by the next pass', async () => {
  const p = await createProject(w.as.projectOwner!);
  const z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId);
  const [inZone] = await upload(t, w.as.projectOwner!, p.id, z.id, [{ name: 'Z', extension: 'pdf', content: bytes(40, 6) }]);
  const [inRoot] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'R', extension: 'e57', content: bytes(40, 7) }]);
  await t.core.uploadSweeper.run();
  assert.notEqual(await storedObject(t, p.id, inZone!.blobName), null, 'registered files keep their objects across passes');
  assert.notEqual(await storedObject(t, p.id, inRoot!.blobName), null);

  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(z.id)}`)).status, 204);
  await t.core.uploadSweeper.run();
  assert.equal(await storedObject(t, p.id, inZone!.blobName), null, 'the zone\'s file object is gone');
  assert.notEqual(await storedObject(t, p.id, inRoot!.blobName), null);

  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}`)).status, 204);
  await t.core.uploadSweeper.run();
  assert.notEqual(await storedObject(t, p.id, inRoot!.blobName), null, 'a soft-deleted project keeps its objects');
  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}?permanent=true`)).status, 204);
  await t.core.uploadSweeper.run();
  assert.equal(await storedObject(t, p.id, inRoot!.blobName), null, 'a permanently deleted project leaves no object');
});

test('a signed URL used after UPLOAD_URL_TTL (service clock) is refused; the upload cannot be registered', async () => {
  const p = await createProject(w.as.projectOwner!);
  const s = { name: 'Slow', extension: 'pdf', content: bytes(50, 8) };
  const signed = await sign(w.as.projectOwner!, p.id, p.rootWorkzoneId, [s]);
  await advanceClock(t, 11);
  const put = await putSigned(t, signed.files[0]!.url, s.content);
  assert.ok(put.statusCode >= 400 && put.statusCode < 500, `PUT ${put.statusCode}`);
  assert.equal(await storedObject(t, p.id, signed.files[0]!.blobName), null);
  assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, p.rootWorkzoneId), [{ ...item(s), blobName: signed.files[0]!.blobName }]), 400, 'blob-not-uploaded');
  assert.equal((await fileRowsOf(t, p.id)).length, 0);
});

test('a registration queues no object for deletion: the file names its blob', async () => {
  const p = await createProject(w.as.projectOwner!);
  const [file] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'Q', extension: 'pdf', content: bytes(30, 9) }]);
  const queued = await t.core.store.repos.uploads.claimDeletions(10_000);
  assert.deepEqual(queued.filter((q) => q.blobName === file!.blobName), []);
  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/files/${uuidOf(file!.id)}`)).status, 204);
  const after = await t.core.store.repos.uploads.claimDeletions(10_000);
  assert.equal(after.filter((q) => q.blobName === file!.blobName).length, 1, 'a deleted file queues its blob');
});
