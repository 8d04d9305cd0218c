// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// Files end to end against a started server (issue 5, "How it must be shown"), with plain
// fetch exactly as the spec's three steps: sign, PUT to the signed URL with Content-MD5,
// Cache-Control and x-ms-blob-type, register; then list, and download through the 302
// (whole and ranged). Then the sweeper: an upload signed and never registered is gone,
// object and row, once UPLOAD_TTL has passed on the service clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { Readable } from 'node:stream';
import { startServer, type RunningServer } from '../support/server.ts';
import { sampleValue } from '../support/metrics-text.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';
import { bearerCall, md5, operatorCall, uploadHeaders } from '../support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const METRICS_TOKEN = 'files-e2e-metrics-token-of-24-chars';
let server: RunningServer;
let token = '';

const operator = (method: string, p: string, body?: unknown) => operatorCall(server.url, E2E_OPERATOR_TOKEN, method, p, body);

const api = (method: string, p: string, body?: unknown, redirect: RequestRedirect = 'follow') => bearerCall(server.url, token, method, p, body, redirect);


before(async () => {
  server = await startServer({ OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1', UPLOAD_TTL: '120', UPLOAD_URL_TTL: '60', METRICS_TOKEN, GC_COUNT_EXTERNAL_MEMORY: '1' });
  await operator('POST', '/seed', PROJECT_SEED);
  token = (await operator('POST', '/tokens', { email: emailOf('projectOwner') })).access_token;
});
after(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

test('sign, PUT with the three headers, register, list, download through the 302 (whole and ranged)', async () => {
  const project = await api('POST', `${A2}/projects`, { name: 'E2E files', subscriptionId: SUB_A });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const P = project.body.id as string;
  const root = project.body.rootWorkzoneId as string;
  const content = crypto.randomBytes(3 * 1024 * 1024 + 17);

  // 1. sign
  const item = { name: 'Level 1', extension: 'e57', size: content.length, md5: md5(content).toString('hex') };
  const signed = await api('POST', `${A2}/projects/${P}/workzones/${root}/bulk-files`, [item]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  const { url, blobName } = signed.body.files[0];
  assert.ok(url.startsWith(server.url), url);

  // 2. PUT to the signed URL with the spec's headers
  const put = await fetch(url, {
    method: 'PUT', body: new Uint8Array(content),
    headers: uploadHeaders(content),
  });
  assert.ok(put.status >= 200 && put.status < 300, `${put.status} ${await put.text()}`);

  // 3. register (PUT, the vendor's method; POST with blobName does the same)
  const reg = await api('PUT', `${A2}/projects/${P}/workzones/${root}/bulk-files`, [{ ...item, blobName }]);
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const fileId = reg.body[0].id as string;
  assert.match(fileId, /^urn:svc:file:/);

  const list = await api('GET', `${A2}/projects/${P}/files?category=scan`);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.map((f: any) => f.id), [fileId]);
  assert.equal(list.body[0].size, content.length);

  // the file's url is the 302 link
  const blob = await api('GET', new URL(list.body[0].url).pathname, undefined, 'manual');
  assert.equal(blob.status, 302);
  const location = blob.headers.get('location')!;
  const whole = await fetch(location);
  assert.equal(whole.status, 200);
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(content), 'the whole download is the uploaded bytes');
  const ranged = await fetch(location, { headers: { range: 'bytes=1000-1999' } });
  assert.equal(ranged.status, 206);
  assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(content.subarray(1000, 2000)), 'the range is those bytes');
  // following the redirect with the bearer token works the same
  const followed = await api('GET', `${A2}/projects/${P}/blobs/${blobName}`);
  assert.equal(followed.status, 200);
});

test('with GC_COUNT_EXTERNAL_MEMORY a large upload body starts no full collection: the HTTP reads\' buffers count in V8\'s global limit (src/main.ts)', async () => {
  const MiB = 1024 * 1024;
  const SIZE = 384 * MiB;
  const project = await api('POST', `${A2}/projects`, { name: 'E2E large body', subscriptionId: SUB_A });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  // The body, generated twice the same way (for its MD5, then sent): a random MiB stamped with its index.
  const block = crypto.randomBytes(MiB);
  function* body(): Generator<Buffer> {
    for (let i = 0; i < SIZE / MiB; i++) {
      const chunk = Buffer.from(block);
      chunk.writeUInt32LE(i, 0);
      yield chunk;
    }
  }
  const hash = crypto.createHash('md5');
  for (const chunk of body()) hash.update(chunk);
  const digest = hash.digest();
  const item = { name: 'Large', extension: 'e57', size: SIZE, md5: digest.toString('hex') };
  const signed = await api('POST', `${A2}/projects/${project.body.id}/workzones/${project.body.rootWorkzoneId}/bulk-files`, [item]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));

  const fullCollections = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(res.status, 200);
    return sampleValue(await res.text(), 'scanbase_nodejs_gc_duration_seconds_count', { kind: 'major' }) ?? 0;
  };
  const before = await fullCollections();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(signed.body.files[0].url, {
      method: 'PUT',
      headers: { 'content-length': SIZE, 'content-md5': digest.toString('base64'), 'cache-control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob' },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
  assert.equal(status, 201);
  // Without the setting V8 starts one every 64 MiB of these buffers: 6 or more here.
  const during = (await fullCollections()) - before;
  assert.ok(during <= 1, `${during} full collections while 384 MiB were received`);
});

test('the sweeper deletes an upload never registered, object and row, after UPLOAD_TTL (service clock)', async () => {
  const project = await api('POST', `${A2}/projects`, { name: 'E2E sweep', subscriptionId: SUB_A });
  const P = project.body.id as string;
  const root = project.body.rootWorkzoneId as string;
  const content = crypto.randomBytes(4096);
  const item = { name: 'Abandoned', extension: 'pdf', size: content.length, md5: md5(content).toString('hex') };
  const signed = await api('POST', `${A2}/projects/${P}/workzones/${root}/bulk-files`, [item]);
  const { url, blobName } = signed.body.files[0];
  const put = await fetch(url, {
    method: 'PUT', body: new Uint8Array(content),
    headers: uploadHeaders(content),
  });
  assert.ok(put.ok);
  const objectPath = path.join(server.dataDir, 'blobs', P.slice(P.lastIndexOf(':') + 1), blobName);
  assert.ok(fs.existsSync(objectPath), 'the object is on disk');

  // Past UPLOAD_TTL on the service clock, a restart runs a housekeeping pass at once.
  await operator('POST', '/clock', { advanceSeconds: 121 });
  const env = { OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1', UPLOAD_TTL: '120', UPLOAD_URL_TTL: '60' };
  await server.stop();
  server = await startServer({ ...env, PORT: String(server.port) }, { dataDir: server.dataDir });
  token = (await operator('POST', '/tokens', { email: emailOf('projectOwner') })).access_token;
  const deadline = Date.now() + 20_000;
  while (fs.existsSync(objectPath) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.ok(!fs.existsSync(objectPath), 'the object is gone');
  const reg = await api('PUT', `${A2}/projects/${P}/workzones/${root}/bulk-files`, [{ ...item, blobName }]);
  assert.equal(reg.status, 400, JSON.stringify(reg.body));
  assert.equal(reg.body.errorCode, 'unknown-blob-name');
  await server.stop();
  const sql = await openPglite(path.join(server.dataDir, 'pglite'));
  try {
    assert.deepEqual(await sql.query('SELECT blob_name FROM pending_uploads WHERE blob_name = $1', [blobName]), []);
  } finally {
    await sql.close();
  }
  server = await startServer({ ...env, PORT: String(server.port) }, { dataDir: server.dataDir });
});
