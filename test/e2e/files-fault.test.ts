// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// Faults (issue 5, "How it must be shown"): kill -9 the server in the middle of a large
// upload and in the middle of a registration, restart it, and show that no half file is
// visible, that no file row exists without its object (registration is all or nothing),
// and that the sweeper clears the rest (pending rows and their objects) once UPLOAD_TTL
// has passed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startServer, type RunningServer } from '../support/server.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';
import { bearerCall, md5, operatorCall, uploadHeaders } from '../support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const ENV = { OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1', UPLOAD_TTL: '120', UPLOAD_URL_TTL: '60' };
let server: RunningServer;
let token = '';

after(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const operator = (method: string, p: string, body?: unknown) => operatorCall(server.url, E2E_OPERATOR_TOKEN, method, p, body);

const api = (method: string, p: string, body?: unknown) => bearerCall(server.url, token, method, p, body, 'manual');

const headersFor = uploadHeaders;

async function restart() {
  server = await startServer({ ...ENV, PORT: String(server.port) }, { dataDir: server.dataDir });
  token = (await operator('POST', '/tokens', { email: emailOf('projectOwner') })).access_token;
}

/** Objects on disk under the project (hidden temporary files excluded: they are the store's own). */
const objectsOnDisk = (projectId: string) => {
  const dir = path.join(server.dataDir, 'blobs', projectId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort() : [];
};

test('kill -9 during a large upload and during a registration: no half file, no row without its object, the sweeper clears the rest', async (t) => {
  server = await startServer(ENV);
  await operator('POST', '/seed', PROJECT_SEED);
  token = (await operator('POST', '/tokens', { email: emailOf('projectOwner') })).access_token;
  const project = await api('POST', `${A2}/projects`, { name: 'Faults', subscriptionId: SUB_A });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const P = project.body.id.slice(project.body.id.lastIndexOf(':') + 1) as string;
  const root = project.body.rootWorkzoneId as string;
  const bulk = `${A2}/projects/${P}/workzones/${root}/bulk-files`;

  // 1. A large upload, cut by kill -9 half way.
  const large = crypto.randomBytes(48 * 1024 * 1024);
  const largeItem = { name: 'Large', extension: 'e57', size: large.length, md5: md5(large).toString('hex') };
  const signedLarge = await api('POST', bulk, [largeItem]);
  assert.equal(signedLarge.status, 200, JSON.stringify(signedLarge.body));
  const { url: largeUrl, blobName: largeBlob } = signedLarge.body.files[0];
  const cut = new Promise<void>((resolve) => {
    const u = new URL(largeUrl);
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'PUT',
      headers: { ...headersFor(large), 'content-length': String(large.length), 'content-type': 'application/octet-stream' },
    });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    req.on('close', () => resolve());
    req.write(large.subarray(0, large.length / 2), () => {
      setTimeout(() => void server.kill(), 300);
    });
  });
  await cut;
  await server.kill();
  await restart();
  assert.deepEqual((await api('GET', `${A2}/projects/${P}/files`)).body, [], 'no file');
  assert.ok(!objectsOnDisk(P).includes(largeBlob), 'no half object under the key');
  const regLarge = await api('PUT', bulk, [{ ...largeItem, blobName: largeBlob }]);
  assert.equal(regLarge.status, 400, JSON.stringify(regLarge.body));
  assert.equal(regLarge.body.errorCode, 'blob-not-uploaded');

  // 2. A registration of many uploaded files, cut by kill -9.
  const docs = Array.from({ length: 150 }, (_, i) => crypto.randomBytes(256 + i));
  const items = docs.map((d, i) => ({ name: `Doc ${i}`, extension: 'pdf', size: d.length, md5: md5(d).toString('hex') }));
  const signed = await api('POST', bulk, items);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  for (const [i, f] of (signed.body.files as { url: string }[]).entries()) {
    const put = await fetch(f.url, { method: 'PUT', body: new Uint8Array(docs[i]!), headers: headersFor(docs[i]!) });
    assert.ok(put.ok, `${put.status}`);
  }
  const register = fetch(`${server.url}${bulk}`, {
    method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(items.map((it, i) => ({ ...it, blobName: signed.body.files[i].blobName }))),
  }).then((r) => r.status, () => 'cut');
  await new Promise((r) => setTimeout(r, 150));
  await server.kill();
  const outcome = await register;
  await restart();
  const listed = (await api('GET', `${A2}/projects/${P}/files`)).body as { blobName: string; size: number; url: string }[];
  t.diagnostic(`registration cut by kill -9: request ${outcome}, ${listed.length} of ${docs.length} files registered after restart`);
  assert.ok(listed.length === 0 || listed.length === docs.length, `all or nothing: ${listed.length} files (request: ${outcome})`);
  for (const f of listed.slice(0, 5)) {
    const r = await api('GET', new URL(f.url).pathname);
    assert.equal(r.status, 302);
    const bytes = await fetch(r.headers.get('location')!);
    assert.equal(bytes.status, 200);
    assert.equal((await bytes.arrayBuffer()).byteLength, f.size);
  }
  // Every row has its object.
  const onDisk = new Set(objectsOnDisk(P));
  for (const f of listed) assert.ok(onDisk.has(f.blobName), `${f.blobName} has its object`);

  // 3. Past UPLOAD_TTL, the sweeper (a pass runs at start) deletes what was never registered.
  await operator('POST', '/clock', { advanceSeconds: 121 });
  await server.stop();
  await restart();
  const deadline = Date.now() + 20_000;
  const registered = new Set(listed.map((f) => f.blobName));
  while (objectsOnDisk(P).some((b) => !registered.has(b)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(objectsOnDisk(P), [...registered].sort(), 'only registered files keep an object');
  await server.stop();
  const sql = await openPglite(path.join(server.dataDir, 'pglite'));
  try {
    assert.deepEqual(await sql.query('SELECT blob_name FROM pending_uploads WHERE project_id = $1', [P]), [], 'no pending row left');
    const rows = await sql.query<{ blob_name: string }>('SELECT blob_name FROM files WHERE project_id = $1', [P]);
    assert.equal(rows.length, listed.length);
  } finally {
    await sql.close();
  }
  server = await startServer({ ...ENV, PORT: String(server.port) }, { dataDir: server.dataDir });
});
