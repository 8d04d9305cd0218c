// Files through API 2 and API 1 (CONTRACT §6 files, §7; spec "File upload flow"): the
// three steps over the local-disk store, registration's strictness (each refusal records
// nothing), idempotence, capacities at sign and at register, listing by category,
// rename, delete, transformation, downloads through the 302, the project cover, and the
// vendor's response schemas.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, SUB_B, advanceClock, assertApi1Error, assertProblem, caller, createProject, createZone, emailOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import {
  bulkUrl, bytes, fileRowsOf, filesUrl, getSigned, item, md5B64, md5Hex, pendingOf, pngBytes, putSigned, sign, storedObject, upload,
} from '../support/files.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';
import { blobKey } from '../../src/core/ports/object-store.ts';

let t: TestApp;
let w: World;
let vendor: VendorValidator | null = null;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  if (vendorSpecAvailable()) {
    vendor = loadVendorValidator({
      patch: withOurUrnNamespace, // CONTRACT §2: the URN namespace is ours (svc)
    });
  }
});
after(() => t.close());

const conforms = (operationId: string, status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId} ${status} does not match the vendor schema:\n${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 800)}`);
};

const scan = (name = 'Scan 1', n = 1000, seed = 1) => ({ name, extension: 'e57', content: bytes(n, seed) });
const doc = (name = 'Report', n = 200, seed = 2) => ({ name, extension: 'pdf', content: bytes(n, seed) });

async function freshProject(fields: Record<string, unknown> = {}) {
  const p = await createProject(w.as.projectOwner!, fields);
  return { p, root: p.rootWorkzoneId as string };
}

describe('formats', () => {
  test('GET /values/formats lists extensions with their format id and category', async () => {
    const res = await w.as.viewer!('GET', '/api/2/values/formats');
    assert.equal(res.status, 200);
    conforms('listFormats', 200, res.body);
    const e57 = res.body.find((f: any) => f.extension === 'e57');
    assert.equal(e57.categoryType, 'scan');
    assert.equal(typeof e57.id, 'number');
    assert.equal(res.body.find((f: any) => f.extension === 'ifc').categoryType, 'model');
    assert.equal(res.body.find((f: any) => f.extension === 'idd').categoryType, 'geoImage');
    const ids = res.body.map((f: any) => f.id);
    assert.equal(new Set(ids).size, ids.length, 'format ids are unique');
  });
});

describe('the three steps', () => {
  test('sign answers a URL and a blob name per file and records a pending upload; PUT then register creates the file', async () => {
    const { p, root } = await freshProject();
    const s = scan();
    const signed = await w.as.projectOwner!('POST', bulkUrl(p.id, root), [item(s)]);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    conforms('signUploadURL', 200, signed.body);
    assert.equal(signed.body.provider, 'local');
    assert.equal(signed.body.expiresIn, 3600);
    const f = signed.body.files[0];
    assert.deepEqual({ name: f.name, extension: f.extension, size: f.size, md5: f.md5 }, item(s));
    assert.match(f.blobName, /^[0-9a-f-]{36}\.e57$/);
    assert.equal((await pendingOf(t, p.id)).length, 1);

    const put = await putSigned(t, f.url, s.content);
    assert.ok(put.statusCode < 300, put.body);
    const reg = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: f.blobName }]);
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    conforms('registerFiles', 200, reg.body);
    assert.equal(reg.body.length, 1);
    assert.match(reg.body[0].id, /^urn:svc:file:[0-9a-f-]{36}$/);
    assert.equal(reg.body[0].blobName, f.blobName);
    assert.equal((await pendingOf(t, p.id)).length, 0, 'the pending row is consumed');

    const list = await w.as.projectOwner!('GET', filesUrl(p.id));
    assert.equal(list.status, 200);
    conforms('getFiles', 200, list.body);
    assert.equal(list.body.length, 1);
    const file = list.body[0];
    assert.equal(file.id, reg.body[0].id);
    assert.equal(file.type, 'scan');
    assert.equal(file.formatId, 'urn:svc:format:1');
    assert.equal(file.size, s.content.length);
    assert.equal(file.workzoneId, root);
    assert.deepEqual(file.translation, { x: 0, y: 0, z: 0 });
    for (const ref of [file.id, uuidOf(file.id), file.api1Id]) {
      const got = await w.as.viewer!('GET', `${filesUrl(p.id)}/${ref}`);
      // the viewer is not a member of this fresh project
      assert.equal(got.status, 403);
      const own = await w.as.projectOwner!('GET', `${filesUrl(p.id)}/${ref}`);
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.id, file.id);
    }
  });

  test('registering the same blob twice answers the same file (PUT, then POST with blobName)', async () => {
    const { p, root } = await freshProject();
    const s = scan('Twice');
    const [first] = await upload(t, w.as.projectOwner!, p.id, root, [s]);
    const again = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: first!.blobName }]);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body[0].id, first!.id);
    const viaPost = await w.as.projectOwner!('POST', bulkUrl(p.id, root), [{ ...item(s), blobName: first!.blobName }]);
    assert.equal(viaPost.status, 200, JSON.stringify(viaPost.body));
    assert.equal(viaPost.body[0].id, first!.id);
    assert.equal((await fileRowsOf(t, p.id)).length, 1);
  });

  test('register without blobName matches the signed upload by name, extension, size and MD5', async () => {
    const { p, root } = await freshProject();
    const s = doc('Matched');
    const signed = await sign(w.as.projectOwner!, p.id, root, [s]);
    await putSigned(t, signed.files[0]!.url, s.content);
    const reg = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [item(s)]);
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    assert.equal(reg.body[0].blobName, signed.files[0]!.blobName);
  });

  test('several files register in one call', async () => {
    const { p, root } = await freshProject();
    const out = await upload(t, w.as.projectOwner!, p.id, root, [scan('A', 300, 3), doc('B', 100, 4), { name: 'C', extension: 'ifc', content: bytes(50, 5) }]);
    assert.equal(out.length, 3);
    assert.equal((await fileRowsOf(t, p.id)).length, 3);
  });
});

describe('registration is strict: each refusal records nothing', () => {
  async function signedScan() {
    const { p, root } = await freshProject();
    const s = scan('Strict', 800, 9);
    const signed = await sign(w.as.projectOwner!, p.id, root, [s]);
    return { p, root, s, f: signed.files[0]! };
  }
  async function nothingRecorded(p: any, blobName: string) {
    assert.equal((await fileRowsOf(t, p.id)).length, 0, 'no file row');
    const list = await w.as.projectOwner!('GET', filesUrl(p.id));
    assert.deepEqual(list.body, []);
    assert.equal(await storedObject(t, p.id, blobName).then((o) => o?.size ?? null) !== undefined, true);
  }

  test('an object never uploaded: 400 blob-not-uploaded', async () => {
    const { p, root, s, f } = await signedScan();
    const res = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: f.blobName }]);
    assertProblem(res, 400, 'blob-not-uploaded');
    await nothingRecorded(p, f.blobName);
    assert.equal((await pendingOf(t, p.id)).length, 1, 'the pending upload stays for a later PUT');
  });

  test('a PUT with the wrong MD5 is refused by the store, and registration then answers 400', async () => {
    const { p, root, s, f } = await signedScan();
    const other = bytes(s.content.length, 77);
    const put = await putSigned(t, f.url, other, { 'content-md5': md5B64(other) });
    assert.ok(put.statusCode >= 400 && put.statusCode < 500, `PUT ${put.statusCode}`);
    assert.equal(await storedObject(t, p.id, f.blobName), null);
    const res = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: f.blobName }]);
    assertProblem(res, 400, 'blob-not-uploaded');
    await nothingRecorded(p, f.blobName);
  });

  test('a PUT of the wrong length is refused by the store, and registration then answers 400', async () => {
    const { p, root, s, f } = await signedScan();
    const short = s.content.subarray(0, 100);
    const put = await putSigned(t, f.url, short, { 'content-md5': md5B64(s.content) });
    assert.ok(put.statusCode >= 400 && put.statusCode < 500, `PUT ${put.statusCode}`);
    const res = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: f.blobName }]);
    assertProblem(res, 400, 'blob-not-uploaded');
    await nothingRecorded(p, f.blobName);
  });

  test('an object in the store that differs from the signed size or MD5: 400 blob-mismatch', async () => {
    for (const other of [bytes(800, 42), bytes(801, 9)]) {
      const { p, root, s, f } = await signedScan();
      // Another object under the same key, as a store that checks nothing could hold.
      const key = blobKey(uuidOf(p.id), f.blobName);
      const forged = await t.core.objectStore.signUpload({ key, size: other.length, md5Hex: md5Hex(other), expiresInSeconds: 60 }, t.core.clock.now());
      const put = await putSigned(t, forged.url, other);
      assert.ok(put.statusCode < 300, put.body);
      const res = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: f.blobName }]);
      assertProblem(res, 400, 'blob-mismatch');
      assert.equal((await fileRowsOf(t, p.id)).length, 0);
    }
  });

  test('a tampered signature, or the URL of another blob, is refused by the store; registration then answers 400', async () => {
    const { p, root, s, f } = await signedScan();
    const tampered = new URL(f.url);
    const sig = tampered.searchParams.get('sig')!;
    tampered.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const put = await putSigned(t, tampered.toString(), s.content);
    assert.ok(put.statusCode >= 400 && put.statusCode < 500, `PUT ${put.statusCode}`);
    // Another blob signed with the same size and MD5: its name under the first one's signature.
    const other = await sign(w.as.projectOwner!, p.id, root, [{ ...s, name: 'Other' }]);
    const swapped = new URL(f.url);
    swapped.pathname = swapped.pathname.replace(f.blobName, other.files[0]!.blobName);
    const put2 = await putSigned(t, swapped.toString(), s.content);
    assert.ok(put2.statusCode >= 400 && put2.statusCode < 500, `PUT ${put2.statusCode}`);
    for (const blobName of [f.blobName, other.files[0]!.blobName]) {
      assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName }]), 400, 'blob-not-uploaded');
      assert.equal(await storedObject(t, p.id, blobName), null);
    }
    await nothingRecorded(p, f.blobName);
  });

  test('an unknown blob name: 400 unknown-blob-name; values differing from the signed ones: 400 invalid-input', async () => {
    const { p, root, s, f } = await signedScan();
    await putSigned(t, f.url, s.content);
    assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), blobName: 'no-such-blob.e57' }]), 400, 'unknown-blob-name');
    assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), size: s.content.length + 1, blobName: f.blobName }]), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [{ ...item(s), md5: md5Hex('x'), blobName: f.blobName }]), 400, 'invalid-input');
    // one bad item refuses the whole call
    const good = scan('Good', 10, 10);
    const signed2 = await sign(w.as.projectOwner!, p.id, root, [good]);
    await putSigned(t, signed2.files[0]!.url, good.content);
    const res = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), [
      { ...item(good), blobName: signed2.files[0]!.blobName }, { ...item(s), blobName: 'no-such-blob.e57' },
    ]);
    assertProblem(res, 400, 'unknown-blob-name');
    assert.equal((await fileRowsOf(t, p.id)).length, 0);
  });

  test('a blob signed for another work zone is refused', async () => {
    const { p, root, s, f } = await signedScan();
    await putSigned(t, f.url, s.content);
    const z = await createZone(w.as.projectOwner!, p.id, root);
    assertProblem(await w.as.projectOwner!('PUT', bulkUrl(p.id, z.id), [{ ...item(s), blobName: f.blobName }]), 400, 'invalid-input');
    assert.equal((await fileRowsOf(t, p.id)).length, 0);
  });

  test('bad sign input: name, extension, md5, empty list', async () => {
    const { p, root } = await freshProject();
    const base = item(scan());
    for (const bad of [{ ...base, name: 'a/b' }, { ...base, name: '   ' }, { ...base, extension: 'e 57' }, { ...base, md5: 'xyz' }, { ...base, size: -1 }]) {
      const res = await w.as.projectOwner!('POST', bulkUrl(p.id, root), [bad]);
      assertProblem(res, 400, 'invalid-input');
    }
    assertProblem(await w.as.projectOwner!('POST', bulkUrl(p.id, root), []), 400, 'invalid-input');
    assert.equal((await pendingOf(t, p.id)).length, 0);
  });
});

describe('capacities', () => {
  test('scanCapacity is enforced at sign (pending uploads count) and at register, with errorValues.subscriptionId', async () => {
    await t.core.store.repos.subscriptions.update(SUB_B, { scanCapacity: 2, geoImageCapacity: 0 }, new Date());
    const { p, root } = await freshProject({ subscriptionId: SUB_B });
    const three = [scan('1', 10, 1), scan('2', 10, 2), scan('3', 10, 3)];
    const over = await w.as.projectOwner!('POST', bulkUrl(p.id, root), three.map(item));
    const body = assertProblem(over, 400, 'capacity-exceeded-scan');
    assert.equal(body.errorValues.subscriptionId, SUB_B);
    assert.equal((await pendingOf(t, p.id)).length, 0, 'nothing recorded');

    const signed = await sign(w.as.projectOwner!, p.id, root, three.slice(0, 2));
    assertProblem(await w.as.projectOwner!('POST', bulkUrl(p.id, root), [item(three[2]!)]), 400, 'capacity-exceeded-scan');
    // documents do not count against scans
    await sign(w.as.projectOwner!, p.id, root, [doc()]);
    for (const [i, f] of signed.files.entries()) await putSigned(t, f.url, three[i]!.content);
    // the capacity is lowered before registration: refused, nothing recorded
    await t.core.store.repos.subscriptions.update(SUB_B, { scanCapacity: 1 }, new Date());
    const refused = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), signed.files.map((f, i) => ({ ...item(three[i]!), blobName: f.blobName })));
    assert.equal(assertProblem(refused, 400, 'capacity-exceeded-scan').errorValues.subscriptionId, SUB_B);
    assert.equal((await fileRowsOf(t, p.id)).length, 0);
    await t.core.store.repos.subscriptions.update(SUB_B, { scanCapacity: 2 }, new Date());
    const ok = await w.as.projectOwner!('PUT', bulkUrl(p.id, root), signed.files.map((f, i) => ({ ...item(three[i]!), blobName: f.blobName })));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assertProblem(await w.as.projectOwner!('POST', bulkUrl(p.id, root), [item(three[2]!)]), 400, 'capacity-exceeded-scan');
    // other projects of the subscription count too
    const other = await freshProject({ subscriptionId: SUB_B });
    assertProblem(await w.as.projectOwner!('POST', bulkUrl(other.p.id, other.root), [item(three[2]!)]), 400, 'capacity-exceeded-scan');
  });

  test('geoImageCapacity: 400 capacity-exceeded-geoimage', async () => {
    await t.core.store.repos.subscriptions.update(SUB_B, { geoImageCapacity: 0 }, new Date());
    const { p, root } = await freshProject({ subscriptionId: SUB_B });
    const res = await w.as.projectOwner!('POST', bulkUrl(p.id, root), [{ name: 'Pano', extension: 'idd', size: 10, md5: md5Hex('x') }]);
    assert.equal(assertProblem(res, 400, 'capacity-exceeded-geoimage').errorValues.subscriptionId, SUB_B);
  });

  test('sandbox: 20 scans per user across the deployment, the 21st answers capacity-exceeded-scan with errorValues.userId', async () => {
    const { p, root } = await freshProject();
    // alice is not yet a member: make her a Manager of the project.
    const add = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/members`, { members: { users: [{ user: 'alice@proj.test', role: w.roles.Manager }] } });
    assert.equal(add.status, 204, JSON.stringify(add.body));
    const twentyOne = Array.from({ length: 21 }, (_, i) => scan(`S${i}`, 5, i));
    const res = await w.as.alice!('POST', bulkUrl(p.id, root), twentyOne.map(item));
    assert.equal(assertProblem(res, 400, 'capacity-exceeded-scan').errorValues.userId, w.ids.alice);
    await upload(t, w.as.alice!, p.id, root, twentyOne.slice(0, 20));
    assertProblem(await w.as.alice!('POST', bulkUrl(p.id, root), [item(twentyOne[20]!)]), 400, 'capacity-exceeded-scan');
    // other users are not affected
    await sign(w.as.projectOwner!, p.id, root, [twentyOne[20]!]);
  });
});

describe('files', () => {
  let P: any;
  let root: string;
  let ids: Record<string, string> = {};
  let blobs: Record<string, string> = {};
  before(async () => {
    ({ p: P, root } = await freshProject());
    const out = await upload(t, w.as.projectOwner!, P.id, root, [scan('Hall', 2000, 11), doc('Spec', 300, 12), { name: 'Building', extension: 'ifc', content: bytes(100, 13) }]);
    ids = { scan: out[0]!.id, doc: out[1]!.id, model: out[2]!.id };
    blobs = { scan: out[0]!.blobName, doc: out[1]!.blobName, model: out[2]!.blobName };
  });

  test('?category= filters by a case-sensitive set; empty answers []; an unknown category 400', async () => {
    const get = (q: string) => w.as.projectOwner!('GET', `${filesUrl(P.id)}${q}`);
    assert.deepEqual((await get('?category=scan')).body.map((f: any) => f.id), [ids.scan]);
    assert.deepEqual((await get('?category=scan,model')).body.map((f: any) => f.id).sort(), [ids.scan, ids.model].sort());
    assert.deepEqual((await get('?category=')).body, []);
    assert.equal((await get('')).body.length, 3);
    assertProblem(await get('?category=Scan'), 400, 'invalid-input');
    assertProblem(await get('?category=scan,nope'), 400, 'invalid-input');
    const empty = await freshProject();
    assert.deepEqual((await w.as.projectOwner!('GET', filesUrl(empty.p.id))).body, []);
  });

  test('each category has the vendor shape', async () => {
    const list = (await w.as.projectOwner!('GET', filesUrl(P.id))).body;
    conforms('getFiles', 200, list);
    const model = list.find((f: any) => f.type === 'model');
    assert.equal(model.contentId, uuidOf(ids.model!));
    assert.equal(list.find((f: any) => f.type === 'document').translation, undefined);
  });

  test('a file of every category conforms to the vendor File shape', async () => {
    const { p, root } = await freshProject();
    const exts = ['e57', 'ifc', 'idd', 'pdf', 'png', 'xyz123', 'zip', 'map', 'cipm', 'mp4', 'ply'];
    await upload(t, w.as.projectOwner!, p.id, root, exts.map((extension, i) => ({ name: `F${i}`, extension, content: bytes(30, 40 + i) })));
    const list = (await w.as.projectOwner!('GET', filesUrl(p.id))).body;
    assert.deepEqual(
      list.map((f: any) => f.type).sort(),
      ['archive', 'document', 'gaussian', 'geoImage', 'media', 'miscfile', 'model', 'modelReport', 'scan', 'sitemap', 'video3d'],
    );
    assert.equal(list.find((f: any) => f.extension === 'xyz123').formatId, 'urn:svc:format:999');
    conforms('getFiles', 200, list);
  });

  test('PATCH renames (file-name rules); 404 for an unknown file', async () => {
    const res = await w.as.projectOwner!('PATCH', `${filesUrl(P.id)}/${ids.doc}`, { name: 'Spec v2' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    conforms('updateFileName', 200, res.body);
    assert.equal(res.body.name, 'Spec v2');
    assert.equal(res.body.updatedBy, `urn:svc:user:${w.ids.projectOwner}`);
    for (const name of ['a:b', 'x/y', '  ', 'q?']) assertProblem(await w.as.projectOwner!('PATCH', `${filesUrl(P.id)}/${ids.doc}`, { name }), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('PATCH', `${filesUrl(P.id)}/00000000-0000-4000-8000-000000000000`, { name: 'n' }), 404, 'file-not-found');
    assertProblem(await w.as.projectOwner!('GET', `${filesUrl(P.id)}/urn:svc:crop:00000000-0000-4000-8000-000000000000`), 400, 'invalid-file-urn');
  });

  test('GET blobs/{blobName} redirects (302) to a download URL serving the bytes, whole and by range', async () => {
    const res = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(P.id)}/blobs/${blobs.scan}`);
    assert.equal(res.status, 302, JSON.stringify(res.body));
    const location = String(res.headers.location);
    const full = await getSigned(t, location);
    assert.equal(full.statusCode, 200);
    assert.deepEqual(full.body, bytes(2000, 11));
    const ranged = await getSigned(t, location, { range: 'bytes=10-19' });
    assert.equal(ranged.statusCode, 206);
    assert.deepEqual(ranged.body, bytes(2000, 11).subarray(10, 20));
    assertProblem(await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(P.id)}/blobs/nope.e57`), 404, 'blob-not-found');
  });

  test('POST blobs answers signed URLs for many blobs', async () => {
    const res = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(P.id)}/blobs`, [blobs.scan, blobs.doc]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    conforms('getBlobs', 200, res.body);
    assert.equal(res.body.expiresIn, 10800);
    assert.deepEqual(Object.keys(res.body.urls).sort(), [blobs.scan, blobs.doc].sort());
  });

  test('bulk-transformation moves and rotates scans and models; scale, non-unit quaternions and documents are refused', async () => {
    const tr = { x: 1, y: 2, z: 3 };
    const rot = { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 };
    const url = `${filesUrl(P.id)}/bulk-transformation`;
    const res = await w.as.projectOwner!('POST', url, [{ id: ids.scan, translation: tr, rotation: rot }, { id: ids.model, translation: tr }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    conforms('UpdateBulkFilesTransformation', 200, res.body);
    assert.deepEqual(res.body[0].translation, tr);
    assert.deepEqual(res.body[0].rotation, rot);
    assertProblem(await w.as.projectOwner!('POST', url, [{ id: ids.scan, scale: { x: 2, y: 2, z: 2 } }]), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('POST', url, [{ id: ids.scan, rotation: { x: 1, y: 1, z: 0, w: 0 } }]), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('POST', url, [{ id: ids.doc, translation: tr }]), 400, 'invalid-input');
    // all or nothing: the scan was not moved by the refused call
    assert.deepEqual((await w.as.projectOwner!('GET', `${filesUrl(P.id)}/${ids.scan}`)).body.translation, tr);
  });

  test('API 1 lists project files in its File shape, filtered by category (geo-image spelling too)', async () => {
    const url = `${A1}/projects/${P.api1Id}/files`;
    const all = await w.as.projectOwner!('GET', url);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.length, 3);
    const scans = (await w.as.projectOwner!('GET', `${url}?category=scan`)).body;
    assert.equal(scans.length, 1);
    const s = scans[0];
    assert.equal(s.type, 'scan');
    assert.equal(s.uuid, uuidOf(ids.scan!));
    assert.equal(s.parentUuid, uuidOf(root));
    assert.equal(s.formatId, 1);
    assert.equal(s.size, 2000);
    assert.deepEqual((await w.as.projectOwner!('GET', `${url}?category=geo-image`)).body, []);
    assertApi1Error(await w.as.projectOwner!('GET', `${url}?category=bad`), 400, 'invalid-input');
  });

  test('scan counts: project and work zone statsInfo (API 2), project and Workzone scanCount/scanSize (API 1)', async () => {
    const res = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(P.id)}`);
    assert.equal(res.body.statsInfo.scanCount, 1);
    assert.equal(res.body.statsInfo.scanSize, 2000);
    const one = await w.as.projectOwner!('GET', `${A1}/projects/${P.api1Id}`);
    assert.equal(one.body.scanCount, 1);
    const rootZone = one.body.workzones.find((z: any) => z.root);
    assert.deepEqual([rootZone.scanCount, rootZone.scanSize], [1, 2000]);
    const zone = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(P.id)}/workzones/${root}`);
    assert.deepEqual([zone.body.statsInfo.scanCount, zone.body.statsInfo.scanSize], [1, 2000]);
    const zones = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(P.id)}/workzones`);
    assert.equal(zones.body[0].statsInfo.scanCount, 1);
  });

  test('DELETE removes the row and the stored object', async () => {
    assert.notEqual(await storedObject(t, P.id, blobs.doc!), null);
    const res = await w.as.projectOwner!('DELETE', `${filesUrl(P.id)}/${ids.doc}`);
    assert.equal(res.status, 204);
    assert.equal(await storedObject(t, P.id, blobs.doc!), null);
    assertProblem(await w.as.projectOwner!('GET', `${filesUrl(P.id)}/${ids.doc}`), 404, 'file-not-found');
    assertProblem(await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(P.id)}/blobs/${blobs.doc}`), 404, 'blob-not-found');
  });
});

describe('project cover', () => {
  test('sign (POST cover), PUT the bytes, register (PUT cover): the project shows coverBlobName and the blob downloads', async () => {
    const { p } = await freshProject();
    const png = pngBytes(500, 21);
    const body = { name: 'cover', extension: 'png', size: png.length, md5: md5Hex(png) };
    const signed = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/cover`, body);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    conforms('signProjectCoverURL', 200, signed.body);
    assert.equal((await putSigned(t, signed.body.file.url, png)).statusCode < 300, true);
    const reg = await w.as.projectOwner!('PUT', `${A2}/projects/${uuidOf(p.id)}/cover`, body);
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    conforms('updateProjectCover', 200, reg.body);
    const project = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(p.id)}`);
    assert.equal(project.body.coverBlobName, signed.body.file.blobName);
    assert.equal(new URL(project.body.coverUrl).pathname, `${A2}/projects/${uuidOf(p.id)}/blobs/${signed.body.file.blobName}`);
    assert.equal((await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(p.id)}/blobs/${signed.body.file.blobName}`)).status, 302);
    // a cover is png/jpg/jpeg of at most 10 MiB
    assertProblem(await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/cover`, { ...body, extension: 'gif' }), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/cover`, { ...body, size: 10 * 1024 * 1024 + 1 }), 400, 'invalid-input');
    // registering a cover never signed
    assertProblem(await w.as.projectOwner!('PUT', `${A2}/projects/${uuidOf(p.id)}/cover`, { ...body, md5: md5Hex('other') }), 400, 'unknown-blob-name');
  });
});

describe('activity', () => {
  // Last in the file: it moves the service clock a day on.
  test('reading a project\'s files marks the project accessed (API 1 projects-last-accessed report)', async () => {
    const { p } = await freshProject();
    await advanceClock(t, 86_400 + 60);
    const owner = caller(t, (await t.tokens(emailOf('owner'))).access_token);
    const reader = caller(t, (await t.tokens(emailOf('projectOwner'))).access_token);
    const report = async () =>
      (await owner('GET', `${A1}/reports/projects-last-accessed?projectId=${uuidOf(p.id)}`)).body[0]?.lastAccessedDate ?? null;
    const today = t.core.clock.now().toISOString().slice(0, 10);
    assert.notEqual(await report(), today, 'not read today yet');
    assert.equal((await reader('GET', filesUrl(p.id))).status, 200);
    const deadline = Date.now() + 5000;
    while ((await report()) !== today && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await report(), today);
  });
});
