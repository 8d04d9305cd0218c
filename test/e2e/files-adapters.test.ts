// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// The spec's three upload steps against a started server for each object store that runs
// here besides the local disk (files-upload.test.ts): Azure-type on Azurite and S3-type on
// s3rver (issue 5, "How it must be shown", first bullet). Plain fetch: sign, PUT to the
// storage's signed URL with the three headers, register, list, download through the 302
// (whole and ranged); a wrong object is refused at registration.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { startServer, type RunningServer } from '../support/server.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';
import { bearerCall, md5, operatorCall, uploadHeaders } from '../support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';
import { startAzurite, startS3rver, type Emulator } from '../storage/emulators.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const stops: (() => Promise<void>)[] = [];
after(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

async function run(env: Record<string, string>) {
  const server: RunningServer = await startServer({ OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1', ...env });
  stops.push(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
  const operator = (p: string, body: unknown) => operatorCall(server.url, E2E_OPERATOR_TOKEN, 'POST', p, body);
  await operator('/seed', PROJECT_SEED);
  const token = (await operator('/tokens', { email: emailOf('projectOwner') })).access_token as string;
  const api = (method: string, p: string, body?: unknown) => bearerCall(server.url, token, method, p, body, 'manual');

  const project = await api('POST', `${A2}/projects`, { name: 'Adapters', subscriptionId: SUB_A });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const P = project.body.id as string;
  const bulk = `${A2}/projects/${P}/workzones/${project.body.rootWorkzoneId}/bulk-files`;
  const content = crypto.randomBytes(1024 * 1024 + 3);
  const other = crypto.randomBytes(1000);
  const item = { name: 'Scan', extension: 'e57', size: content.length, md5: md5(content).toString('hex') };
  const otherItem = { name: 'Wrong', extension: 'pdf', size: other.length, md5: md5(other).toString('hex') };

  const signed = await api('POST', bulk, [item, otherItem]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  const [f, g] = signed.body.files;
  const put = await fetch(f.url, {
    method: 'PUT', body: new Uint8Array(content),
    headers: uploadHeaders(content),
  });
  assert.ok(put.status >= 200 && put.status < 300, `${put.status} ${await put.text()}`);

  // The second blob never uploaded: registering both is refused as a whole.
  const refused = await api('PUT', bulk, [{ ...item, blobName: f.blobName }, { ...otherItem, blobName: g.blobName }]);
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.equal(refused.body.errorCode, 'blob-not-uploaded');
  assert.deepEqual((await api('GET', `${A2}/projects/${P}/files`)).body, []);

  const reg = await api('PUT', bulk, [{ ...item, blobName: f.blobName }]);
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const list = await api('GET', `${A2}/projects/${P}/files`);
  assert.deepEqual(list.body.map((x: any) => x.id), [reg.body[0].id]);

  const redirect = await api('GET', `${A2}/projects/${P}/blobs/${f.blobName}`);
  assert.equal(redirect.status, 302);
  const location = redirect.headers.get('location')!;
  const whole = await fetch(location);
  assert.equal(whole.status, 200);
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(content));
  const ranged = await fetch(location, { headers: { range: 'bytes=5-104' } });
  assert.equal(ranged.status, 206);
  assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(content.subarray(5, 105)));
}

describe('the three steps on other object stores', () => {
  test('Azure-type (Azurite)', async () => {
    const azurite = await startAzurite();
    stops.push(() => azurite.stop());
    await run({ STORAGE_URL: 'azure://scanbase-e2e', AZURE_STORAGE_CONNECTION_STRING: azurite.connectionString });
  });

  test('S3-type (s3rver)', async () => {
    const s3: Emulator = await startS3rver();
    stops.push(() => s3.stop());
    await run({
      STORAGE_URL: `s3://scanbase-e2e?endpoint=${s3.endpoint}&region=eu-west-3&forcePathStyle=true`,
      AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
  });
});
