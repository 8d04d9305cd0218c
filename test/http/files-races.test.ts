// Races on files (ARCHITECTURE "invariants that can race"; meaningful on PostgreSQL, where
// requests run on several connections): concurrent signers never exceed the scan
// capacity, and concurrent registrations of one blob create one file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { SUB_B, createProject, projectWorld, type World } from '../support/projects.ts';
import { bulkUrl, bytes, fileRowsOf, item, pendingOf, putSigned, sign } from '../support/files.ts';

let t: TestApp;
let w: World;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

test('20 concurrent signers of one scan each, capacity 7: exactly 7 succeed, the rest answer capacity-exceeded-scan', async () => {
  await t.core.store.repos.subscriptions.update(SUB_B, { scanCapacity: 7 }, new Date());
  const projects = [await createProject(w.as.projectOwner!, { subscriptionId: SUB_B }), await createProject(w.as.projectOwner!, { subscriptionId: SUB_B })];
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => {
      const p = projects[i % 2]!;
      return w.as.projectOwner!('POST', bulkUrl(p.id, p.rootWorkzoneId), [item({ name: `S${i}`, extension: 'e57', content: bytes(10, i) })]);
    }),
  );
  const ok = results.filter((r) => r.status === 200).length;
  assert.equal(ok, 7, JSON.stringify(results.map((r) => r.status)));
  assert.ok(results.every((r) => r.status === 200 || (r.status === 400 && r.body.errorCode === 'capacity-exceeded-scan')));
  const pending = (await pendingOf(t, projects[0]!.id)).length + (await pendingOf(t, projects[1]!.id)).length;
  assert.equal(pending, 7);
});

test('10 concurrent registrations of the same blob create one file and all answer it', async () => {
  const p = await createProject(w.as.projectOwner!);
  const s = { name: 'Once', extension: 'pdf', content: bytes(500, 3) };
  const signed = await sign(w.as.projectOwner!, p.id, p.rootWorkzoneId, [s]);
  assert.ok((await putSigned(t, signed.files[0]!.url, s.content)).statusCode < 300);
  const body = [{ ...item(s), blobName: signed.files[0]!.blobName }];
  const results = await Promise.all(Array.from({ length: 10 }, () => w.as.projectOwner!('PUT', bulkUrl(p.id, p.rootWorkzoneId), body)));
  assert.ok(results.every((r) => r.status === 200), JSON.stringify(results.map((r) => [r.status, r.body])));
  assert.equal(new Set(results.map((r) => r.body[0].id)).size, 1);
  assert.equal((await fileRowsOf(t, p.id)).length, 1);
});
