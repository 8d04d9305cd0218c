// The multipart half of the ObjectStore contract (docs/storage.md "Multipart uploads"), run
// against every adapter with small parts (the store's minimum: 1 MiB on local disk and
// Azure, 5 MiB on S3): create → sign → real HTTP PUTs of parts (out of order, in
// parallel) → list → complete → the object read back; and the refusals, each leaving no
// object: a part of another size or digest, parts missing, a second completion; abort,
// and the sweeper's abort by id from a store that never saw the upload.
// A rule an emulator does not enforce at the part's PUT (s3rver checks no length or MD5;
// a SAS binds no length) is then refused at completion, which this suite checks instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { DomainError } from '../../src/core/errors.ts';
import { partsMd5Hex, planPartSize } from '../../src/core/ports/multipart-plan.ts';
import type { MultipartUpload, ObjectStore, SignedPart } from '../../src/core/ports/object-store.ts';
import { freshKey, md5Hex, type StoreUnderTest } from './contract.ts';

export interface MultipartEnforcement {
  /** A part's body of another length than signed is refused at its PUT (else it is held, and refused at completion). */
  partLength: boolean;
  /** A part's body whose digest is not the signed MD5 is refused at its PUT (else refused at completion by the composite). */
  partMd5: boolean;
  /** Listing an upload the store does not know answers 404 `upload-not-found` (Azure knows no upload without blocks: none). */
  unknownUpload: boolean;
  /** The store hashes the assembled bytes (local disk): a completion may leave the whole MD5 to it. */
  computesWholeMd5: boolean;
}

export interface MultipartStoreUnderTest extends StoreUnderTest {
  /** Another store on the same storage that never saw the uploads (the sweeper after a restart). */
  reopen(): Promise<ObjectStore>;
}

/** A file of `parts` parts of the store's smallest size, the last one shorter. */
function fileFor(store: ObjectStore, parts: number): { body: Buffer; partSize: number } {
  const partSize = planPartSize(store.multipartLimits.minPartBytes * parts, store.multipartLimits, store.multipartLimits.minPartBytes);
  return { body: crypto.randomBytes(partSize * (parts - 1) + Math.floor(partSize / 3) + 17), partSize };
}

const partOf = (u: MultipartUpload, body: Buffer, n: number) => body.subarray((n - 1) * u.partSize, Math.min(n * u.partSize, u.size));
const partMd5s = (u: MultipartUpload, body: Buffer) =>
  Array.from({ length: Math.ceil(u.size / u.partSize) }, (_, i) => md5Hex(partOf(u, body, i + 1)));

async function putPart(signed: SignedPart, bytes: Buffer, headers: Record<string, string> = signed.headers): Promise<Response> {
  const res = await fetch(signed.url, { method: 'PUT', headers, body: new Uint8Array(bytes) });
  await res.arrayBuffer();
  return res;
}

async function refusedWith(call: Promise<unknown>, code: string): Promise<DomainError> {
  let caught: unknown;
  await assert.rejects(call, (e: unknown) => {
    caught = e;
    return e instanceof DomainError && e.code === code;
  }, code);
  return caught as DomainError;
}

export function multipartContract(name: string, open: () => Promise<MultipartStoreUnderTest>, enforces: MultipartEnforcement) {
  let sut: MultipartStoreUnderTest;
  const store = () => sut.store;

  test.before(async () => {
    sut = await open();
  });
  test.after(async () => {
    await sut?.close();
  });

  /** Creates an upload of `body` and signs every part. */
  async function started(body: Buffer, partSize: number) {
    const key = freshKey();
    const upload = await store().createMultipart({ key, size: body.length, partSize });
    assert.deepEqual({ key: upload.key, size: upload.size, partSize: upload.partSize }, { key, size: body.length, partSize });
    const md5s = partMd5s(upload, body);
    const signed = await store().signParts(
      { upload, parts: md5s.map((md5, i) => ({ partNumber: i + 1, md5Hex: md5 })), expiresInSeconds: 600 }, new Date(),
    );
    return { key, upload, md5s, signed };
  }

  test(`${name}: multipart: parts put out of order and in parallel, listed, completed; the object is the file`, async () => {
    const { body, partSize } = fileFor(store(), 3);
    const { key, upload, md5s, signed } = await started(body, partSize);
    assert.deepEqual(signed.map((s) => [s.partNumber, s.size]), [[1, partSize], [2, partSize], [3, body.length - 2 * partSize]]);
    assert.ok(signed.every((s) => s.headers['Content-MD5'] === Buffer.from(md5s[s.partNumber - 1]!, 'hex').toString('base64')));
    // 3 first, then 1 and 2 at once.
    assert.ok((await putPart(signed[2]!, partOf(upload, body, 3))).ok);
    const both = await Promise.all([1, 2].map((n) => putPart(signed[n - 1]!, partOf(upload, body, n))));
    assert.ok(both.every((r) => r.ok), both.map((r) => r.status).join());
    const listed = await store().listParts(upload);
    assert.deepEqual(listed, md5s.map((md5, i) => ({ partNumber: i + 1, size: signed[i]!.size, md5Hex: md5 })));
    assert.equal(await store().stat(key), null, 'nothing is visible before completion');

    const done = await store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) });
    assert.equal(done.size, body.length);
    assert.equal(done.partCount, 3);
    assert.equal(done.partsMd5Hex, partsMd5Hex(md5s));
    if (done.md5Hex !== null) assert.equal(done.md5Hex, md5Hex(body));
    const info = await store().stat(key);
    assert.equal(info?.size, body.length);
    if (info?.md5Hex) assert.equal(info.md5Hex, md5Hex(body));
    const got = await fetch(await store().signDownload({ key, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date()));
    assert.equal(got.status, 200);
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(body), 'the bytes read back are the file');
    await store().delete(key);
  });

  test(`${name}: multipart: the parts held are listed for a resume, which sends only the others`, async () => {
    const { body, partSize } = fileFor(store(), 4);
    const { key, upload, md5s, signed } = await started(body, partSize);
    for (const n of [1, 3]) assert.ok((await putPart(signed[n - 1]!, partOf(upload, body, n))).ok);
    const held = await store().listParts(upload);
    assert.deepEqual(held.map((p) => [p.partNumber, p.md5Hex]), [[1, md5s[0]], [3, md5s[2]]]);
    const missing = [1, 2, 3, 4].filter((n) => !held.some((p) => p.partNumber === n));
    // A resumed client signs again (new URLs) only what is missing.
    const again = await store().signParts({ upload, parts: missing.map((n) => ({ partNumber: n, md5Hex: md5s[n - 1]! })), expiresInSeconds: 600 }, new Date());
    for (const s of again) assert.ok((await putPart(s, partOf(upload, body, s.partNumber))).ok);
    await store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) });
    assert.equal((await store().stat(key))?.size, body.length);
    await store().delete(key);
  });

  test(`${name}: multipart: a part of another size than signed is refused, nothing published`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { key, upload, md5s, signed } = await started(body, partSize);
    const short = partOf(upload, body, 1).subarray(1);
    const res = await putPart(signed[0]!, short, { ...signed[0]!.headers, 'Content-MD5': crypto.createHash('md5').update(short).digest('base64') });
    assert.ok((await putPart(signed[1]!, partOf(upload, body, 2))).ok);
    if (enforces.partLength) {
      assert.ok(res.status >= 400 && res.status < 500, `answered ${res.status}`);
      assert.deepEqual((await store().listParts(upload)).map((p) => p.partNumber), [2]);
      await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body) }), 'parts-missing');
    } else {
      // Held as sent: completion refuses its size.
      const e = await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) }), 'part-mismatch');
      assert.equal(e.values?.partNumber, 1);
    }
    assert.equal(await store().stat(key), null);
    await store().abortMultipart(upload);
  });

  test(`${name}: multipart: a part whose bytes are not its signed MD5 is refused, nothing published`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { key, upload, md5s, signed } = await started(body, partSize);
    const corrupt = Buffer.from(partOf(upload, body, 1));
    corrupt[100] = corrupt[100]! ^ 0xff;
    const res = await putPart(signed[0]!, corrupt);
    assert.ok((await putPart(signed[1]!, partOf(upload, body, 2))).ok);
    if (enforces.partMd5) {
      assert.ok(res.status >= 400 && res.status < 500, `answered ${res.status}`);
      assert.deepEqual((await store().listParts(upload)).map((p) => p.partNumber), [2]);
    } else {
      await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) }), 'multipart-checksum-mismatch');
    }
    assert.equal(await store().stat(key), null);
    await store().abortMultipart(upload);
  });

  test(`${name}: multipart: completion with parts missing is refused (the first missing named), nothing published`, async () => {
    const { body, partSize } = fileFor(store(), 3);
    const { key, upload, md5s, signed } = await started(body, partSize);
    for (const n of [1, 3]) assert.ok((await putPart(signed[n - 1]!, partOf(upload, body, n))).ok);
    const e = await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) }), 'parts-missing');
    assert.deepEqual(e.values?.missing, [2]);
    assert.equal(await store().stat(key), null);
    // The upload is still there: the missing part, then completion.
    assert.ok((await putPart(signed[1]!, partOf(upload, body, 2))).ok);
    await store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) });
    await store().delete(key);
  });

  test(`${name}: multipart: a second completion is refused (409 upload-already-completed), the object stays`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { key, upload, md5s, signed } = await started(body, partSize);
    for (const s of signed) assert.ok((await putPart(s, partOf(upload, body, s.partNumber))).ok);
    await store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) });
    const e = await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) }), 'upload-already-completed');
    assert.equal(e.status, 409);
    assert.equal((await store().stat(key))?.size, body.length);
    await store().delete(key);
  });

  test(`${name}: multipart: a composite or whole MD5 other than the parts' is refused, nothing published`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { key, upload, md5s, signed } = await started(body, partSize);
    for (const s of signed) assert.ok((await putPart(s, partOf(upload, body, s.partNumber))).ok);
    await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex([...md5s].reverse()) }), 'multipart-checksum-mismatch');
    assert.equal(await store().stat(key), null);
    await store().abortMultipart(upload);
  });

  test(`${name}: multipart: a completion without the whole MD5: computed from the bytes where the store can, else refused (400 invalid-input) with nothing published`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { key, upload, md5s, signed } = await started(body, partSize);
    for (const s of signed) assert.ok((await putPart(s, partOf(upload, body, s.partNumber))).ok);
    if (enforces.computesWholeMd5) {
      const done = await store().completeMultipart({ upload, partsMd5Hex: partsMd5Hex(md5s) });
      assert.equal(done.md5Hex, md5Hex(body));
      assert.equal((await store().stat(key))?.md5Hex, md5Hex(body));
    } else {
      await refusedWith(store().completeMultipart({ upload, partsMd5Hex: partsMd5Hex(md5s) }), 'invalid-input');
      assert.equal(await store().stat(key), null);
      await store().completeMultipart({ upload, md5Hex: md5Hex(body), partsMd5Hex: partsMd5Hex(md5s) });
    }
    assert.equal((await store().stat(key))?.size, body.length);
    await store().delete(key);
  });

  test(`${name}: multipart: part numbers outside 1..N are refused at signing`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { upload } = await started(body, partSize);
    for (const partNumber of [0, 3, 1.5]) {
      await refusedWith(store().signParts({ upload, parts: [{ partNumber, md5Hex: md5Hex(body) }], expiresInSeconds: 600 }, new Date()), 'part-number-out-of-range');
    }
    await store().abortMultipart(upload);
  });

  const gone = async (s: ObjectStore, upload: MultipartUpload) => {
    if (enforces.unknownUpload) await refusedWith(s.listParts(upload), 'upload-not-found');
    else assert.deepEqual(await s.listParts(upload), []);
  };

  test(`${name}: multipart: abort removes the parts held; aborting again is no error`, async () => {
    const { body, partSize } = fileFor(store(), 3);
    const { key, upload, signed } = await started(body, partSize);
    for (const n of [1, 2]) assert.ok((await putPart(signed[n - 1]!, partOf(upload, body, n))).ok);
    assert.equal((await store().listParts(upload)).length, 2);
    await store().abortMultipart(upload);
    await gone(store(), upload);
    await store().abortMultipart(upload);
    assert.equal(await store().stat(key), null);
    await refusedWith(store().completeMultipart({ upload, md5Hex: md5Hex(body) }), enforces.unknownUpload ? 'upload-not-found' : 'parts-missing');
  });

  test(`${name}: multipart: the sweeper's hook aborts an abandoned upload by key and id alone, from another store instance`, async () => {
    const { body, partSize } = fileFor(store(), 2);
    const { upload, signed } = await started(body, partSize);
    assert.ok((await putPart(signed[0]!, partOf(upload, body, 1))).ok);
    const other = await sut.reopen();
    try {
      await other.abortMultipart({ key: upload.key, uploadId: upload.uploadId });
      await gone(other, upload);
      await gone(store(), upload);
    } finally {
      await other.close?.();
    }
  });
}
