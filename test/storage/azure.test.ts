// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// The Azure-type store against Azurite (started here, in memory, on a free loopback port).
// Azurite checks the SAS signature and expiry and Content-MD5 like Azure; a SAS does not bind
// the length, so a body of another length (with its own MD5) is stored, and registration's
// stat (size and MD5 against the signed ones) is what refuses it: checked below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { AzureStore, parseAzureUrl } from '../../src/adapters/storage/azure.ts';
import { loadConfig } from '../../src/config.ts';
import { freshKey, md5Base64, md5Hex, objectStoreContract } from './contract.ts';
import { multipartContract } from './multipart-contract.ts';
import { startAzurite } from './emulators.ts';

type Azurite = Awaited<ReturnType<typeof startAzurite>>;

async function openAzure(azurite: Azurite, publicUrl?: string): Promise<AzureStore> {
  const store = new AzureStore({ ...parseAzureUrl('azure://scanbase-test'), connectionString: azurite.connectionString, publicUrl });
  await store.init();
  return store;
}

objectStoreContract(
  'azure (azurite)',
  async () => {
    const azurite = await startAzurite();
    const store = await openAzure(azurite);
    return {
      store,
      async close() {
        await azurite.stop();
      },
    };
  },
  // Azure serves no suffix ranges (bytes=-N); Azurite answers them with a broken Content-Length.
  { signature: true, expiry: true, md5: true, length: false, suffixRange: false },
);

multipartContract(
  'azure (azurite)',
  async () => {
    const emulator = await startAzurite();
    const store = await openAzure(emulator);
    return { store, reopen: () => openAzure(emulator), close: () => emulator.stop() };
  },
  // A SAS binds no length; Azure checks a block's Content-MD5. Azure knows no upload, only blocks.
  { partLength: false, partMd5: true, unknownUpload: false, computesWholeMd5: false },
);

let azurite: Azurite;
let store: AzureStore;
test.before(async () => {
  azurite = await startAzurite();
  store = await openAzure(azurite);
});
test.after(async () => {
  await azurite?.stop();
});

test('azure: an upload without x-ms-blob-type: BlockBlob is refused, nothing stored', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(1000);
  const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  const { 'x-ms-blob-type': _dropped, ...headers } = signed.headers;
  const res = await fetch(signed.url, { method: 'PUT', headers, body: new Uint8Array(body) });
  assert.ok(res.status >= 400 && res.status < 500, `answered ${res.status}`);
  await res.arrayBuffer();
  assert.equal(await store.stat(key), null);
});

test('azure: a body of another length is stored but stat shows it is not the signed object (registration refuses it)', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(1000);
  const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  const longer = Buffer.concat([body, Buffer.from('x')]);
  await fetch(signed.url, { method: 'PUT', headers: { ...signed.headers, 'Content-MD5': md5Base64(longer) }, body: new Uint8Array(longer) });
  const info = await store.stat(key);
  assert.notDeepEqual(info, { size: body.length, md5Hex: md5Hex(body) });
});

test('azure: downloads serve Cache-Control max-age=2592000 and the file name (set in the SAS)', async () => {
  const key = freshKey();
  const body = crypto.randomBytes(100);
  const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  const put = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: new Uint8Array(body) });
  assert.equal(put.status, 201);
  const url = new URL(await store.signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 10800, fileName: 'Scan 1.e57' }, new Date()));
  assert.equal(url.searchParams.get('rscc'), 'max-age=2592000');
  assert.equal(url.searchParams.get('sp'), 'r');
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'max-age=2592000');
  assert.match(res.headers.get('content-disposition') ?? '', /Scan 1\.e57/);
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(body));
  // The upload URL grants create and write on that blob only, never read.
  assert.equal(new URL(signed.url).searchParams.get('sp'), 'cw');
  assert.equal((await fetch(signed.url)).status, 403);
});

test('azure: STORAGE_PUBLIC_URL replaces the origin clients see; the container is made at start', async () => {
  const publicUrl = `http://localhost:${azurite.port}`;
  const pub = await openAzure(azurite, publicUrl);
  const key = freshKey();
  const body = crypto.randomBytes(100);
  const signed = await pub.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
  assert.equal(new URL(signed.url).origin, publicUrl);
  assert.equal((await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: new Uint8Array(body) })).status, 201);
  assert.deepEqual(await pub.stat(key), { size: 100, md5Hex: md5Hex(body) });
  await pub.ping();
  assert.throws(() => loadConfig({ STORAGE_URL: 'azure://c' }), /AZURE_STORAGE_CONNECTION_STRING/);
  assert.deepEqual(parseAzureUrl('azure://my-container'), { container: 'my-container' });
});

test('azure: a part URL is a write-only SAS on the blob whose block id names the upload, the part and its MD5', async () => {
  const body = crypto.randomBytes(1000);
  const upload = await store.createMultipart({ key: freshKey(), size: 3 * 1024 * 1024, partSize: 1024 * 1024 });
  const [signed] = await store.signParts({ upload, parts: [{ partNumber: 2, md5Hex: md5Hex(body) }], expiresInSeconds: 600 }, new Date());
  const url = new URL(signed!.url);
  assert.equal(url.searchParams.get('sp'), 'w');
  assert.equal(url.searchParams.get('comp'), 'block');
  assert.equal(Buffer.from(url.searchParams.get('blockid')!, 'base64').toString(), `${upload.uploadId}-000002-${md5Hex(body)}`);
  assert.equal(signed!.headers['Content-MD5'], md5Base64(body));
  assert.equal((await fetch(signed!.url)).status, 403, 'the part URL reads nothing');
});
