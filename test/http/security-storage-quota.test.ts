// The per-subscription storage quota (docs/security.md "Blobs"): documents and the other
// uncounted categories could fill the disk (1,000 files × 5 TiB per request). The bytes
// of every registered file and live pending upload of a subscription, whatever the
// category, stay within STORAGE_QUOTA_BYTES; checked under the subscription's lock at
// signing (files and covers), registering and copying.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, BASIC_SEED, type TestApp } from '../support/app.ts';
import { assertProblem, caller, type Call } from '../support/projects.ts';
import { bytes, md5Hex, pendingOf, putSigned } from '../support/files.ts';
import { loadConfig } from '../../src/config.ts';
import { startupWarnings } from '../../src/startup-report.ts';

const QUOTA = 10_000;
let t: TestApp;
let mark: Call;
let A2 = '';
let subscriptionId = '';

before(async () => {
  t = await testApp({ STORAGE_QUOTA_BYTES: String(QUOTA) });
  // Mark is a project manager (project creation needs account:projects:create).
  const seeded = await t.seed({ ...BASIC_SEED, accounts: [{ ...BASIC_SEED.accounts[0]!, members: [], projectManagers: ['mark@acme.test'] }] });
  A2 = `/api/2/accounts/${seeded.accounts[0].id}`;
  subscriptionId = seeded.accounts[0].subscriptions[0].id;
  mark = caller(t, (await t.tokens('mark@acme.test')).access_token);
});
after(() => t.close());

async function project() {
  const res = await mark('POST', `${A2}/projects`, { name: `Quota ${Math.random().toString(36).slice(2, 8)}`, subscriptionId });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id as string, uuid: res.body.id.slice(res.body.id.lastIndexOf(':') + 1) as string, zone: res.body.rootWorkzoneId.slice(res.body.rootWorkzoneId.lastIndexOf(':') + 1) as string };
}

const doc = (size: number, seed: number) => {
  const content = bytes(size, seed);
  return { content, item: { name: `Doc ${seed}`, extension: 'pdf', size, md5: md5Hex(content) } };
};

test('the storage quota counts every category across the subscription\'s projects, at signing and registering', async () => {
  const p = await project();
  const bulk = `${A2}/projects/${p.uuid}/workzones/${p.zone}/bulk-files`;
  const first = doc(6000, 1);
  const signed = await mark('POST', bulk, [first.item]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  // 6,000 pending + 5,000 > 10,000: refused, nothing recorded.
  const over = assertProblem(await mark('POST', bulk, [doc(5000, 2).item]), 400, 'storage-quota-exceeded');
  assert.equal(over.errorValues.subscriptionId, subscriptionId);
  assert.equal(over.errorValues.quotaBytes, QUOTA);
  assert.equal((await pendingOf(t, p.id)).length, 1);
  // The pending upload registers (it was counted when signed).
  assert.ok((await putSigned(t, signed.body.files[0].url, first.content)).statusCode < 300);
  const reg = await mark('PUT', bulk, [{ ...first.item, blobName: signed.body.files[0].blobName }]);
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  // Exactly up to the quota is fine; one byte more is not, in another project of the subscription too.
  assert.equal((await mark('POST', bulk, [doc(4000, 3).item])).status, 200);
  const q = await project();
  assertProblem(await mark('POST', `${A2}/projects/${q.uuid}/workzones/${q.zone}/bulk-files`, [doc(1, 4).item]), 400, 'storage-quota-exceeded');
  // Covers count too.
  const png = bytes(100, 5);
  assertProblem(
    await mark('POST', `${A2}/projects/${q.uuid}/cover`, { name: 'c', extension: 'png', size: png.length, md5: md5Hex(png) }),
    400, 'storage-quota-exceeded',
  );
});

test('STORAGE_QUOTA_BYTES: 100 GiB by default (not 10 TiB), a non-negative integer', () => {
  assert.equal(loadConfig({}).storageQuotaBytes, 100 * 1024 ** 3);
  assert.equal(loadConfig({ STORAGE_QUOTA_BYTES: '5000' }).storageQuotaBytes, 5000);
  assert.throws(() => loadConfig({ STORAGE_QUOTA_BYTES: '10TB' }), /STORAGE_QUOTA_BYTES/);
  assert.throws(() => loadConfig({ STORAGE_QUOTA_BYTES: '99999999999999999999' }), /STORAGE_QUOTA_BYTES/);
});

test('STORAGE_QUOTA_BYTES unset in production (NODE_ENV=production) is a start-up warning; set, or outside production, none', () => {
  const warned = startupWarnings(loadConfig({ NODE_ENV: 'production' }));
  assert.equal(warned.length, 1);
  assert.equal(warned[0]![0].setting, 'STORAGE_QUOTA_BYTES');
  assert.match(warned[0]![1], /STORAGE_QUOTA_BYTES is unset/);
  assert.deepEqual(startupWarnings(loadConfig({ NODE_ENV: 'production', STORAGE_QUOTA_BYTES: String(2 * 1024 ** 4) })), []);
  assert.deepEqual(startupWarnings(loadConfig({})), []);
  assert.deepEqual(startupWarnings(loadConfig({ NODE_ENV: 'development' })), []);
});
