// The ObjectStore contract, run against every adapter (local disk, Azure on Azurite, S3 on
// s3rver): sign → a real HTTP PUT with the three headers of CONTRACT §7 → stat → signed GET
// (whole and ranged) → delete; and the strict refusals, each leaving nothing stored.
// An emulator that does not enforce a rule (s3rver checks no signature) says so in
// `enforces`; its adapter test checks the signed URL itself instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { ObjectStore } from '../../src/core/ports/object-store.ts';

export interface StoreUnderTest {
  store: ObjectStore;
  close(): Promise<void>;
}

export interface Enforcement {
  /** A tampered signature, or another key under the same signature, is refused. */
  signature: boolean;
  /** An expired URL is refused. */
  expiry: boolean;
  /** A Content-MD5 other than the signed one, or a body whose digest differs, is refused. */
  md5: boolean;
  /** A body whose length differs from the signed size is refused. */
  length: boolean;
  /** Suffix ranges (`bytes=-N`) are served right (s3rver answers `bytes=0-N` instead). */
  suffixRange?: boolean;
}

export const md5Hex = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');
export const md5Base64 = (b: Buffer) => crypto.createHash('md5').update(b).digest('base64');

let counter = 0;
/** A fresh key per test: `<uuid>/<blob name>`, as the core makes them. */
export const freshKey = () => `${crypto.randomUUID()}/blob-${Date.now().toString(36)}-${counter++}.e57`;

export async function put(url: string, headers: Record<string, string>, body: Buffer): Promise<Response> {
  return fetch(url, { method: 'PUT', headers, body: new Uint8Array(body) });
}

/** Signs and uploads `body`; answers the PUT's response. */
export async function upload(store: ObjectStore, key: string, body: Buffer, opts: { now?: Date; expiresInSeconds?: number } = {}) {
  const signed = await store.signUpload(
    { key, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: opts.expiresInSeconds ?? 600 },
    opts.now ?? new Date(),
  );
  return { signed, res: await put(signed.url, signed.headers, body) };
}

/** Replaces the last path segment of a signed URL (same query, same signature). */
export function otherKeyUrl(url: string, key: string, otherKey: string): string {
  const u = new URL(url);
  const last = encodeURIComponent(key.split('/').pop()!);
  const otherLast = encodeURIComponent(otherKey.split('/').pop()!);
  assert.ok(u.pathname.endsWith(last), `${u.pathname} ends with ${last}`);
  u.pathname = u.pathname.slice(0, -last.length) + otherLast;
  return u.toString();
}

export function objectStoreContract(name: string, open: () => Promise<StoreUnderTest>, enforces: Enforcement) {
  let sut: StoreUnderTest;
  const store = () => sut.store;
  const content = crypto.randomBytes(256 * 1024 + 17);

  test.before(async () => {
    sut = await open();
  });
  test.after(async () => {
    await sut?.close();
  });

  test(`${name}: sign, PUT with the three headers, stat, GET whole and ranged, delete`, async () => {
    const key = freshKey();
    const { signed, res } = await upload(store(), key, content);
    assert.ok(res.ok, `PUT answered ${res.status}: ${await res.text()}`);
    assert.equal(signed.headers['Content-MD5'], md5Base64(content));
    assert.equal(signed.headers['Cache-Control'], 'max-age=2592000');
    assert.equal(signed.headers['x-ms-blob-type'], 'BlockBlob');
    assert.ok(signed.expiresAt.getTime() > Date.now() + 500_000);

    assert.deepEqual(await store().stat(key), { size: content.length, md5Hex: md5Hex(content) });

    const url = await store().signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 3 * 3600, fileName: 'Site scan.e57' }, new Date());
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    const got = Buffer.from(await whole.arrayBuffer());
    assert.equal(got.length, content.length);
    assert.ok(got.equals(content), 'the bytes read back are the bytes written');
    assert.match(whole.headers.get('cache-control') ?? '', /max-age=2592000/);
    assert.match(whole.headers.get('content-disposition') ?? '', /Site scan\.e57/);

    const ranged = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get('content-range'), `bytes 1000-1999/${content.length}`);
    assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(content.subarray(1000, 2000)));

    if (enforces.suffixRange !== false) {
      const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
      assert.equal(tail.status, 206);
      assert.ok(Buffer.from(await tail.arrayBuffer()).equals(content.subarray(content.length - 10)), 'suffix range');
    }

    const beyond = await fetch(url, { headers: { range: `bytes=${content.length + 10}-` } });
    assert.equal(beyond.status, 416);
    await beyond.arrayBuffer();

    await store().delete(key);
    assert.equal(await store().stat(key), null);
    await store().delete(key); // deleting a missing object is not an error
  });

  test(`${name}: a blob is served with the service's content type, never the uploader's`, async () => {
    // The uploader sends text/html (the stored-script attack): no store serves it back.
    const key = freshKey();
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const signed = await store().signUpload(
      { key, size: html.length, md5Hex: md5Hex(html), contentType: 'image/png', expiresInSeconds: 600 }, new Date(),
    );
    assert.equal(signed.headers['Content-Type'], undefined, 'clients are never asked for a Content-Type');
    const res = await put(signed.url, { ...signed.headers, 'Content-Type': 'text/html' }, html);
    assert.ok(res.ok, `PUT answered ${res.status}: ${await res.text()}`);
    const image = await fetch(await store().signDownload({ key, contentType: 'image/png', inline: true, expiresInSeconds: 600 }, new Date()));
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.ok(!/attachment/.test(image.headers.get('content-disposition') ?? ''), 'an inline image is no attachment');
    await image.arrayBuffer();
    const other = await fetch(await store().signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date()));
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('content-type'), 'application/octet-stream');
    assert.match(other.headers.get('content-disposition') ?? '', /^attachment/);
    await other.arrayBuffer();
    await store().delete(key);
  });

  test(`${name}: everything but an inline image is served as an attachment (with its file name when given)`, async () => {
    const key = freshKey();
    const body = Buffer.from('%PDF-1.7 not really');
    assert.ok((await upload(store(), key, body)).res.ok);
    const named = await fetch(await store().signDownload(
      { key, contentType: 'application/pdf', fileName: 'Plan "A".pdf', expiresInSeconds: 600 }, new Date(),
    ));
    assert.equal(named.headers.get('content-type'), 'application/pdf');
    assert.match(named.headers.get('content-disposition') ?? '', /^attachment; filename="Plan _A_\.pdf"/);
    await named.arrayBuffer();
    await store().delete(key);
  });

  test(`${name}: readHead answers an object's first bytes, fewer for a short one, null for none`, async () => {
    const key = freshKey();
    assert.ok((await upload(store(), key, content)).res.ok);
    assert.deepEqual(Buffer.from((await store().readHead(key, 8))!), content.subarray(0, 8));
    const short = freshKey();
    assert.ok((await upload(store(), short, Buffer.from('abc'))).res.ok);
    assert.deepEqual(Buffer.from((await store().readHead(short, 8))!), Buffer.from('abc'));
    assert.equal(await store().readHead(freshKey(), 8), null);
    await store().delete(key);
    await store().delete(short);
  });

  test(`${name}: stat of an object never uploaded is null`, async () => {
    assert.equal(await store().stat(freshKey()), null);
  });

  test(`${name}: an empty object round-trips`, async () => {
    const key = freshKey();
    const { res } = await upload(store(), key, Buffer.alloc(0));
    assert.ok(res.ok, `PUT answered ${res.status}`);
    assert.deepEqual(await store().stat(key), { size: 0, md5Hex: md5Hex(Buffer.alloc(0)) });
    await store().delete(key);
  });

  test(`${name}: a download URL of a missing object answers 404`, async () => {
    const url = await store().signDownload({ key: freshKey(), contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date());
    const res = await fetch(url);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });

  const refused = async (res: Response, key: string) => {
    const body = await res.text();
    assert.ok(res.status >= 400 && res.status < 500, `expected a 4xx, got ${res.status}: ${body}`);
    assert.equal(await store().stat(key), null, 'nothing is stored');
  };

  test(`${name}: a Content-MD5 other than the signed one is refused, nothing stored`, { skip: !enforces.md5 }, async () => {
    const key = freshKey();
    const signed = await store().signUpload({ key, size: content.length, md5Hex: md5Hex(content), expiresInSeconds: 600 }, new Date());
    const other = Buffer.from(content);
    other[0] = other[0]! ^ 0xff;
    await refused(await put(signed.url, { ...signed.headers, 'Content-MD5': md5Base64(other) }, content), key);
  });

  test(`${name}: a body whose digest is not the signed MD5 is refused, nothing stored`, { skip: !enforces.md5 }, async () => {
    const key = freshKey();
    const signed = await store().signUpload({ key, size: content.length, md5Hex: md5Hex(content), expiresInSeconds: 600 }, new Date());
    const other = Buffer.from(content);
    other[5] = other[5]! ^ 0xff;
    await refused(await put(signed.url, signed.headers, other), key);
  });

  test(`${name}: a body longer or shorter than the signed size is refused, nothing stored`, { skip: !enforces.length }, async () => {
    const key = freshKey();
    const signed = await store().signUpload({ key, size: content.length, md5Hex: md5Hex(content), expiresInSeconds: 600 }, new Date());
    for (const body of [Buffer.concat([content, Buffer.from('x')]), content.subarray(1)]) {
      await refused(await put(signed.url, { ...signed.headers, 'Content-MD5': md5Base64(body) }, body), key);
    }
  });

  test(`${name}: a tampered signature is refused, nothing stored`, { skip: !enforces.signature }, async () => {
    const key = freshKey();
    const signed = await store().signUpload({ key, size: content.length, md5Hex: md5Hex(content), expiresInSeconds: 600 }, new Date());
    const u = new URL(signed.url);
    const param = ['sig', 'X-Amz-Signature', 'sig'].find((p) => u.searchParams.has(p))!;
    const sig = u.searchParams.get(param)!;
    const flipped = (sig[3] === 'A' ? 'B' : 'A');
    u.searchParams.set(param, sig.slice(0, 3) + flipped + sig.slice(4));
    await refused(await put(u.toString(), signed.headers, content), key);
    // A download URL with a tampered signature is refused too.
    await upload(store(), key, content);
    const d = new URL(await store().signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date()));
    const dp = ['sig', 'X-Amz-Signature'].find((p) => d.searchParams.has(p))!;
    const ds = d.searchParams.get(dp)!;
    d.searchParams.set(dp, ds.slice(0, 3) + (ds[3] === 'A' ? 'B' : 'A') + ds.slice(4));
    const res = await fetch(d);
    assert.ok(res.status === 403 || res.status === 401, `tampered download answered ${res.status}`);
    await res.arrayBuffer();
    await store().delete(key);
  });

  test(`${name}: an expired upload URL is refused, nothing stored`, { skip: !enforces.expiry }, async () => {
    const key = freshKey();
    const past = new Date(Date.now() - 2 * 3600_000);
    const { res } = await upload(store(), key, content, { now: past, expiresInSeconds: 3600 });
    await refused(res, key);
  });

  test(`${name}: another key under the same signature is refused, nothing stored`, { skip: !enforces.signature }, async () => {
    const key = freshKey();
    const other = `${key.split('/')[0]}/another-${counter++}.e57`;
    const signed = await store().signUpload({ key, size: content.length, md5Hex: md5Hex(content), expiresInSeconds: 600 }, new Date());
    await refused(await put(otherKeyUrl(signed.url, key, other), signed.headers, content), other);
    assert.equal(await store().stat(key), null);
  });
}
