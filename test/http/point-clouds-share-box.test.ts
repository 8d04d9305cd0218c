// The box limit of a share link (docs/point-clouds.md "The box limit", docs/share-links.md):
// a link's `boxLimit` (our extension) limits what its sessions read of the shared point
// clouds. Through HTTP with a share-link session, a client reads the COPC layout, then node by
// node: nodes wholly outside the box are left out of the layout and refused (403
// point-cloud-node-outside-box), boundary nodes come filtered, inside nodes as stored; the
// points it decodes are exactly the input's points inside the box. A link without a box reads
// every point; bad boxes are refused before anything is written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { upload } from '../support/files.ts';
import { syntheticPoint, writeSyntheticLas } from '../pointclouds/support/synthetic.ts';
import { decodeChunkWithLazPerf } from '../pointclouds/laz-decode.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-share-'));
let t: TestApp;
let w: World;
let P: any;
let lasId: string;
let otherZoneFileId: string;
let linksUrl: string;
// Enough points for two levels below the root with the job's settings (nodes of at most
// 100,000 points), so that a box holds whole nodes, crosses others and misses others.
const POINTS = 1_000_000;
const OPTIONS = { workzones: false, notes: false, issues: false, measurements: false, crops: false, tags: false };
// Around the quarter-size node (2-0-0-*) at the terrain's corner (x, y from 500,000 and
// 4,000,000; the root cube is ~1 km), its east face crossing the next one.
const BOX = { min: [499_990, 3_999_990, -1000], max: [500_290.5, 4_000_270.25, 1000] } as const;

before(async () => {
  t = await testApp({ DATA_DIR: tmp });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
  const las = path.join(tmp, 'in.las');
  await writeSyntheticLas(las, { version: '1.4', format: 7, count: POINTS });
  const [file] = await upload(t, w.as.manager!, P.id, P.rootWorkzoneId, [{ name: 'Site', extension: 'las', content: fs.readFileSync(las) }]);
  lasId = uuidOf(file!.id);
  const zone = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Elsewhere');
  const [other] = await upload(t, w.as.manager!, P.id, zone.id, [{ name: 'Elsewhere', extension: 'las', content: fs.readFileSync(las) }]);
  otherZoneFileId = uuidOf(other!.id);
  await t.core.pointCloudIntake.queuePending();
  await t.core.jobRunner.drain();
  linksUrl = `${A2}/projects/${uuidOf(P.id)}/share-links`;
});
after(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function link(boxLimit: unknown): Promise<{ id: string; token: string; body: any }> {
  const res = await w.as.manager!('POST', linksUrl, { name: 'Site view', workzoneId: P.rootWorkzoneId, membershipRequired: false, shareOptions: OPTIONS, boxLimit });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const id = uuidOf(res.body.id);
  const opened = await t.app.inject({ method: 'POST', url: `/share/${id}/sessions`, payload: {} });
  assert.equal(opened.statusCode, 201, opened.body);
  return { id, token: opened.json().token, body: res.body };
}

const get = (url: string, token: string | null) => t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
/** A problem+json answer in the shape assertProblem reads. */
const problem = async (url: string, token: string | null) => {
  const res = await get(url, token);
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};

/** The input's points inside the box, as the LAS file stores them (1 mm scale). */
function pointsInBox(): number {
  const q = (v: number, o: number) => Math.round((v - o) / 0.001) * 0.001 + o;
  let n = 0;
  for (let i = 0; i < POINTS; i++) {
    const p = syntheticPoint(i, POINTS);
    const xyz = [q(p.x, 500_000), q(p.y, 4_000_000), q(p.z, 0)];
    if (xyz.every((v, a) => v >= BOX.min[a]! && v <= BOX.max[a]!)) n++;
  }
  return n;
}

/** Reads every node a session's layout lists, decodes it as a client does, and checks each point against `box`. */
async function readAll(linkId: string, token: string, box: typeof BOX | null) {
  const layoutRes = await get(`/share/${linkId}/files/${lasId}/point-cloud`, token);
  assert.equal(layoutRes.statusCode, 200, layoutRes.body);
  const layout = layoutRes.json();
  const recordLength = layout.pointFormat === 7 ? 36 : 30;
  const verdicts = { inside: 0, boundary: 0 };
  let received = 0;
  for (const node of layout.nodes as { key: string; pointCount: number; verdict: 'inside' | 'boundary' }[]) {
    const res = await get(`/share/${linkId}/files/${lasId}/point-cloud/nodes/${node.key}`, token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-node-verdict'], node.verdict);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    verdicts[node.verdict]++;
    const n = Number(res.headers['x-point-count']);
    if (node.verdict === 'inside') assert.equal(n, node.pointCount, `inside node ${node.key} comes whole`);
    else assert.ok(n <= node.pointCount);
    if (!n) continue;
    const points = await decodeChunkWithLazPerf(layout.pointFormat, recordLength, new Uint8Array(res.rawPayload), n);
    const v = new DataView(points.buffer, points.byteOffset, points.byteLength);
    for (let i = 0; i < n; i++) {
      const xyz = [0, 1, 2].map((a) => v.getInt32(i * recordLength + a * 4, true) * layout.scale[a] + layout.offset[a]);
      if (box) assert.ok(xyz.every((c, a) => c >= box.min[a]! && c <= box.max[a]!), `node ${node.key} (${node.verdict}) sent a point outside the box: ${xyz.join(', ')}`);
    }
    received += n;
  }
  return { layout, verdicts, received };
}

test('a session of a box-limited link decodes exactly the input\'s points inside the box: outside nodes refused, boundary ones filtered', async () => {
  const limited = await link(BOX);
  assert.deepEqual(limited.body.boxLimit, { min: [...BOX.min], max: [...BOX.max] }, 'the link shows its box (our extension)');
  const { layout, verdicts, received } = await readAll(limited.id, limited.token, BOX);
  assert.deepEqual(layout.boxLimit, { min: [...BOX.min], max: [...BOX.max] });
  assert.ok(verdicts.inside > 0 && verdicts.boundary > 0, JSON.stringify(verdicts));
  const expected = pointsInBox();
  assert.ok(expected > 1000 && expected < POINTS / 2, `the box holds part of the scan (${expected})`);
  assert.equal(received, expected);

  // The nodes the limited layout leaves out are those wholly outside: each is refused, and says why.
  const open = await link(null);
  const all = (await get(`/share/${open.id}/files/${lasId}/point-cloud`, open.token)).json();
  const listed = new Set(layout.nodes.map((n: { key: string }) => n.key));
  const outside = all.nodes.filter((n: { key: string }) => !listed.has(n.key));
  assert.ok(outside.length > 0, 'some nodes lie wholly outside the box');
  for (const node of outside.slice(0, 5)) {
    const body = assertProblem(await problem(`/share/${limited.id}/files/${lasId}/point-cloud/nodes/${node.key}`, limited.token), 403, 'point-cloud-node-outside-box');
    assert.match(JSON.stringify(body), /outside the box/);
  }
});

test('a session of a link without a box reads every point, each node as stored', async () => {
  const open = await link(null);
  assert.equal(open.body.boxLimit, null);
  const { verdicts, received } = await readAll(open.id, open.token, null);
  assert.equal(verdicts.boundary, 0);
  assert.equal(received, POINTS);
});

test('the point-cloud reads of the share surface need the session, a shared file and a known node', async () => {
  const limited = await link(BOX);
  assertProblem(await problem(`/share/${limited.id}/files/${lasId}/point-cloud`, null), 401, 'unauthorized');
  assertProblem(await problem(`/share/${limited.id}/files/${lasId}/point-cloud/nodes/0-0-0-0`, null), 401, 'unauthorized');
  assertProblem(await problem(`/share/${limited.id}/files/${lasId}/point-cloud/nodes/0-0-0-0`, 'not-a-session'), 401, 'unauthorized');
  // The whole file would carry the points outside the box.
  assertProblem(await problem(`/share/${limited.id}/files/${lasId}/content`, limited.token), 403, 'sharelink-box-limited');
  const open = await link(null);
  assert.equal((await get(`/share/${open.id}/files/${lasId}/content`, open.token)).statusCode, 302, 'a link without a box downloads it');
  // A file of a zone the link does not share.
  assertProblem(await problem(`/share/${limited.id}/files/${otherZoneFileId}/point-cloud`, limited.token), 404, 'file-not-found');
  assertProblem(await problem(`/share/${limited.id}/files/${otherZoneFileId}/point-cloud/nodes/0-0-0-0`, limited.token), 404, 'file-not-found');
  // A key the hierarchy does not hold, and strings that are no key.
  for (const key of ['9-511-511-511', '0-0-0-0-0', 'root..0-0-0']) {
    assertProblem(await problem(`/share/${limited.id}/files/${lasId}/point-cloud/nodes/${key}`, limited.token), 404, 'point-cloud-node-not-found');
  }
});

test('a box limit with min above max, or not three numbers, is refused (400) and no link is written', async () => {
  const before = (await w.as.manager!('GET', linksUrl)).body.length;
  const bad = [
    { min: [1, 2, 3], max: [0, 5, 5] },
    { min: [1, 2], max: [3, 4, 5] },
    { min: [0, 0, 0], max: [1, 1, 1], extra: 1 },
    'all',
  ];
  for (const boxLimit of bad) {
    const res = await w.as.manager!('POST', linksUrl, { name: 'Bad', workzoneId: P.rootWorkzoneId, membershipRequired: false, shareOptions: OPTIONS, boxLimit });
    assertProblem(res, 400, 'invalid-input');
  }
  assert.equal((await w.as.manager!('GET', linksUrl)).body.length, before);
});
