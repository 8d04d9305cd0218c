// The pointclouds module over HTTP (docs/point-clouds.md "The module"): a registered LAS
// file is converted to COPC by a job, its progress is on …/files/{f}/point-cloud, and the
// COPC output is served by byte range with the file's read permission (206, Content-Range,
// 416, safe headers); every refusal: no token, no permission, another account's caller, a
// file that is not a point cloud, an output not ready; a file whose content is not what its
// extension says fails with its reason; deleting the file queues its COPC object's deletion.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, TAGGER_ID, addMembers, assertProblem, createProject, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';
import { writeSyntheticLas } from '../pointclouds/support/synthetic.ts';
import { readCopcHierarchy } from '../pointclouds/support/copc-read.ts';
import { Copc } from 'copc';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-http-'));
let t: TestApp;
let w: World;
let P: any;
let lasId: string;
let badId: string;
let docId: string;
const POINTS = 30_000;

const statusUrl = (fileId: string) => `${A2}/projects/${uuidOf(P.id)}/files/${uuidOf(fileId)}/point-cloud`;
const copcUrl = (fileId: string) => `${statusUrl(fileId)}/copc`;

async function as(who: string, url: string, headers: Record<string, string> = {}) {
  const token = (await t.tokens(emailOf(who))).access_token;
  return t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });
}

before(async () => {
  t = await testApp({ DATA_DIR: tmp });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }, { user: emailOf('alice'), role: TAGGER_ID }],
  });
  const las = path.join(tmp, 'in.las');
  await writeSyntheticLas(las, { version: '1.4', format: 7, count: POINTS });
  const out = await upload(t, w.as.manager!, P.id, P.rootWorkzoneId, [
    { name: 'Terrain', extension: 'las', content: fs.readFileSync(las) },
    { name: 'Not a scan', extension: 'laz', content: Buffer.from('ply\nformat ascii 1.0\nelement vertex 0\nend_header\n') },
    { name: 'Notes', extension: 'pdf', content: bytes(64, 3) },
  ]);
  [lasId, badId, docId] = out.map((f) => f.id) as [string, string, string];
});
after(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('conversion', () => {
  test('a registered point cloud is pending or queued at once; its COPC output is refused (409 point-cloud-not-ready) until done', async () => {
    const res = await as('viewer', statusUrl(lasId));
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(['pending', 'queued', 'converting'].includes(res.json().state), res.body);
    assert.equal(res.json().copcUrl, null);
    assertProblem(await w.as.viewer!('GET', copcUrl(lasId)), 409, 'point-cloud-not-ready');
  });

  test('the job converts it: done, 100 %, the point count and bounds of the input, the COPC size', async () => {
    await t.core.pointCloudIntake.queuePending();
    await t.core.jobRunner.drain();
    const res = await as('viewer', statusUrl(lasId));
    const s = res.json();
    assert.equal(s.state, 'done', res.body);
    assert.equal(s.percent, 100);
    assert.equal(s.pointCount, POINTS);
    assert.equal(s.pointsRead, POINTS);
    assert.ok(s.copcSize > 375 && s.nodes >= 1);
    assert.equal(s.bounds.min.length, 3);
    assert.match(s.copcUrl, /\/point-cloud\/copc$/);
    assert.equal(s.reason, null);
  });

  test('a .laz whose content is a PLY file fails with reason wrong_format and a message naming what it looks like', async () => {
    const s = (await as('viewer', statusUrl(badId))).json();
    assert.equal(s.state, 'failed');
    assert.equal(s.reason, 'wrong_format');
    assert.equal(s.message, 'Not a scan.laz is not a LAZ file: its content looks like a PLY file');
    assertProblem(await w.as.viewer!('GET', copcUrl(badId)), 409, 'point-cloud-not-ready');
  });

  test('a file that is not a point cloud: 404 point-cloud-not-found', async () => {
    assertProblem(await w.as.viewer!('GET', statusUrl(docId)), 404, 'point-cloud-not-found');
  });
});

describe('range serving', () => {
  let size = 0;
  test('no Range: 200 with the whole COPC file, which copc.js reads with the input\'s point count', async () => {
    const res = await as('viewer', copcUrl(lasId));
    assert.equal(res.statusCode, 200);
    size = res.rawPayload.length;
    assert.equal(res.headers['content-length'], String(size));
    const file = path.join(tmp, 'served.copc.laz');
    fs.writeFileSync(file, res.rawPayload);
    const copc = await readCopcHierarchy(file);
    assert.equal(copc.header.pointCount, POINTS);
    let sum = 0;
    for (const n of copc.nodes.values()) sum += n.pointCount;
    assert.equal(sum, POINTS);
  });

  test('a range: 206 with Content-Range and exactly those bytes (the LAS header and the copc info VLR)', async () => {
    const res = await as('viewer', copcUrl(lasId), { range: 'bytes=0-588' });
    assert.equal(res.statusCode, 206);
    assert.equal(res.headers['content-range'], `bytes 0-588/${size}`);
    assert.equal(res.rawPayload.length, 589);
    assert.equal(res.rawPayload.subarray(0, 4).toString('latin1'), 'LASF');
    assert.equal(res.rawPayload.subarray(377, 381).toString('latin1'), 'copc');
    const suffix = await as('viewer', copcUrl(lasId), { range: 'bytes=-100' });
    assert.equal(suffix.statusCode, 206);
    assert.equal(suffix.headers['content-range'], `bytes ${size - 100}-${size - 1}/${size}`);
    assert.equal(suffix.rawPayload.length, 100);
  });

  test('a viewer\'s first frame through the route: copc.js reads the header and VLRs, the root hierarchy page and the root node in at most 4 range reads, < 300 kB before the points', async () => {
    const token = (await t.tokens(emailOf('viewer'))).access_token;
    const reads: number[] = [];
    const getter = async (begin: number, end: number) => {
      const res = await t.app.inject({ method: 'GET', url: copcUrl(lasId), headers: { authorization: `Bearer ${token}`, range: `bytes=${begin}-${end - 1}` } });
      assert.equal(res.statusCode, 206);
      reads.push(res.rawPayload.length);
      return new Uint8Array(res.rawPayload);
    };
    const copc = await Copc.create(getter);
    const { nodes } = await Copc.loadHierarchyPage(getter, copc.info.rootHierarchyPage);
    const root = nodes['0-0-0-0'];
    assert.ok(root && root.pointCount > 0);
    const view = await Copc.loadPointDataView(getter, copc, root);
    assert.equal(view.pointCount, root.pointCount);
    // copc.js reads 64 KiB of header and VLRs, the EVLR header and the root page, then the node
    // (a 30,000-point cloud's root is a leaf holding every point: its size is the data's).
    assert.ok(reads.length <= 4, `range reads: ${reads.join(', ')}`);
    const before = reads.slice(0, -1).reduce((a, b) => a + b, 0);
    assert.ok(before < 300 * 1024, `${before} bytes before the root node`);
    assert.equal(reads.at(-1), root.pointDataLength);
  });

  test('safe headers: the COPC type, nosniff, a sandboxing CSP, an attachment, private caching, an ETag', async () => {
    const res = await as('viewer', copcUrl(lasId), { range: 'bytes=0-9' });
    assert.equal(res.headers['content-type'], 'application/vnd.laszip+copc');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.headers['content-security-policy']), /sandbox/);
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="Terrain\.copc\.laz"/);
    assert.match(String(res.headers['cache-control']), /^private/);
    assert.equal(res.headers['accept-ranges'], 'bytes');
    const again = await as('viewer', copcUrl(lasId), { 'if-none-match': String(res.headers.etag) });
    assert.equal(again.statusCode, 304);
  });

  test('a range outside the object: 416 with Content-Range bytes */size, as problem+json', async () => {
    const res = await as('viewer', copcUrl(lasId), { range: `bytes=${size}-` });
    assert.equal(res.statusCode, 416);
    assert.equal(res.headers['content-range'], `bytes */${size}`);
    assert.match(String(res.headers['content-type']), /problem\+json/);
    assert.equal(res.json().errorCode, 'range-not-satisfiable');
    assert.equal((await as('viewer', copcUrl(lasId), { range: 'bytes=-0' })).statusCode, 416);
  });

  test('a malformed or multi-part range is ignored (RFC 9110): the whole object', async () => {
    for (const range of ['bytes=5-2', 'bytes=0-1,4-5', 'items=0-1']) {
      const res = await as('viewer', copcUrl(lasId), { range });
      assert.equal(res.statusCode, 200, range);
      assert.equal(res.rawPayload.length, size, range);
    }
  });
});

describe('refusals', () => {
  test('no token: 401 on the status and the output', async () => {
    for (const url of [statusUrl(lasId), copcUrl(lasId)]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } });
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.json().errorCode, 'unauthorized');
    }
  });

  test('a project member without the scans\' read permission (Tagger role): the output is refused, 403 view-file-forbidden', async () => {
    const res = await as('alice', copcUrl(lasId), { range: 'bytes=0-9' });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().errorCode, 'view-file-forbidden');
    assert.equal(res.headers['content-range'], undefined);
  });

  test('an account member outside the project: 403 not-member-of-project', async () => {
    assertProblem(await w.as.member!('GET', copcUrl(lasId)), 403, 'not-member-of-project');
    assertProblem(await w.as.member!('GET', statusUrl(lasId)), 403, 'not-member-of-project');
  });

  test('another account\'s caller: refused, no byte served', async () => {
    const res = await as('outsider', copcUrl(lasId), { range: 'bytes=0-9' });
    assert.ok(res.statusCode === 403 || res.statusCode === 404, res.body);
    assert.notEqual(res.rawPayload.subarray(0, 4).toString('latin1'), 'LASF');
  });

  test('an unknown file: 404 file-not-found; a URN of another type: 400 invalid-file-urn', async () => {
    assertProblem(await w.as.viewer!('GET', copcUrl('urn:svc:file:00000000-0000-4000-8000-000000000000')), 404, 'file-not-found');
    const bad = await w.as.viewer!('GET', `${A2}/projects/${uuidOf(P.id)}/files/${encodeURIComponent(P.id)}/point-cloud/copc`);
    assertProblem(bad, 400, 'invalid-file-urn');
  });
});

describe('deletion', () => {
  test('deleting the file deletes its point cloud and queues its COPC object for the sweeper; the output is gone', async () => {
    const row = await t.core.store.repos.pointClouds.byFile(uuidOf(lasId));
    assert.ok(row);
    const del = await w.as.manager!('DELETE', `${A2}/projects/${uuidOf(P.id)}/files/${uuidOf(lasId)}`);
    assert.equal(del.status, 204, JSON.stringify(del.body));
    assert.equal(await t.core.store.repos.pointClouds.byFile(uuidOf(lasId)), null);
    await t.core.uploadSweeper.run();
    assert.equal(await t.core.objectStore.stat(`${row.projectId}/${row.outputBlobName}`), null);
    assertProblem(await w.as.viewer!('GET', copcUrl(lasId)), 404, 'file-not-found');
  });
});
