// Downloads in the usage report (docs/usage.md, migration 0039): each signed download URL of
// a scan (API 2 getBlob/getBlobs, an API 1 connect export's file list, a share link's file)
// counts in scansDownload, each of a crop's blob in cropsDownloaded, for the caller on the
// file's project and day; other files, covers and refused requests count nothing; concurrent
// downloads all count. PGlite by default; TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A1, A2, SUB_A, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, md5Hex, pngBytes, putSigned, upload } from '../support/files.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let w: World;
let P: any;
let scans: Awaited<ReturnType<typeof upload>>;
let vendor: VendorValidator | null = null;
const report = `${A2}/subscriptions/${SUB_A}/usage-report`;
const blobs = () => `${A2}/projects/${uuidOf(P.id)}/blobs`;

/** The report row of `who` on P today (or null), validated against the vendor's schema. */
async function rowOf(who: keyof World['ids']): Promise<any> {
  const res = await w.as.owner!('GET', report);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  if (vendor) {
    const errors = vendor.validate('getUsageReport', 200, res.body);
    assert.deepEqual(errors, [], describeErrors(errors));
  }
  return res.body.find((r: any) => r.projectId === P.id && r.userId === `urn:svc:user:${w.ids[who]}`) ?? null;
}
const downloads = async (who: keyof World['ids']) => {
  const r = await rowOf(who);
  return { scans: r?.scansDownload ?? 0, crops: r?.cropsDownloaded ?? 0 };
};

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!, { name: 'Downloads P' });
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('manager'), role: w.roles.Manager }, { user: emailOf('viewer'), role: w.roles.Viewer }],
  });
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
  scans = await upload(t, w.as.projectOwner!, P.id, P.rootWorkzoneId, [
    { name: 'd1', extension: 'pts', content: bytes(10, 1) }, { name: 'd2', extension: 'e57', content: bytes(11, 2) },
    { name: 'plan', extension: 'pdf', content: bytes(12, 3) }, { name: 'pano', extension: '360', content: bytes(13, 4) },
  ]);
});
after(() => t.close());

test('a scan\'s download URL counts one scan download for the caller; other files count nothing', async () => {
  const before = await downloads('manager');
  const [d1, d2, plan, pano] = scans;
  const one = await w.as.manager!('GET', `${blobs()}/${d1!.blobName}`);
  assert.equal(one.status, 302);
  assert.deepEqual(await downloads('manager'), { scans: before.scans + 1, crops: before.crops });
  // getBlobs: each distinct scan once (a name given twice is one URL), the PDF and the 360 image nothing.
  const many = await w.as.manager!('POST', blobs(), [d1!.blobName, d2!.blobName, d2!.blobName, plan!.blobName, pano!.blobName]);
  assert.equal(many.status, 200, JSON.stringify(many.body));
  assert.equal(Object.keys(many.body.urls).length, 4);
  assert.deepEqual(await downloads('manager'), { scans: before.scans + 3, crops: before.crops });
  assert.equal((await rowOf('viewer')), null, 'nobody else counted');
});

test('a refused or failed download counts nothing', async () => {
  const before = await downloads('manager');
  assertProblem(await w.as.manager!('POST', blobs(), [scans[0]!.blobName, 'missing.e57']), 404, 'blob-not-found');
  assertProblem(await w.as.projectLister!('GET', `${blobs()}/${scans[0]!.blobName}`), 403, 'not-member-of-project');
  assert.deepEqual(await downloads('manager'), before);
  assert.equal(await rowOf('projectLister'), null);
});

test('concurrent downloads of the same user all count (the counter is one upsert per request)', async () => {
  const before = await downloads('viewer');
  const n = 16;
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => (i % 2 ? w.as.viewer!('GET', `${blobs()}/${scans[1]!.blobName}`) : w.as.viewer!('POST', blobs(), [scans[0]!.blobName, scans[1]!.blobName]))),
  );
  for (const a of answers) assert.ok(a.status === 302 || a.status === 200, JSON.stringify(a.body));
  assert.equal((await downloads('viewer')).scans, before.scans + n / 2 + n);
});

test('a crop\'s blob counts as a crop download; the project cover counts nothing', async () => {
  const cropsUrl = `${A2}/projects/${uuidOf(P.id)}/crops`;
  const cropBody = {
    workzoneId: P.rootWorkzoneId, name: 'Section', crop: '[[1,0,0,1]]', actualCrop: '[[1,0,0,1]]', rotation: '0', cameraType: 'overview',
    cameraState: '{"position":[0,0,0]}', scan: 'scan-1', layers: null, oview: 1, settings: null,
  };
  const crop = await w.as.manager!('POST', cropsUrl, cropBody);
  assert.equal(crop.status, 201, JSON.stringify(crop.body));
  const png = pngBytes(300, 5);
  const signed = await w.as.manager!('POST', `${cropsUrl}/${crop.body.id}/cover`, { name: 'thumb', extension: 'png', size: png.length, md5: md5Hex(png) });
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  assert.ok((await putSigned(t, signed.body.file.url, png)).statusCode < 300);
  const put = await w.as.manager!('PUT', `${cropsUrl}/${crop.body.id}`, { ...cropBody, thumbnailBlobName: signed.body.file.blobName });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const before = await downloads('viewer');
  assert.equal((await w.as.viewer!('GET', new URL(put.body.thumbnailUrl).pathname)).status, 302);
  assert.deepEqual(await downloads('viewer'), { scans: before.scans, crops: before.crops + 1 });

  const coverBody = { name: 'cover', extension: 'png', size: png.length, md5: md5Hex(png) };
  const cover = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(P.id)}/cover`, coverBody);
  assert.equal(cover.status, 200, JSON.stringify(cover.body));
  assert.ok((await putSigned(t, cover.body.file.url, png)).statusCode < 300);
  assert.equal((await w.as.projectOwner!('PUT', `${A2}/projects/${uuidOf(P.id)}/cover`, coverBody)).status, 200);
  assert.equal((await w.as.viewer!('GET', `${blobs()}/${cover.body.file.blobName}`)).status, 302);
  assert.deepEqual(await downloads('viewer'), { scans: before.scans, crops: before.crops + 1 });
});

test('an API 1 connect export counts the scans its file list signs, each time it is read; an import job counts nothing', async () => {
  const Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId);
  const before = await downloads('projectOwner');
  const start = await w.as.projectOwner!('POST', `${A1}/projects/${uuidOf(P.id)}/workzones/${uuidOf(P.rootWorkzoneId)}/connect/export`, {
    scanIds: [uuidOf(scans[0]!.id), uuidOf(scans[1]!.id)],
  });
  assert.equal(start.status, 200, JSON.stringify(start.body));
  const job = await w.as.projectOwner!('GET', `/connect/${start.body.slug}`);
  assert.equal(job.status, 200, JSON.stringify(job.body));
  assert.equal(job.body.files.length, 2);
  assert.equal((await downloads('projectOwner')).scans, before.scans + 2);
  const importJob = await w.as.projectOwner!('POST', `${A1}/projects/${uuidOf(P.id)}/workzones/${uuidOf(Z.id)}/connect/import`);
  assert.equal(importJob.status, 200, JSON.stringify(importJob.body));
  assert.equal((await w.as.projectOwner!('GET', `/connect/${importJob.body.slug}`)).status, 200);
  assert.equal((await downloads('projectOwner')).scans, before.scans + 2);
});

test('a share link\'s scan download counts for the link\'s creator (an anonymous session names nobody else)', async () => {
  const link = await w.as.manager!('POST', `${A2}/projects/${uuidOf(P.id)}/share-links`, {
    name: 'Client', workzoneId: P.rootWorkzoneId, membershipRequired: false,
    shareOptions: { workzones: false, notes: false, issues: false, measurements: false, crops: false, tags: false },
  });
  assert.equal(link.status, 201, JSON.stringify(link.body));
  const id = uuidOf(link.body.id);
  const session = await t.app.inject({ method: 'POST', url: `/share/${id}/sessions`, payload: {} });
  assert.equal(session.statusCode, 201, session.body);
  const headers = { authorization: `Bearer ${session.json().token}` };
  const before = await downloads('manager');
  const scan = await t.app.inject({ method: 'GET', url: `/share/${id}/files/${uuidOf(scans[0]!.id)}/content`, headers });
  assert.equal(scan.statusCode, 302, scan.body);
  const pdf = await t.app.inject({ method: 'GET', url: `/share/${id}/files/${uuidOf(scans[2]!.id)}/content`, headers });
  assert.equal(pdf.statusCode, 302, pdf.body);
  assert.deepEqual(await downloads('manager'), { scans: before.scans + 1, crops: before.crops });
});

test('a whole read of a tag list counts its live tags as downloaded (API 2 and API 1, cached or not, at once too); reads of changes after a version and refused reads count nothing', async () => {
  const tagsDownloaded = async (who: keyof World['ids']) => (await rowOf(who))?.tagsDownloaded ?? 0;
  const lists2 = `${A2}/projects/${uuidOf(P.id)}/tag-lists`;
  const list = await w.as.manager!('POST', lists2, { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'Valves counted' });
  assert.equal(list.status, 201, JSON.stringify(list.body));
  const tags2 = `${lists2}/${uuidOf(list.body.id)}/tags`;
  const written = await w.as.manager!('POST', `${tags2}/bulk`, { create: ['V1', 'V2', 'V3', 'V4', 'V5'].map((id) => ({ data: { id } })) });
  assert.equal(written.status, 200, JSON.stringify(written.body));
  const gone = await w.as.manager!('POST', `${tags2}/bulk`, { delete: [written.body.created[4].id] });
  assert.equal(gone.status, 200, JSON.stringify(gone.body));
  const live = 4;
  const before = await tagsDownloaded('viewer');

  for (let i = 0; i < 2; i++) { // the second answered from the node's kept text
    const read = await w.as.viewer!('GET', tags2);
    assert.equal(read.status, 200);
    assert.equal(read.body.length, live);
  }
  assert.equal(await tagsDownloaded('viewer'), before + 2 * live);

  const api1List = (await w.as.viewer!('GET', `${A1}/projects/${P.api1Id}/tag-lists`)).body.find((l: any) => l.data.name === 'Valves counted');
  const read1 = await w.as.viewer!('GET', `${A1}/projects/${P.api1Id}/tag-lists/${api1List.id}`);
  assert.equal(read1.status, 200);
  assert.equal(read1.body.length, live);
  assert.equal(await tagsDownloaded('viewer'), before + 3 * live);

  const changes = await w.as.viewer!('GET', `${tags2}?afterVersion=1`);
  assert.equal(changes.status, 200);
  assertProblem(await w.as.projectLister!('GET', tags2), 403, 'not-member-of-project');
  assert.equal(await tagsDownloaded('viewer'), before + 3 * live, 'changes after a version count nothing');
  assert.equal((await rowOf('projectLister'))?.tagsDownloaded ?? 0, 0, 'a refused read counts nothing');

  const n = 12;
  const answers = await Promise.all(Array.from({ length: n }, () => w.as.viewer!('GET', tags2)));
  for (const a of answers) assert.equal(a.status, 200);
  assert.equal(await tagsDownloaded('viewer'), before + (3 + n) * live, 'reads at once all count');
});
