// A subscription's usage (our extension, GET …/subscriptions/{s}/usage): counted as the
// capacity checks count (docs/files.md "Capacities"): scans registered plus live pending
// uploads, live tags, bytes against the storage quota; `account:subscriptions:read` only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, SUB_A, SUB_B, assertProblem, createProject, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, sign, upload } from '../support/files.ts';

let t: TestApp;
let w: World;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

const usageOf = async (sub: string) => {
  const res = await w.as.owner!('GET', `${A2}/subscriptions/${sub}/usage`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

test('usage counts scans registered and pending, geo images, live tags and stored bytes of the subscription\'s projects, against its capacities and the quota', async () => {
  const before = await usageOf(SUB_B);
  const p = await createProject(w.as.projectOwner!, { subscriptionId: SUB_B });
  await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [
    { name: 'Scan 1', extension: 'e57', content: bytes(700, 1) },
    { name: 'Photo', extension: 'jpg', content: bytes(50, 2) },
  ]);
  await sign(w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'Scan 2', extension: 'e57', content: bytes(300, 3) }]);
  const list = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/tag-lists`, { workzoneId: p.rootWorkzoneId, tagListType: '3d', name: 'L' });
  assert.equal(list.status, 201, JSON.stringify(list.body));
  const tags = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/tag-lists/${uuidOf(list.body.id)}/tags/bulk`, {
    create: [{ data: { id: 'a' } }, { data: { id: 'b' } }],
    delete: [],
  });
  assert.equal(tags.status, 200, JSON.stringify(tags.body));

  const after = await usageOf(SUB_B);
  const subscription = (await w.as.owner!('GET', `${A2}/subscriptions/${SUB_B}`)).body;
  assert.equal(after.subscriptionId, subscription.id);
  assert.deepEqual(after.scans, { used: before.scans.used + 2, allowed: subscription.scanCapacity }, 'one registered, one pending');
  assert.deepEqual(after.tags, { used: before.tags.used + 2, allowed: subscription.tagCapacity });
  assert.equal(after.storageBytes.used, before.storageBytes.used + 700 + 50 + 300);
  assert.equal(after.storageBytes.allowed, t.core.config.storageQuotaBytes);
  assert.equal(after.geoImages.allowed, subscription.geoImageCapacity);
  // Another subscription's usage is its own.
  assert.deepEqual((await usageOf(SUB_A)).scans.allowed, (await w.as.owner!('GET', `${A2}/subscriptions/${SUB_A}`)).body.scanCapacity);
});

test('usage needs account:subscriptions:read: a plain member is refused view-subscription-forbidden; an unknown subscription is 404', async () => {
  assertProblem(await w.as.member!('GET', `${A2}/subscriptions/${SUB_A}/usage`), 403, 'view-subscription-forbidden');
  assertProblem(await w.as.owner!('GET', `${A2}/subscriptions/b9999999-9999-4999-8999-999999999999/usage`), 404, 'subscription-not-found');
  assert.equal((await w.as.projectManager!('GET', `${A2}/subscriptions/${SUB_A}/usage`)).status, 200);
});
