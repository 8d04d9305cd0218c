// Work-zone copy takes the files of the copied zones along (docs/projects.md "Copy",
// docs/files.md): new ids and blob names in the destination, objects copied before their
// rows, the same bytes; the destination subscription's capacities apply (the job fails,
// nothing is created, the caller is mailed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, SUB_A, SUB_B, createProject, createZone, emailOf, outbox, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, fileRowsOf, getSigned, storedObject, upload } from '../support/files.ts';

let t: TestApp;
let w: World;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

async function source() {
  const p = await createProject(w.as.projectOwner!);
  const s = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'S');
  const s1 = await createZone(w.as.projectOwner!, p.id, s.id, 'S1');
  const [scan] = await upload(t, w.as.projectOwner!, p.id, s.id, [{ name: 'Scan S', extension: 'e57', content: bytes(700, 1) }]);
  const [doc] = await upload(t, w.as.projectOwner!, p.id, s1.id, [{ name: 'Doc S1', extension: 'pdf', content: bytes(300, 2) }]);
  await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'Root doc', extension: 'pdf', content: bytes(100, 3) }]);
  return { p, s, s1, scan: scan!, doc: doc! };
}

test('copying a zone copies the files of its subtree (new ids and blob names, same bytes), not the others', async () => {
  const { p, s, scan } = await source();
  const res = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(s.id)}/copy`, { destinationName: 'With files', destinationSubscription: SUB_A });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  await t.core.jobRunner.drain();
  const created = (await w.as.projectOwner!('GET', `${A2}/projects`)).body.find((x: any) => x.name === 'With files');
  assert.ok(created, 'the new project');
  const files = (await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(created.id)}/files`)).body;
  assert.deepEqual(files.map((f: any) => f.name).sort(), ['Doc S1', 'Scan S']);
  const copiedScan = files.find((f: any) => f.name === 'Scan S');
  assert.notEqual(copiedScan.id, scan.id);
  assert.notEqual(copiedScan.blobName, scan.blobName);
  assert.equal(copiedScan.workzoneId, created.rootWorkzoneId, 'S became the new root');
  const redirect = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(created.id)}/blobs/${copiedScan.blobName}`);
  assert.equal(redirect.status, 302);
  assert.deepEqual((await getSigned(t, String(redirect.headers.location))).body, bytes(700, 1));
  // The copy is independent: deleting the source file leaves it.
  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/files/${scan.id}`)).status, 204);
  await t.core.uploadSweeper.run();
  assert.notEqual(await storedObject(t, created.id, copiedScan.blobName), null);
  const mail = (await outbox(t)).find((m) => m.to === emailOf('projectOwner') && m.subject.includes('finished') && m.subject.includes('With files'));
  assert.ok(mail?.text.includes('2 files'), mail?.text);
});

test('the destination subscription\'s scan capacity applies: the copy fails whole and the caller is mailed', async () => {
  const { p, s } = await source();
  await t.core.store.repos.subscriptions.update(SUB_B, { scanCapacity: 0 }, new Date());
  const res = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(s.id)}/copy`, { destinationName: 'Too many scans', destinationSubscription: SUB_B });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  await t.core.jobRunner.drain();
  assert.equal((await w.as.projectOwner!('GET', `${A2}/projects`)).body.find((x: any) => x.name === 'Too many scans'), undefined, 'nothing created');
  const mail = (await outbox(t)).find((m) => m.to === emailOf('projectOwner') && m.subject.includes('failed') && m.subject.includes('Too many scans'));
  assert.ok(mail, 'the "failed" e-mail');
  assert.equal((await fileRowsOf(t, p.id)).length, 3, 'the source is untouched');
});
