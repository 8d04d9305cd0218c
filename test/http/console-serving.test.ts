// The web console is served by the service (docs/console.md): /console/ answers the built
// app with a strict CSP (no inline script), every other /console/* path answers the same
// index (routes survive a reload), bundles are cached as immutable and a missing one is a
// 404; the sandbox flag reaches the page as a meta tag; the console's callback on
// PUBLIC_URL is an allowed redirect address, exactly. Needs the build `npm ci` makes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { testApp, PUBLIC_URL, type TestApp } from '../support/app.ts';
import { pkcePair } from '../support/oauth-client.ts';
import { CONSOLE_DIST, consoleCsp, storageOriginsOf } from '../../src/http/console.ts';
import { consoleRedirect, isAllowedRedirectUri } from '../../src/modules/oauth/core/authorize-request.ts';

let t: TestApp;
before(async () => {
  assert.ok(fs.existsSync(path.join(CONSOLE_DIST, 'index.html')), 'the console is built (npm ci runs npm run build:console)');
  t = await testApp();
});
after(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

test('console: /console/ answers the built app with a strict CSP and the sandbox flag; /console redirects there', async () => {
  const redirect = await get('/console');
  assert.equal(redirect.statusCode, 302);
  assert.equal(redirect.headers.location, '/console/');

  const res = await get('/console/');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  assert.match(res.body, /<script type="module" crossorigin src="\/console\/assets\/[^"]+\.js"><\/script>/);
  assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  assert.match(res.body, /<meta name="scanbase-sandbox" content="on">/);
});

test('console: deep links answer the same index (routes survive a reload); bundles are immutable, a missing one is 404', async () => {
  const index = (await get('/console/')).body;
  for (const url of ['/console/a/x/p/y?zone=z&tab=files', '/console/callback?code=abc&state=def', '/console/a/x/p/y/t/z']) {
    const res = await get(url);
    assert.equal(res.statusCode, 200, url);
    assert.equal(res.body, index, url);
  }
  const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(index)![1]!;
  const js = await get(script);
  assert.equal(js.statusCode, 200);
  assert.match(String(js.headers['content-type']), /^text\/javascript/);
  assert.match(String(js.headers['cache-control']), /immutable/);
  assert.equal((await get('/console/assets/no-such-bundle.js')).statusCode, 404);
  // Only built files are ever read: a path out of the folder gets the index, not the file.
  const escape = await get('/console/..%2f..%2fpackage.json');
  assert.doesNotMatch(escape.body, /"name": "scanbase"/);
});

test('console: the callback on PUBLIC_URL is an allowed redirect address, exactly (no other path or query)', async () => {
  const { challenge } = pkcePair();
  const res = await get(
    `/oauth/authorize?${new URLSearchParams({ redirect_uri: consoleRedirect(PUBLIC_URL), state: 'abc123', code_challenge: challenge, code_challenge_method: 'S256' })}`,
  );
  assert.equal(res.statusCode, 200);
  // On a public origin (localhost allows any path anyway) only the exact address passes.
  const own = new Set([consoleRedirect('https://scan.example')]);
  assert.equal(isAllowedRedirectUri('https://scan.example/console/callback', own), true);
  for (const other of ['https://scan.example/console/callback/x', 'https://scan.example/console/callback?x=1', 'https://scan.example/console/', 'https://evil.example/console/callback']) {
    assert.equal(isAllowedRedirectUri(other, own), false, other);
  }
});

test('console: the CSP lets the browser PUT to the object store of signed URLs, and nowhere else', () => {
  assert.deepEqual(storageOriginsOf({ storageUrl: undefined, storagePublicUrl: undefined }), []);
  assert.deepEqual(storageOriginsOf({ storageUrl: 's3://scans?endpoint=http://minio.internal:9000&region=x', storagePublicUrl: undefined }), [
    'http://minio.internal:9000',
  ]);
  assert.deepEqual(storageOriginsOf({ storageUrl: 'azure://scans', storagePublicUrl: 'https://cdn.example/blobs' }), ['https://cdn.example']);
  assert.match(consoleCsp(['https://cdn.example']), /connect-src 'self' https:\/\/cdn\.example;/);
  assert.match(consoleCsp([]), /connect-src 'self';/);
});
