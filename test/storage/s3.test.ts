// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// The S3-type store against s3rver (started here). s3rver checks neither signatures nor
// Content-MD5, so the strict refusals are S3's own: what this test proves instead is that
// the presigned PUT URL binds them. An independent SigV4 computation (written here, not the
// SDK's) recomputes the signature over the headers a client sends per CONTRACT §7 and
// checks the signed header list and expiry; real S3 refuses whatever it does not match.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { S3Store, parseS3Url } from '../../src/adapters/storage/s3.ts';
import { loadConfig } from '../../src/config.ts';
import { freshKey, md5Hex, objectStoreContract } from './contract.ts';
import { multipartContract } from './multipart-contract.ts';
import { startS3rver, type Emulator } from './emulators.ts';
import { freePort } from '../support/server.ts';

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

async function openS3(emulator: Emulator, publicUrl?: string): Promise<S3Store> {
  const store = new S3Store({
    ...parseS3Url(`s3://scanbase-test?endpoint=${emulator.endpoint}&region=eu-west-3&forcePathStyle=true`),
    credentials: CREDENTIALS,
    publicUrl,
  });
  await store.init();
  return store;
}

/** s3rver started, a store on it; `reopen` another store on the same emulator. */
async function s3UnderTest() {
  const emulator = await startS3rver();
  const store = await openS3(emulator);
  return {
    store,
    reopen: () => openS3(emulator),
    async close() {
      await store.close();
      await emulator.stop();
    },
  };
}

objectStoreContract('s3 (s3rver)', s3UnderTest, { signature: false, expiry: false, md5: false, length: false, suffixRange: false });

multipartContract(
  's3 (s3rver)',
  s3UnderTest,
  // s3rver checks neither a part's length nor its MD5 (S3 does, by the signed headers: checked below).
  { partLength: false, partMd5: false, unknownUpload: true, computesWholeMd5: false },
);

const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: string) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');
/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** SigV4 of a presigned URL, recomputed from scratch over the headers the client will send. */
function sigV4(method: string, url: URL, headers: Record<string, string>, secret: string) {
  const q = url.searchParams;
  const signedHeaders = q.get('X-Amz-SignedHeaders')!.split(';');
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  lower.host = url.host;
  const canonicalHeaders = signedHeaders.map((h) => {
    assert.ok(h in lower, `signed header ${h} is one the client sends`);
    return `${h}:${lower[h]}\n`;
  }).join('');
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [method, url.pathname, query, canonicalHeaders, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const amzDate = q.get('X-Amz-Date')!;
  const scope = q.get('X-Amz-Credential')!.split('/').slice(1).join('/');
  const [date, region, service] = scope.split('/');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), service!), 'aws4_request');
  return crypto.createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
}

let emulator: Emulator;
test.before(async () => {
  emulator = await startS3rver();
});
test.after(async () => {
  await emulator?.stop();
});

test('s3: the presigned PUT signs content-md5, cache-control, content-length and host; the signature and expiry check out', async () => {
  const store = await openS3(emulator);
  try {
    const key = freshKey();
    const body = crypto.randomBytes(4096);
    const now = new Date('2026-11-23T01:02:03Z');
    const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 3600 }, now);
    const url = new URL(signed.url);
    assert.equal(url.searchParams.get('X-Amz-Algorithm'), 'AWS4-HMAC-SHA256');
    assert.equal(url.searchParams.get('X-Amz-Expires'), '3600');
    assert.equal(url.searchParams.get('X-Amz-Date'), '20261123T010203Z');
    assert.equal(url.searchParams.get('X-Amz-Content-Sha256'), 'UNSIGNED-PAYLOAD');
    assert.equal(url.searchParams.get('X-Amz-Credential'), 'S3RVER/20261123/eu-west-3/s3/aws4_request');
    const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders')!.split(';');
    for (const h of ['cache-control', 'content-length', 'content-md5', 'host']) assert.ok(signedHeaders.includes(h), `${h} is signed`);
    // No checksum the client would have to match (requestChecksumCalculation WHEN_REQUIRED).
    for (const k of url.searchParams.keys()) assert.ok(!/checksum|sdk-checksum/i.test(k), `no ${k}`);
    assert.ok(!signedHeaders.some((h) => /checksum|content-type/.test(h)), signedHeaders.join(';'));
    assert.equal(signed.expiresAt.toISOString(), '2026-11-23T02:02:03.000Z');

    const clientHeaders = { ...signed.headers, 'Content-Length': String(body.length) };
    const expected = sigV4('PUT', url, clientHeaders, CREDENTIALS.secretAccessKey);
    assert.equal(url.searchParams.get('X-Amz-Signature'), expected, 'the independent SigV4 matches');
    // What real S3 would refuse: another MD5, length or cache header, or another key, changes the signature.
    const otherMd5 = sigV4('PUT', url, { ...clientHeaders, 'Content-MD5': crypto.createHash('md5').update('x').digest('base64') }, CREDENTIALS.secretAccessKey);
    assert.notEqual(otherMd5, expected);
    assert.notEqual(sigV4('PUT', url, { ...clientHeaders, 'Content-Length': '1' }, CREDENTIALS.secretAccessKey), expected);
    assert.notEqual(sigV4('PUT', url, { ...clientHeaders, 'Cache-Control': 'no-cache' }, CREDENTIALS.secretAccessKey), expected);
    const moved = new URL(url);
    moved.pathname = moved.pathname.replace(/[^/]+$/, 'another.e57');
    assert.notEqual(sigV4('PUT', moved, clientHeaders, CREDENTIALS.secretAccessKey), expected);

    // The GET URL: signed for 3 hours, host only.
    const download = new URL(await store.signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 3 * 3600, fileName: 'a.e57' }, now));
    assert.equal(download.searchParams.get('X-Amz-Expires'), '10800');
    assert.equal(download.searchParams.get('X-Amz-Signature'), sigV4('GET', download, {}, CREDENTIALS.secretAccessKey));
  } finally {
    await store.close();
  }
});

test('s3: STORAGE_PUBLIC_URL is the host clients see, and the URL is signed for it', async () => {
  const publicUrl = `http://localhost:${emulator.port}`;
  const store = await openS3(emulator, publicUrl);
  try {
    const key = freshKey();
    const body = crypto.randomBytes(1000);
    const signed = await store.signUpload({ key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
    const url = new URL(signed.url);
    assert.equal(url.origin, publicUrl);
    assert.equal(url.searchParams.get('X-Amz-Signature'), sigV4('PUT', url, { ...signed.headers, 'Content-Length': '1000' }, CREDENTIALS.secretAccessKey));
    const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: new Uint8Array(body) });
    assert.equal(res.status, 200);
    assert.deepEqual(await store.stat(key), { size: 1000, md5Hex: md5Hex(body) });
    const got = await fetch(await store.signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date()));
    assert.ok(got.url.startsWith(publicUrl));
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(body));
  } finally {
    await store.close();
  }
});

test('s3: STORAGE_URL parsing and the bucket made at start', async () => {
  assert.deepEqual(parseS3Url('s3://my-bucket?endpoint=http://minio:9000&region=eu-west-1&forcePathStyle=true'), {
    bucket: 'my-bucket', endpoint: 'http://minio:9000', region: 'eu-west-1', forcePathStyle: true,
  });
  assert.deepEqual(parseS3Url('s3://b'), { bucket: 'b', endpoint: undefined, region: 'us-east-1', forcePathStyle: false });
  assert.throws(() => loadConfig({ STORAGE_URL: 's3://b?endpoint=ftp://x' }), /STORAGE_URL/);
  const store = new S3Store({ ...parseS3Url(`s3://fresh-bucket?endpoint=${emulator.endpoint}&forcePathStyle=true`), credentials: CREDENTIALS });
  try {
    await store.init();
    await store.init(); // idempotent
    await store.ping();
  } finally {
    await store.close();
  }
});

test('s3: ping fails when the storage does not answer (/healthz then answers 503)', async () => {
  const store = new S3Store({ ...parseS3Url(`s3://b?endpoint=http://127.0.0.1:${await freePort()}&forcePathStyle=true`), credentials: CREDENTIALS });
  try {
    await assert.rejects(store.ping());
  } finally {
    await store.close();
  }
});

test('s3: a presigned UploadPart signs content-md5, content-length and host (S3 then refuses another part length or MD5)', async () => {
  const store = await openS3(emulator);
  try {
    const now = new Date('2026-11-23T01:02:03Z');
    const upload = await store.createMultipart({ key: freshKey(), size: 12 * 1024 * 1024, partSize: 5 * 1024 * 1024 });
    const md5 = md5Hex(Buffer.from('part'));
    const [signed] = await store.signParts({ upload, parts: [{ partNumber: 3, md5Hex: md5 }], expiresInSeconds: 600 }, now);
    const url = new URL(signed!.url);
    assert.equal(signed!.size, 2 * 1024 * 1024);
    assert.equal(url.searchParams.get('partNumber'), '3');
    assert.equal(url.searchParams.get('uploadId'), upload.uploadId);
    const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders')!.split(';');
    assert.deepEqual(signedHeaders.sort(), ['content-length', 'content-md5', 'host']);
    const clientHeaders = { ...signed!.headers, 'Content-Length': String(signed!.size) };
    const expected = sigV4('PUT', url, clientHeaders, CREDENTIALS.secretAccessKey);
    assert.equal(url.searchParams.get('X-Amz-Signature'), expected, 'the independent SigV4 matches');
    assert.notEqual(sigV4('PUT', url, { ...clientHeaders, 'Content-Length': '1' }, CREDENTIALS.secretAccessKey), expected);
    assert.notEqual(sigV4('PUT', url, { ...clientHeaders, 'Content-MD5': md5Hex(Buffer.from('x')) }, CREDENTIALS.secretAccessKey), expected);
    await store.abortMultipart(upload);
  } finally {
    await store.close();
  }
});
