// Multipart uploads, the API 2 extension (docs/files.md "Multipart uploads", issue 30),
// served by the uploads module over the local-disk store: parts in any order and in
// parallel, the parts held listed in pages, completion that verifies every part and the
// whole file before registering the file like the single-URL flow, abort, the sweeper; and
// a refusal of its own for every bad call, with nothing half-written. PGlite by default,
// PostgreSQL with TEST_DATABASE_URL.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, ACCOUNT_ID, addMembers, advanceClock, assertProblem, createProject, emailOf, projectWorld, uuidOf, type Call, type World } from '../support/projects.ts';
import { fileRowsOf, local, md5Hex, pendingOf, storedObject } from '../support/files.ts';
import { failureBody, surfaceOf, toFailure } from '../../src/http/errors.ts';
import { api2RefParser } from '../../src/http/refs.ts';

const MiB = 1024 * 1024;
const QUOTA = 64 * MiB;
let t: TestApp;
let w: World;
let P: any;
let zone: string;

before(async () => {
  t = await testApp({ STORAGE_QUOTA_BYTES: String(QUOTA), UPLOAD_TTL: '600', UPLOAD_URL_TTL: '60' });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  zone = uuidOf(P.rootWorkzoneId);
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }] });
});
after(() => t.close());

const base = () => `${A2}/projects/${uuidOf(P.id)}/workzones/${zone}/multipart-uploads`;
const content = (size: number, seed: number) => {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) b.writeUInt32LE((Math.imul(i + 1, 2654435761) ^ seed) >>> 0, Math.min(i, size - 4));
  return b;
};
const partsOf = (bytes: Buffer, partSize: number) => {
  const out: Buffer[] = [];
  for (let o = 0; o < bytes.length; o += partSize) out.push(bytes.subarray(o, o + partSize));
  return out;
};
const composite = (parts: Buffer[]) => {
  const h = crypto.createHash('md5');
  for (const p of parts) h.update(crypto.createHash('md5').update(p).digest());
  return h.digest('hex');
};

async function start(call: Call, body: Record<string, unknown>) {
  const res = await call('POST', base(), body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; blobName: string; size: number; partSize: number; partCount: number; provider: string; expiresAt: string };
}

async function sign(call: Call, id: string, parts: { partNumber: number; md5: string }[]) {
  const res = await call('POST', `${base()}/${id}/part-urls`, { parts });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.parts as { partNumber: number; size: number; url: string; headers: Record<string, string> }[];
}

async function put(url: string, headers: Record<string, string>, body: Buffer) {
  const res = await fetch(await local(t, url), { method: 'PUT', headers, body: new Uint8Array(body) });
  return { status: res.status, text: await res.text() };
}

/** Starts an upload of `bytes` in 1 MiB parts and sends the parts named (all by default), in parallel. */
async function uploadParts(call: Call, bytes: Buffer, name: string, send?: number[]) {
  const u = await start(call, { name, extension: 'e57', size: bytes.length, partSize: MiB });
  const parts = partsOf(bytes, u.partSize);
  const numbers = send ?? parts.map((_, i) => i + 1);
  if (!numbers.length) return { u, parts };
  const signed = await sign(call, u.id, numbers.map((n) => ({ partNumber: n, md5: md5Hex(parts[n - 1]!) })));
  const sent = await Promise.all(signed.map((s) => put(s.url, s.headers, parts[s.partNumber - 1]!)));
  for (const r of sent) assert.ok(r.status < 300, r.text);
  return { u, parts };
}

describe('the flow', () => {
  test('parts sent out of order and in parallel, listed in pages, completed: the file is registered with the whole MD5 and downloads whole', async () => {
    const bytes = content(3 * MiB + 12345, 1);
    const u = await start(w.as.manager!, { name: 'Big scan', extension: 'e57', size: bytes.length, partSize: MiB });
    assert.equal(u.partSize, MiB);
    assert.equal(u.partCount, 4);
    assert.equal(u.provider, 'local');
    assert.match(u.blobName, /^[0-9a-f-]{36}\.e57$/);
    const parts = partsOf(bytes, MiB);
    const signed = await sign(w.as.manager!, u.id, [4, 2, 3, 1].map((n) => ({ partNumber: n, md5: md5Hex(parts[n - 1]!) })));
    assert.deepEqual(signed.map((s) => [s.partNumber, s.size]), [[4, 12345], [2, MiB], [3, MiB], [1, MiB]]);
    // Reserved from the start: the pending row counts the whole size.
    const pending = (await pendingOf(t, P.id)).find((p: any) => p.blobName === u.blobName);
    assert.equal(Number(pending!.size), bytes.length);

    for (const r of await Promise.all(signed.slice(0, 3).map((s) => put(s.url, s.headers, parts[s.partNumber - 1]!)))) assert.ok(r.status < 300, r.text);
    const page1 = await w.as.manager!('GET', `${base()}/${u.id}/parts?limit=2`);
    assert.equal(page1.status, 200, JSON.stringify(page1.body));
    assert.deepEqual(page1.body.parts.map((p: any) => p.partNumber), [2, 3]);
    assert.equal(page1.body.next, 3);
    const page2 = await w.as.manager!('GET', `${base()}/${u.id}/parts?after=3`);
    assert.deepEqual(page2.body, { parts: [{ partNumber: 4, size: 12345, md5: md5Hex(parts[3]!) }], next: null });

    assert.ok((await put(signed[3]!.url, signed[3]!.headers, parts[0]!)).status < 300);
    const done = await w.as.manager!('POST', `${base()}/${u.id}/complete`, { md5: md5Hex(bytes), partsMd5: composite(parts) });
    assert.equal(done.status, 201, JSON.stringify(done.body));
    assert.deepEqual({ ...done.body, id: undefined }, { name: 'Big scan', extension: 'e57', size: bytes.length, md5: md5Hex(bytes), id: undefined, blobName: u.blobName });
    assert.match(done.body.id, /^urn:svc:file:/);

    const file = await w.as.manager!('GET', `${A2}/projects/${uuidOf(P.id)}/files/${uuidOf(done.body.id)}`);
    assert.equal(file.status, 200);
    assert.equal(file.body.md5, md5Hex(bytes));
    assert.equal(file.body.size, bytes.length);
    assert.equal((await pendingOf(t, P.id)).filter((p: any) => p.blobName === u.blobName).length, 0, 'the reservation became the file');
    const blob = await t.app.inject({ method: 'GET', url: `${A2}/projects/${uuidOf(P.id)}/blobs/${u.blobName}`, headers: { authorization: `Bearer ${(await t.tokens(emailOf('manager'))).access_token}` } });
    assert.equal(blob.statusCode, 302);
    const got = Buffer.from(await (await fetch(await local(t, blob.headers.location as string))).arrayBuffer());
    assert.equal(md5Hex(got), md5Hex(bytes));
  });

  test('a completion without the whole MD5 on the local disk: the store computes it from the bytes, and the file is registered with it', async () => {
    const bytes = content(2 * MiB + 3, 21);
    const { u, parts } = await uploadParts(w.as.manager!, bytes, 'No whole MD5');
    const done = await w.as.manager!('POST', `${base()}/${u.id}/complete`, { partsMd5: composite(parts) });
    assert.equal(done.status, 201, JSON.stringify(done.body));
    assert.equal(done.body.md5, md5Hex(bytes));
    const row = (await fileRowsOf(t, P.id)).find((f: any) => f.blobName === u.blobName);
    assert.equal(row?.md5, md5Hex(bytes));
  });

  test('a second completion: 409 upload-already-completed naming the file, nothing registered twice', async () => {
    const bytes = content(MiB + 10, 2);
    const { u, parts } = await uploadParts(w.as.manager!, bytes, 'Twice');
    const body = { md5: md5Hex(bytes), partsMd5: composite(parts) };
    const first = await w.as.manager!('POST', `${base()}/${u.id}/complete`, body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = assertProblem(await w.as.manager!('POST', `${base()}/${u.id}/complete`, body), 409, 'upload-already-completed');
    assert.equal(again.errorValues.fileId, first.body.id);
    assert.equal(again.errorValues.blobName, u.blobName);
    assert.equal((await fileRowsOf(t, P.id)).filter((f: any) => f.blobName === u.blobName).length, 1);
    assertProblem(await w.as.manager!('DELETE', `${base()}/${u.id}`), 409, 'upload-already-completed');
  });

  test('abort: 204, the parts removed, the reservation released; the upload is then unknown', async () => {
    const { u } = await uploadParts(w.as.manager!, content(2 * MiB, 3), 'Aborted');
    const res = await w.as.manager!('DELETE', `${base()}/${u.id}`);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.equal((await pendingOf(t, P.id)).filter((p: any) => p.blobName === u.blobName).length, 0);
    assertProblem(await w.as.manager!('GET', `${base()}/${u.id}/parts`), 404, 'upload-not-found');
    assertProblem(await w.as.manager!('POST', `${base()}/${u.id}/complete`, { md5: '0'.repeat(32), partsMd5: '0'.repeat(32) }), 404, 'upload-not-found');
    assert.equal(await storedObject(t, P.id, u.blobName), null);
  });
});

describe('refusals', () => {
  test('no token: 401 on every call', async () => {
    for (const [method, url] of [['POST', base()], ['POST', `${base()}/x/part-urls`], ['GET', `${base()}/x/parts`], ['POST', `${base()}/x/complete`], ['DELETE', `${base()}/x`]] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      assert.equal(res.statusCode, 401, `${method} ${url}: ${res.body}`);
    }
  });

  test('a Viewer: 403 create-file-forbidden before the body is read (a malformed body gets the 403, not a 400); nothing recorded', async () => {
    const token = (await t.tokens(emailOf('viewer'))).access_token;
    const before = (await pendingOf(t, P.id)).length;
    const res = await t.app.inject({ method: 'POST', url: base(), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{not json' });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().errorCode, 'create-file-forbidden');
    assert.deepEqual(res.json().errorValues.requiredPermissions, ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write']);
    assertProblem(await w.as.viewer!('POST', base(), { name: 'x', extension: 'pdf', size: 10 }), 403, 'create-file-forbidden');
    assert.equal((await pendingOf(t, P.id)).length, before);
  });

  test('someone else\'s upload does not exist for him: 404 upload-not-found on every call, before his body is read', async () => {
    const { u } = await uploadParts(w.as.manager!, content(MiB, 4), 'Mine', []);
    const other = w.as.projectOwner!;
    const token = (await t.tokens(emailOf('projectOwner'))).access_token;
    const raw = await t.app.inject({ method: 'POST', url: `${base()}/${u.id}/part-urls`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{not json' });
    assert.equal(raw.statusCode, 404, raw.body);
    assert.equal(raw.json().errorCode, 'upload-not-found');
    assertProblem(await other('GET', `${base()}/${u.id}/parts`), 404, 'upload-not-found');
    assertProblem(await other('POST', `${base()}/${u.id}/complete`, { md5: '0'.repeat(32), partsMd5: '0'.repeat(32) }), 404, 'upload-not-found');
    assertProblem(await other('DELETE', `${base()}/${u.id}`), 404, 'upload-not-found');
    assertProblem(await other('GET', `${base()}/not-a-uuid/parts`), 404, 'upload-not-found');
    // Still his: the owner aborts it.
    assert.equal((await w.as.manager!('DELETE', `${base()}/${u.id}`)).status, 204);
  });

  test('a part number outside 1..N: 400 part-number-out-of-range; a bad part MD5: 400 invalid-input', async () => {
    const u = await start(w.as.manager!, { name: 'Range', extension: 'e57', size: 2 * MiB + 1, partSize: MiB });
    const md5 = md5Hex('x');
    for (const n of [0, 4, -1]) {
      const res = assertProblem(await w.as.manager!('POST', `${base()}/${u.id}/part-urls`, { parts: [{ partNumber: n, md5 }] }), 400, 'part-number-out-of-range');
      assert.equal(res.errorValues.partCount, 3);
    }
    assertProblem(await w.as.manager!('POST', `${base()}/${u.id}/part-urls`, { parts: [{ partNumber: 1, md5: 'nope' }] }), 400, 'invalid-input');
    assert.equal((await w.as.manager!('DELETE', `${base()}/${u.id}`)).status, 204);
  });

  test('a part of another size or MD5 than signed is refused by the store; completion with parts missing: 400 parts-missing; nothing registered', async () => {
    const bytes = content(2 * MiB + 100, 5);
    const { u, parts } = await uploadParts(w.as.manager!, bytes, 'Short', [1]);
    const [s2, s3] = await sign(w.as.manager!, u.id, [{ partNumber: 2, md5: md5Hex(parts[1]!) }, { partNumber: 3, md5: md5Hex(parts[2]!) }]);
    // Part 2 one byte short (its Content-MD5 its own, so only the length is wrong).
    const short = parts[1]!.subarray(1);
    const shortPut = await put(s2!.url, { ...s2!.headers, 'content-md5': crypto.createHash('md5').update(short).digest('base64') }, short);
    assert.equal(shortPut.status, 400, shortPut.text);
    // Part 3 with other bytes of the right length, under the signed MD5.
    const other = Buffer.from(parts[2]!);
    other[0] = other[0]! ^ 0xff;
    const badPut = await put(s3!.url, s3!.headers, other);
    assert.equal(badPut.status, 400, badPut.text);

    const missing = assertProblem(await w.as.manager!('POST', `${base()}/${u.id}/complete`, { md5: md5Hex(bytes), partsMd5: composite(parts) }), 400, 'parts-missing');
    assert.deepEqual(missing.errorValues.missing, [2, 3]);
    assert.equal(missing.errorValues.missingCount, 2);
    assert.equal((await fileRowsOf(t, P.id)).filter((f: any) => f.blobName === u.blobName).length, 0);
    assert.equal(await storedObject(t, P.id, u.blobName), null);
    assert.equal((await w.as.manager!('DELETE', `${base()}/${u.id}`)).status, 204);
  });

  test('a whole MD5 or a composite that is not the parts\': 400 multipart-checksum-mismatch, nothing registered; the right ones then complete', async () => {
    const bytes = content(2 * MiB, 6);
    const { u, parts } = await uploadParts(w.as.manager!, bytes, 'Checked');
    const url = `${base()}/${u.id}/complete`;
    assertProblem(await w.as.manager!('POST', url, { md5: md5Hex('other'), partsMd5: composite(parts) }), 400, 'multipart-checksum-mismatch');
    assertProblem(await w.as.manager!('POST', url, { md5: md5Hex(bytes), partsMd5: md5Hex('other') }), 400, 'multipart-checksum-mismatch');
    assertProblem(await w.as.manager!('POST', url, { md5: 'zz', partsMd5: composite(parts) }), 400, 'invalid-input');
    assert.equal((await fileRowsOf(t, P.id)).filter((f: any) => f.blobName === u.blobName).length, 0);
    assert.equal(await storedObject(t, P.id, u.blobName), null);
    assert.equal((await w.as.manager!('POST', url, { md5: md5Hex(bytes), partsMd5: composite(parts) })).status, 201);
  });

  test('bad starts: 400 invalid-input (size 0, over 5 TiB, a bad name); the storage quota is reserved for the whole size, and released by abort', async () => {
    assertProblem(await w.as.manager!('POST', base(), { name: 'x', extension: 'e57', size: 0 }), 400, 'invalid-input');
    assertProblem(await w.as.manager!('POST', base(), { name: 'x', extension: 'e57', size: 5 * 1024 ** 4 + 1 }), 400, 'invalid-input');
    assertProblem(await w.as.manager!('POST', base(), { name: 'a/b', extension: 'e57', size: 10 }), 400, 'invalid-input');
    const before = (await pendingOf(t, P.id)).length;
    const over = assertProblem(await w.as.manager!('POST', base(), { name: 'Huge', extension: 'pdf', size: QUOTA + 1 }), 400, 'storage-quota-exceeded');
    assert.equal(over.errorValues.quotaBytes, QUOTA);
    assert.equal((await pendingOf(t, P.id)).length, before, 'nothing recorded');
    const big = await start(w.as.manager!, { name: 'Half', extension: 'pdf', size: QUOTA / 2 + MiB });
    assertProblem(await w.as.manager!('POST', base(), { name: 'Other half', extension: 'pdf', size: QUOTA / 2 + MiB }), 400, 'storage-quota-exceeded');
    assert.equal((await w.as.manager!('DELETE', `${base()}/${big.id}`)).status, 204);
    const again = await start(w.as.manager!, { name: 'Other half', extension: 'pdf', size: QUOTA / 2 + MiB });
    assert.equal((await w.as.manager!('DELETE', `${base()}/${again.id}`)).status, 204);
  });
});

describe('expiry', () => {
  test('past its time: completion 400 upload-expired; the sweeper aborts it (parts gone, reservation released), then drops completed records', async () => {
    const bytes = content(MiB + 5, 7);
    const { u, parts } = await uploadParts(w.as.manager!, bytes, 'Abandoned');
    const done = await uploadParts(w.as.manager!, content(MiB, 8), 'Done');
    assert.equal((await w.as.manager!('POST', `${base()}/${done.u.id}/complete`, { md5: md5Hex(done.parts[0]!), partsMd5: composite(done.parts) })).status, 201);
    const first = await t.core.multipartSweeper.run();
    assert.deepEqual(first, { ran: true, aborted: 0, dropped: 0 });

    const record = await t.core.store.repos.multipartUploads.byId(uuidOf(P.id), u.id);
    assert.ok(record);
    await advanceClock(t, 601);
    assertProblem(await w.as.manager!('POST', `${base()}/${u.id}/complete`, { md5: md5Hex(bytes), partsMd5: composite(parts) }), 400, 'upload-expired');
    const swept = await t.core.multipartSweeper.run();
    assert.ok(swept.ran);
    assert.ok(swept.aborted >= 1 && swept.dropped >= 1, JSON.stringify(swept));
    assert.equal((await pendingOf(t, P.id)).filter((p: any) => p.blobName === u.blobName).length, 0);
    assertProblem(await w.as.manager!('GET', `${base()}/${u.id}/parts`), 404, 'upload-not-found');
    // The store no longer knows it either.
    await assert.rejects(t.core.objectStore.listParts({ key: `${uuidOf(P.id)}/${u.blobName}`, uploadId: record.storeUploadId, size: u.size, partSize: u.partSize }), /No such multipart upload/);
    assertProblem(await w.as.manager!('POST', `${base()}/${done.u.id}/complete`, { md5: md5Hex(done.parts[0]!), partsMd5: composite(done.parts) }), 404, 'upload-not-found');
  });

  test('a permanently deleted project\'s unfinished upload: the next sweep aborts it at the store (its parts go), before its expiry', async () => {
    const kept = { P, zone };
    const doomed = await createProject(w.as.projectOwner!, { name: 'Doomed' });
    await addMembers(w.as.projectOwner!, doomed.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
    // The helpers above address P's root zone: pointed at the doomed project for this test.
    [P, zone] = [doomed, uuidOf(doomed.rootWorkzoneId)];
    try {
      const { u } = await uploadParts(w.as.manager!, content(MiB + 9, 9), 'Orphan');
      const record = (await t.core.store.repos.multipartUploads.byId(uuidOf(doomed.id), u.id))!;
      const project = `${A2}/projects/${uuidOf(doomed.id)}`;
      assert.equal((await w.as.projectOwner!('DELETE', project)).status, 204);
      assert.equal((await w.as.projectOwner!('DELETE', `${project}?permanent=true`)).status, 204);
      const swept = await t.core.multipartSweeper.run();
      assert.ok(swept.ran && swept.aborted >= 1, JSON.stringify(swept));
      assert.equal(await t.core.store.repos.multipartUploads.byId(uuidOf(doomed.id), u.id), null);
      await assert.rejects(t.core.objectStore.listParts({ key: `${uuidOf(doomed.id)}/${u.blobName}`, uploadId: record.storeUploadId, size: u.size, partSize: u.partSize }), /No such multipart upload/);
    } finally {
      [P, zone] = [kept.P, kept.zone];
    }
  });
});

describe("API 1's error format (API 1 has no multipart route: the shared renderer, docs/files.md)", () => {
  const ref = api2RefParser('svc');
  const at = (id: string) => ({ account: ref('account', ACCOUNT_ID), project: ref('project', uuidOf(P.id)), workzone: ref('workzone', zone), id });
  /** The same refusal twice: over API 2 (HTTP), and thrown by the use case and rendered for API 1 as the error handler would. */
  async function bothFormats(status: number, code: string, http: () => Promise<any>, useCase: () => Promise<unknown>) {
    const problem = assertProblem(await http(), status, code);
    let thrown: unknown;
    try {
      await useCase();
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown, `the use case did not refuse (${code})`);
    const f = toFailure(thrown);
    const { type, body } = failureBody('api1', f);
    assert.equal(f.status, status);
    assert.match(type, /^application\/json/);
    assert.deepEqual(body, { code, message: problem.detail }, 'API 1 carries the same code and message');
    return { problem, message: body.message as string };
  }

  test('every multipart refusal (part number out of range, parts missing, checksum mismatch, a second completion, after expiry) renders in API 1 as {code, message} with its status, and the message alone says what errorValues says', async () => {
    const actor = { userId: w.ids.manager! };
    const uploads = t.core.multipartUploads;
    const md5 = md5Hex('x');

    const range = await start(w.as.manager!, { name: 'Range 1', extension: 'e57', size: 2 * MiB + 1, partSize: MiB });
    const out = await bothFormats(400, 'part-number-out-of-range',
      () => w.as.manager!('POST', `${base()}/${range.id}/part-urls`, { parts: [{ partNumber: 4, md5 }] }),
      () => uploads.signParts(actor, at(range.id), [{ partNumber: 4, md5 }]));
    assert.match(out.message, /from 1 to 3/);

    const bytes = content(3 * MiB + 7, 11);
    const partial = await uploadParts(w.as.manager!, bytes, 'Partial 1', [1]);
    const completion = { md5: md5Hex(bytes), partsMd5: composite(partial.parts) };
    const missing = await bothFormats(400, 'parts-missing',
      () => w.as.manager!('POST', `${base()}/${partial.u.id}/complete`, completion),
      () => uploads.complete(actor, at(partial.u.id), completion));
    assert.deepEqual(missing.problem.errorValues.missing, [2, 3, 4]);
    assert.match(missing.message, /3 of 4 parts .*missing: 2, 3, 4\)$/);

    const whole = await uploadParts(w.as.manager!, bytes, 'Whole 1');
    const wrong = { md5: md5Hex(bytes), partsMd5: md5Hex('other') };
    const mismatch = await bothFormats(400, 'multipart-checksum-mismatch',
      () => w.as.manager!('POST', `${base()}/${whole.u.id}/complete`, wrong),
      () => uploads.complete(actor, at(whole.u.id), wrong));
    assert.ok(mismatch.message.includes(composite(whole.parts)), mismatch.message);

    const right = { md5: md5Hex(bytes), partsMd5: composite(whole.parts) };
    const done = await w.as.manager!('POST', `${base()}/${whole.u.id}/complete`, right);
    assert.equal(done.status, 201, JSON.stringify(done.body));
    const twice = await bothFormats(409, 'upload-already-completed',
      () => w.as.manager!('POST', `${base()}/${whole.u.id}/complete`, right),
      () => uploads.complete(actor, at(whole.u.id), right));
    assert.ok(twice.message.includes(uuidOf(done.body.id)) && twice.message.includes(whole.u.blobName), twice.message);

    const late = await uploadParts(w.as.manager!, content(MiB, 12), 'Late 1');
    await advanceClock(t, 601);
    const lateCompletion = { md5: md5Hex(late.parts[0]!), partsMd5: composite(late.parts) };
    const expiredOne = await bothFormats(400, 'upload-expired',
      () => w.as.manager!('POST', `${base()}/${late.u.id}/complete`, lateCompletion),
      () => uploads.complete(actor, at(late.u.id), lateCompletion));
    assert.ok(expiredOne.message.includes(late.u.blobName), expiredOne.message);
    for (const id of [range.id, partial.u.id]) assert.ok([204, 400].includes((await w.as.manager!('DELETE', `${base()}/${id}`)).status));
  });

  test('a part of the wrong size or checksum is refused by the store at its own URL, outside both APIs: no API 1 answer applies', async () => {
    const u = await start(w.as.manager!, { name: 'Store 1', extension: 'e57', size: MiB, partSize: MiB });
    const [signed] = await sign(w.as.manager!, u.id, [{ partNumber: 1, md5: md5Hex(content(MiB, 13)) }]);
    const url = new URL(await local(t, signed!.url));
    assert.equal(surfaceOf(url.pathname + url.search), 'other');
    const bad = await put(signed!.url, signed!.headers, content(MiB, 14));
    assert.equal(bad.status, 400, bad.text);
    assert.equal(JSON.parse(bad.text).errorCode, 'bad-digest');
    assert.equal((await w.as.manager!('DELETE', `${base()}/${u.id}`)).status, 204);
  });
});
