// The local-disk store through the service's own signed URLs (a real listening server):
// the shared contract, then what only this adapter owns: the clock, cut connections,
// streaming a large body, key validation, the shared signing key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort } from '../support/server.ts';
import { OPERATOR_TOKEN, testApp, type TestApp } from '../support/app.ts';
import { LocalDiskStore } from '../../src/adapters/storage/local-disk.ts';
import { freshKey, md5Hex, objectStoreContract, upload } from './contract.ts';
import { multipartContract } from './multipart-contract.ts';

async function listening(): Promise<TestApp & { url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await testApp({ PUBLIC_URL: url });
  await t.app.listen({ host: '127.0.0.1', port });
  return { ...t, url };
}

objectStoreContract(
  'local disk',
  async () => {
    const t = await listening();
    return { store: t.core.objectStore, close: () => t.close() };
  },
  { signature: true, expiry: true, md5: true, length: true },
);

multipartContract(
  'local disk',
  async () => {
    const t = await listening();
    const local = t.core.objectStore as LocalDiskStore;
    return {
      store: local,
      close: () => t.close(),
      reopen: async () => new LocalDiskStore({ root: local.root, publicUrl: t.url, signingKey: async () => Buffer.from('unused'), clock: t.core.clock }),
    };
  },
  { partLength: true, partMd5: true, unknownUpload: true, computesWholeMd5: true },
);

/** Every file under the root, temporary and metadata files included. */
function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out;
}

let t: TestApp & { url: string };
let store: LocalDiskStore;
test.before(async () => {
  t = await listening();
  assert.ok(t.core.objectStore instanceof LocalDiskStore);
  store = t.core.objectStore;
});
test.after(async () => {
  await t?.close();
});

test('local disk: the service clock expires upload URLs (sandbox clock moved forward)', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(1000);
  const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 3600 }, t.core.clock.now());
  // Through the sandbox clock: its periodic reload would put back an offset written to the clock alone.
  await t.core.sandboxClock.advance(3601);
  try {
    const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: new Uint8Array(body) });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal((await res.json()).errorCode, 'url-expired');
  } finally {
    await t.core.sandboxClock.advance(-3601);
  }
  assert.equal(await store.stat(key), null);
});

test('local disk: refusals are problem+json 4xx naming the rule', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(1000);
  const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  const cases: [Record<string, string>, Buffer, number, string][] = [
    [{ ...signed.headers, 'Content-MD5': crypto.createHash('md5').update('x').digest('base64') }, body, 400, 'content-md5-mismatch'],
    [{ 'Cache-Control': 'max-age=2592000' }, body, 400, 'content-md5-missing'],
    [{ ...signed.headers, 'Content-MD5': 'not base64' }, body, 400, 'content-md5-mismatch'],
    [signed.headers, body.subarray(1), 400, 'content-length-mismatch'],
  ];
  for (const [headers, b, status, code] of cases) {
    const res = await fetch(signed.url, { method: 'PUT', headers, body: new Uint8Array(b) });
    assert.equal(res.status, status, code);
    assert.equal((await res.json()).errorCode, code);
  }
  const u = new URL(signed.url);
  u.searchParams.set('size', String(body.length + 1));
  const res = await fetch(u, { method: 'PUT', headers: signed.headers, body: new Uint8Array(body) });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).errorCode, 'signature-invalid');
  assert.equal(await store.stat(key), null);
  assert.deepEqual(filesUnder(store.root).filter((f) => f.startsWith(key.split('/')[0]!)), []);
});

test('local disk: a chunked upload without Content-Length is refused', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(1000);
  const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(signed.url, { method: 'PUT', headers: { ...signed.headers, 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(status, 400);
  assert.equal(await store.stat(key), null);
});

test('local disk: keys outside the root, or not ours, are refused before touching the disk', async () => {
  for (const p of ['/_blobs/../../etc/passwd', '/_blobs/%2e%2e/%2e%2e/etc/passwd', '/_blobs/a/..%2F..%2Fx', '/_blobs//etc/passwd', '/_blobs/.hidden', '/_blobs/a%00b']) {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await t.app.inject({ method, url: `${p}?expires=9999999999&sig=x&size=1&md5=${'0'.repeat(32)}`, payload: method === 'PUT' ? 'x' : undefined });
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${method} ${p}: ${res.statusCode}`);
    }
  }
  assert.throws(() => store.pathOf('../x'));
  assert.throws(() => store.pathOf('/etc/passwd'));
  assert.throws(() => store.pathOf('a/../../x'));
  await assert.rejects(store.signUpload({ key: 'a/../b', size: 1, md5Hex: '0'.repeat(32), expiresInSeconds: 60 }, new Date()));
});

test('local disk: a cut connection leaves neither the object nor a temporary file', async () => {
  const key = freshKey();
  const size = 8 * 1024 * 1024;
  const body = crypto.randomBytes(size);
  const signed = await store.signUpload({ key, size, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  await new Promise<void>((resolve) => {
    const req = http.request(signed.url, { method: 'PUT', headers: { ...signed.headers, 'content-length': String(size) } });
    req.on('error', () => resolve());
    req.write(body.subarray(0, 3 * 1024 * 1024), () => {
      // Let the server write part of it, then cut the connection.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
  });
  const dir = path.join(store.root, key.split('/')[0]!);
  for (let i = 0; i < 50 && filesUnder(dir).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(filesUnder(dir), [], 'no file, no temporary file');
  assert.equal(await store.stat(key), null);
});

test('local disk: a 50 MiB upload streams to disk and reads back (HEAD, ETag, Content-MD5)', async () => {
  const key = freshKey();
  const size = 50 * 1024 * 1024;
  const chunk = crypto.randomBytes(1024 * 1024);
  const hash = crypto.createHash('md5');
  for (let i = 0; i < 50; i++) hash.update(chunk);
  const md5 = hash.digest('hex');
  const signed = await store.signUpload({ key, size, md5Hex: md5, expiresInSeconds: 600 }, new Date());
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(signed.url, { method: 'PUT', headers: { ...signed.headers, 'content-length': String(size) } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    let i = 0;
    const next = () => {
      while (i < 50) {
        i++;
        if (!req.write(chunk)) return void req.once('drain', next);
      }
      req.end();
    };
    next();
  });
  assert.equal(status, 201);
  assert.deepEqual(await store.stat(key), { size, md5Hex: md5 });
  const url = await store.signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date());
  const head = await fetch(url, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(size));
  assert.equal(head.headers.get('etag'), `"${md5}"`);
  assert.equal(head.headers.get('content-md5'), Buffer.from(md5, 'hex').toString('base64'));
  assert.equal(head.headers.get('accept-ranges'), 'bytes');
  const res = await fetch(url, { headers: { range: `bytes=${size - 1024 * 1024}-` } });
  assert.equal(res.status, 206);
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(chunk));
  await store.delete(key);
});

test('local disk: another node on the same database verifies the URLs this one signs (key in the database)', async () => {
  // A second store on the same database and root: built as compose builds it.
  const key = freshKey();
  const body = crypto.randomBytes(100);
  const { res } = await upload(store, key, body);
  assert.equal(res.status, 201);
  const second = new LocalDiskStore({
    root: store.root,
    publicUrl: t.url,
    clock: t.core.clock,
    signingKey: async () => Buffer.from((await t.core.store.repos.settings.get<string>('storage.signing_key'))!, 'utf8'),
  });
  const url = await second.signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date());
  const got = await fetch(url);
  assert.equal(got.status, 200);
  assert.ok(Buffer.from(await got.arrayBuffer()).equals(body));
});

test('local disk: a stale metadata file is never trusted (stat recomputes the MD5)', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(100);
  await upload(store, key, body);
  const file = store.pathOf(key);
  const replaced = crypto.randomBytes(100);
  fs.writeFileSync(`${file}.new`, replaced);
  fs.renameSync(`${file}.new`, file); // another inode, same size
  assert.deepEqual(await store.stat(key), { size: 100, md5Hex: md5Hex(replaced) });
});

test('local disk: an operator reset deletes every blob', async () => {
  const key = freshKey();
  const { res } = await upload(store, key, crypto.randomBytes(100));
  assert.equal(res.status, 201);
  const reset = await t.app.inject({ method: 'POST', url: '/_operator/reset', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  assert.equal(reset.statusCode, 200);
  assert.equal(await store.stat(key), null);
  assert.deepEqual(filesUnder(store.root), []);
  // The store still works afterwards.
  const again = await upload(store, key, crypto.randomBytes(10));
  assert.equal(again.res.status, 201);
});

test('local disk: /healthz answers 503 while the blob root is gone', async () => {
  assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  fs.rmSync(store.root, { recursive: true, force: true });
  try {
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 503);
  } finally {
    fs.mkdirSync(store.root, { recursive: true });
  }
  assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
});

test('local disk: what a killed upload left (temporary file, orphan metadata) is swept once idle; live objects stay', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(100);
  const { res } = await upload(store, key, body);
  assert.equal(res.status, 201);
  const dir = path.join(store.root, key.split('/')[0]!);
  fs.writeFileSync(path.join(dir, '.dead.e57.abc123.part'), 'half');
  fs.writeFileSync(path.join(dir, '.dead.e57.abc123.meta-part'), '{}');
  fs.writeFileSync(path.join(dir, '.gone.e57.meta'), '{}');
  assert.deepEqual(await store.sweepTemporary(60_000), [], 'fresh files are left to their upload');
  const old = new Date(Date.now() - 3600_000);
  for (const f of ['.dead.e57.abc123.part', '.dead.e57.abc123.meta-part', '.gone.e57.meta']) fs.utimesSync(path.join(dir, f), old, old);
  const removed = (await store.sweepTemporary(60_000)).sort();
  assert.equal(removed.length, 3, removed.join(', '));
  assert.deepEqual(await store.stat(key), { size: 100, md5Hex: md5Hex(body) });
  assert.ok(fs.existsSync(path.join(dir, `.${key.split('/')[1]}.meta`)), 'the live object keeps its metadata');
});
