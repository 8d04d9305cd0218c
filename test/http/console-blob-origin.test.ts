// Issue 26 item 10: the recommended blob isolation (BLOB_PUBLIC_URL, another origin routed
// to the same service) works with the console. Its page may connect to that origin (CSP),
// and the /_blobs routes answer the console's cross-origin calls: the preflight of an
// upload (Content-MD5, Cache-Control, x-ms-blob-type) and of a ranged read, for the
// console's origin only and without credentials. The browser test (console-product)
// uploads and previews through such an origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';

const PUBLIC = 'http://localhost:8080';
const BLOBS = 'http://blobs.localhost:8080';
let t: TestApp;
before(async () => {
  t = await testApp({ PUBLIC_URL: PUBLIC, BLOB_PUBLIC_URL: BLOBS });
});
after(() => t?.close());

test('with BLOB_PUBLIC_URL the console page may connect to the blob origin and show images from it (CSP)', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/console/' });
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, new RegExp(`connect-src 'self' ${BLOBS.replace(/\./g, '\\.')};`));
  assert.match(csp, new RegExp(`img-src 'self' data: blob: ${BLOBS.replace(/\./g, '\\.')};`));
});

test('the preflight of the console\'s upload and ranged read is allowed for the console\'s origin, without credentials', async () => {
  for (const [method, headers] of [
    ['PUT', 'content-md5,cache-control,x-ms-blob-type'],
    ['GET', 'range'],
  ] as const) {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/_blobs/p/scan.las?sig=x',
      headers: { host: 'blobs.localhost:8080', origin: PUBLIC, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.headers['access-control-allow-origin'], PUBLIC);
    assert.match(String(res.headers['access-control-allow-methods']), new RegExp(method));
    for (const h of headers.split(',')) assert.match(String(res.headers['access-control-allow-headers']), new RegExp(h));
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    // The blob safety headers are on every /_blobs answer, this one too.
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  }
});

test('another origin gets no CORS grant: its preflight is 403 and answers carry no Access-Control-Allow-Origin', async () => {
  const pre = await t.app.inject({
    method: 'OPTIONS',
    url: '/_blobs/p/scan.las',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
  });
  assert.equal(pre.statusCode, 403);
  assert.equal(pre.headers['access-control-allow-origin'], undefined);
  const get = await t.app.inject({ method: 'GET', url: '/_blobs/p/scan.las', headers: { origin: 'https://evil.example' } });
  assert.equal(get.headers['access-control-allow-origin'], undefined);
});

test('a refused blob read still tells the console why (its answer carries the CORS grant), exposing Content-Range', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/_blobs/p/scan.las?sig=bad', headers: { origin: PUBLIC } });
  assert.equal(res.statusCode, 403);
  assert.equal(res.headers['access-control-allow-origin'], PUBLIC);
  assert.match(String(res.headers['access-control-expose-headers']), /content-range/);
  assert.equal(res.headers['content-security-policy'], "sandbox; default-src 'none'");
});
