// API 2 tag lists and tags (CONTRACT §6 "tag lists", §8; vendor TagList, Tag, bulkTags,
// bulkMoveTags, tagListAiDetection): versions and tombstones through afterVersion, all or
// nothing bulk writes, limits and the subscription's tag capacity, pending lists, who may
// read and write, and the answers against the vendor's schemas.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, ACCOUNT_ID, TAGGER_ID, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, type VendorValidator } from '../support/vendor-schema.ts';
import { tagArray } from '../../src/modules/tags/http/api2.ts';
import { api2TagJson } from '../../src/modules/tags/http/api2-tag-json.ts';
import { scanIn } from '../support/tags.ts';

const SUB_TINY = 'b5555555-5555-4555-8555-555555555555';

let t: TestApp;
let w: World;
let P: any;
let Z: any;
let vendor: VendorValidator | null = null;
/** A scan on P's root zone (detection needs one). */
let SCAN: string;
let n = 0;
const unique = (p: string) => `${p} ${++n}`;
const lists = (p: any) => `${A2}/projects/${uuidOf(p.id)}/tag-lists`;

const box = (i = 0) => [i, 0, 0, i + 1, 2, 3];
const obb = [10, 10, 10, 0, 0, Math.SQRT1_2, Math.SQRT1_2, 2, 4, 6];

function conforms(operationId: string, status: number, body: unknown) {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId} ${status} does not match the vendor schema:\n${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
}

async function createList(call = w.as.manager!, project = P, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', lists(project), { workzoneId: project.rootWorkzoneId, tagListType: '3d', name: unique('List'), ...fields });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  conforms('createTagList', 201, res.body);
  return res.body;
}

const bulk = (list: any, body: unknown, call = w.as.manager!, project = P) => call('POST', `${lists(project)}/${uuidOf(list.id)}/tags/bulk`, body);
const tagsOf = async (list: any, afterVersion?: number, call = w.as.manager!, project = P) => {
  const res = await call('GET', `${lists(project)}/${uuidOf(list.id)}/tags${afterVersion !== undefined ? `?afterVersion=${afterVersion}` : ''}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  conforms('getTagsOnList', 200, res.body);
  return res.body as any[];
};

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  await t.seed({ accounts: [{ id: ACCOUNT_ID, name: 'Proj', owner: emailOf('owner'), subscriptions: [{ id: SUB_TINY, name: 'Tiny', tagCapacity: 3 }] }] });
  // The vendor's URN patterns spell its own namespace; ours is `svc` (CONTRACT §2): only the namespace is relaxed.
  if (vendorSpecAvailable()) {
    vendor = loadVendorValidator({
      patch: (defs) => {
        for (const d of Object.values(defs)) {
          if (typeof d.pattern === 'string') d.pattern = d.pattern.replace('^urn:cintoo:', '^urn:svc:');
        }
      },
    });
  }
  P = await createProject(w.as.projectOwner!, { name: 'Tags P' });
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Zone Z');
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }],
  });
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('alice'), role: TAGGER_ID }] }, [Z.id]);
  SCAN = await scanIn(t.core, P.id, P.rootWorkzoneId);
});
after(() => t?.close());

describe('tag lists', () => {
  test('create, get, list, overwrite and delete a tag list', async () => {
    const l = await createList(w.as.manager!, P, { description: 'Pumps', color: '#112233', metadataDefinition: [{ id: 'm1', name: 'Floor' }] });
    assert.equal(l.type, 'tag-list');
    assert.equal(l.tagsVersion, 0);
    assert.equal(l.pending, false);
    assert.deepEqual(l.metadataDefinition, [{ id: 'm1', name: 'Floor' }]);
    const got = await w.as.viewer!('GET', `${lists(P)}/${uuidOf(l.id)}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.name, l.name);
    const all = await w.as.viewer!('GET', lists(P));
    assert.equal(all.status, 200);
    conforms('getTagsOnProject', 200, all.body);
    assert.ok(all.body.some((x: any) => x.id === l.id));
    const put = await w.as.manager!('PUT', `${lists(P)}/${uuidOf(l.id)}`, { workzoneId: Z.id, tagListType: '3d', name: 'Renamed' });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    conforms('updateTagList', 200, put.body);
    assert.equal(put.body.name, 'Renamed');
    assert.equal(put.body.description, '', 'PUT erases a missing field');
    assert.deepEqual(put.body.metadataDefinition, []);
    assert.equal(put.body.workzoneId, Z.id);
    const del = await w.as.manager!('DELETE', `${lists(P)}/${uuidOf(l.id)}`);
    assert.equal(del.status, 204);
    assertProblem(await w.as.manager!('GET', `${lists(P)}/${uuidOf(l.id)}`), 404, 'tag-list-not-found');
  });

  test('bulk-update and bulk-delete are all or nothing', async () => {
    const a = await createList();
    const b = await createList();
    const bad = await w.as.manager!('POST', `${lists(P)}/bulk-update`, [
      { id: a.id, workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'A2' },
      { id: b.id, workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'B2', metadataDefinition: [{ id: 'x', name: 'nature' }] },
    ]);
    assertProblem(bad, 400, 'invalid-input');
    assert.equal((await w.as.manager!('GET', `${lists(P)}/${uuidOf(a.id)}`)).body.name, a.name, 'nothing was written');
    const ok = await w.as.manager!('POST', `${lists(P)}/bulk-update`, [
      { id: a.id, workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'A2' },
      { id: b.id, workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'B2' },
    ]);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    conforms('bulkUpdateTagLists', 200, ok.body);
    assert.deepEqual(ok.body.map((x: any) => x.name), ['A2', 'B2']);
    const missing = await w.as.manager!('POST', `${lists(P)}/bulk-delete`, { ids: [a.id, '00000000-0000-4000-8000-000000000000'] });
    assertProblem(missing, 404, 'tag-list-not-found');
    assert.equal((await w.as.manager!('GET', `${lists(P)}/${uuidOf(a.id)}`)).status, 200, 'nothing was deleted');
    assert.equal((await w.as.manager!('POST', `${lists(P)}/bulk-delete`, { ids: [a.id, b.id] })).status, 204);
    assert.equal((await w.as.manager!('GET', `${lists(P)}/${uuidOf(b.id)}`)).status, 404);
  });

  test('metadata definitions: at most 50, reserved names refused', async () => {
    const defs = (k: number) => Array.from({ length: k }, (_, i) => ({ id: `m${i}`, name: `Field ${i}` }));
    await createList(w.as.manager!, P, { metadataDefinition: defs(50) });
    assertProblem(await w.as.manager!('POST', lists(P), { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'x', metadataDefinition: defs(51) }), 400, 'invalid-input');
    const reserved = await w.as.manager!('POST', lists(P), { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'x', metadataDefinition: [{ id: 'a', name: 'confidence' }] });
    assert.equal(assertProblem(reserved, 400, 'invalid-input').errorValues.field, 'metadataDefinitions[0].name');
  });
});

describe('tags: versions, tombstones, bulk', () => {
  test('create, update and delete round trip through afterVersion, deletions included', async () => {
    const l = await createList(w.as.manager!, P, { metadataDefinition: [{ id: 'm1', name: 'Floor' }] });
    const created = await bulk(l, { create: [
      { data: { id: 'P-1', boundingBox: box(0), metadata: [{ id: 'm1', value: 'L1' }] } },
      { data: { id: 'P-2', orientedBoundingBox: obb } },
      { data: { id: 'P-3', model: { type: 'AxisAlignedList', list: [box(0), box(5)] } } },
    ] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    conforms('bulkTags', 200, created.body);
    assert.equal(created.body.tagsVersion, 1);
    const [t1, t2, t3] = created.body.created;
    assert.deepEqual(t2.data.boundingBox.map((v: number) => Math.round(v * 1e6) / 1e6), [8, 9, 7, 12, 11, 13], 'computed from the oriented box (90° about z swaps the x and y sizes)');
    assert.deepEqual(t3.data.boundingBox, [0, 0, 0, 6, 2, 3], 'computed from the model');
    assert.equal(t1.tagsVersion, 1);
    // The full list (written by the store) and the bulk answer (written by the route) are the same text.
    assert.deepEqual(await tagsOf(l), created.body.created);

    const v1 = await bulk(l, { update: [{ id: t1.id, data: { id: 'P-1b', boundingBox: box(1) } }], delete: [t2.id] });
    assert.equal(v1.status, 200, JSON.stringify(v1.body));
    assert.equal(v1.body.tagsVersion, 2);
    assert.deepEqual(v1.body.deleted, [t2.id]);

    const live = await tagsOf(l);
    assert.deepEqual(live.map((x) => x.data.id).sort(), ['P-1b', 'P-3']);
    const changes = await tagsOf(l, 1);
    assert.deepEqual(changes.map((x) => [x.id, x.isDeleted, x.tagsVersion]).sort(), [[t1.id, false, 2], [t2.id, true, 2]].sort());
    assert.ok(changes.find((x) => x.isDeleted).deletedAt);
    assert.deepEqual(await tagsOf(l, 2), []);
    assert.equal((await tagsOf(l, 0)).length, 2, 'afterVersion 0 is the full list');
    const list = await w.as.manager!('GET', `${lists(P)}/${uuidOf(l.id)}`);
    assert.equal(list.body.tagsVersion, 2);
  });

  test('a whole list read twice is the same; any change (tags or tagListType) shows at once', async () => {
    const l = await createList();
    await bulk(l, { create: [{ data: { id: 'a' } }, { data: { id: 'b' } }] });
    const first = await tagsOf(l);
    assert.deepEqual(await tagsOf(l), first);
    const put = await w.as.manager!('PUT', `${lists(P)}/${uuidOf(l.id)}`, { workzoneId: P.rootWorkzoneId, tagListType: '2d', name: 'typed' });
    assert.equal(put.status, 200);
    assert.deepEqual((await tagsOf(l)).map((x) => x.tagListType), ['2d', '2d']);
    await bulk(l, { delete: [first[0].id] });
    assert.deepEqual((await tagsOf(l)).map((x) => x.data.id), ['b']);
  });

  test('a bulk with one invalid tag writes nothing and names the tag and the field', async () => {
    const l = await createList();
    const res = await bulk(l, { create: [
      { data: { id: 'ok', boundingBox: box(0) } },
      { data: { id: 'bad', orientedBoundingBox: [0, 0, 0, 0, 0, 0, 2, 1, 1, 1] } },
    ] });
    const p = assertProblem(res, 400, 'invalid-input');
    assert.equal(p.errorValues.tagIndex, 1);
    assert.equal(p.errorValues.tagId, 'bad');
    assert.equal(p.errorValues.field, 'orientedBoundingBox[3..6]');
    assert.deepEqual(await tagsOf(l), []);
    assert.equal((await w.as.manager!('GET', `${lists(P)}/${uuidOf(l.id)}`)).body.tagsVersion, 0);
    const minMax = await bulk(l, { create: [{ data: { id: 'inv', boundingBox: [1, 0, 0, 0, 1, 1] } }] });
    assert.equal(assertProblem(minMax, 400, 'invalid-input').errorValues.field, 'boundingBox[0]');
    const notEnclosing = await bulk(l, { create: [{ data: { id: 'e', orientedBoundingBox: obb, boundingBox: [0, 0, 0, 1, 1, 1] } }] });
    assert.equal(assertProblem(notEnclosing, 400, 'invalid-input').errorValues.field, 'boundingBox');
    // A deleted tag cannot be updated: the whole bulk fails.
    const c = await bulk(l, { create: [{ data: { id: 'a', boundingBox: box(0) } }] });
    const id = c.body.created[0].id;
    assert.equal((await bulk(l, { delete: [id] })).status, 200);
    assertProblem(await bulk(l, { create: [{ data: { id: 'b' } }], update: [{ id, data: { id: 'a2' } }] }), 404, 'tag-not-found');
    assert.deepEqual(await tagsOf(l), []);
  });

  test('limits: 10 custom fields, 1,000 boxes per AxisAlignedList, 50 metadata values of defined ids', async () => {
    const l = await createList();
    const fields = (k: number) => Array.from({ length: k }, (_, i) => ({ name: `f${i}`, value: 'v' }));
    assert.equal((await bulk(l, { create: [{ data: { id: 'c', customFields: fields(10) } }] })).status, 200);
    assert.equal(assertProblem(await bulk(l, { create: [{ data: { id: 'c', customFields: fields(11) } }] }), 400, 'invalid-input').errorValues.field, 'customFields');
    const boxes = (k: number) => Array.from({ length: k }, (_, i) => box(i));
    assert.equal((await bulk(l, { create: [{ data: { id: 'm', model: { type: 'AxisAlignedList', list: boxes(1000) } } }] })).status, 200);
    assertProblem(await bulk(l, { create: [{ data: { id: 'm', model: { type: 'AxisAlignedList', list: boxes(1001) } } }] }), 400, 'invalid-input');
    assert.equal(assertProblem(await bulk(l, { create: [{ data: { id: 'u', metadata: [{ id: 'nope', value: '' }] } }] }), 400, 'invalid-input').errorValues.field, 'metadata[0].id');
  });

  test('a list holds at most 50,000 tags', async () => {
    const l = await createList();
    const many = Array.from({ length: 50_000 }, (_, i) => ({ data: { id: `t${i}` } }));
    const res = await bulk(l, { create: many });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.created.length, 50_000);
    assertProblem(await bulk(l, { create: [{ data: { id: 'one more' } }] }), 400, 'too-many-tags');
    const all = await tagsOf(l);
    assert.equal(all.length, 50_000);
    const misplaced = all.findIndex((x, i) => x.data.id !== `t${i}`);
    assert.equal(misplaced, -1, `every tag once, in creation order: ${JSON.stringify(all.slice(Math.max(0, misplaced - 1), misplaced + 2).map((x) => x.data.id))}`);
    await w.as.manager!('DELETE', `${lists(P)}/${uuidOf(l.id)}`);
  });

  test('bulk-move: tombstones in the source, new tags in the target, metadata ids mapped', async () => {
    const src = await createList(w.as.manager!, P, { metadataDefinition: [{ id: 's1', name: 'Floor' }, { id: 's2', name: 'Room' }] });
    const dst = await createList(w.as.manager!, P, { metadataDefinition: [{ id: 'd1', name: 'Level' }] });
    const c = await bulk(src, { create: [
      { data: { id: 'A', boundingBox: box(0), metadata: [{ id: 's1', value: 'L1' }, { id: 's2', value: 'R9' }] } },
      { data: { id: 'B', boundingBox: box(1) } },
    ] });
    const [a] = c.body.created;
    const res = await w.as.manager!('POST', `${lists(P)}/${uuidOf(dst.id)}/tags/bulk-move`, [
      { sourceTagListId: src.id, tagsIds: [a.id], metadataIdMapping: [{ sourceId: 's1', targetId: 'd1' }] },
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    conforms('bulkMoveTags', 200, res.body);
    const [fromSrc, toDst] = res.body;
    assert.equal(fromSrc.tagList.id, src.id);
    assert.equal(fromSrc.updatedTags[0].isDeleted, true);
    assert.equal(toDst.tagList.tagsVersion, 1);
    assert.deepEqual(toDst.updatedTags[0].data.metadata, [{ id: 'd1', value: 'L1' }]);
    assert.deepEqual((await tagsOf(src)).map((x) => x.data.id), ['B']);
    assert.deepEqual((await tagsOf(src, 1)).map((x) => [x.id, x.isDeleted]), [[a.id, true]]);
    assert.deepEqual((await tagsOf(dst)).map((x) => x.id), [a.id]);
  });
});

describe('project statistics', () => {
  test("the project's tagCount counts live tags (countTags), and each work zone its own lists' live tags", async () => {
    const q = await createProject(w.as.projectOwner!, { name: 'Counted' });
    const l = await createList(w.as.projectOwner!, q);
    const c = await bulk(l, { create: [{ data: { id: 'a' } }, { data: { id: 'b' } }, { data: { id: 'c' } }] }, w.as.projectOwner!, q);
    assert.equal((await bulk(l, { delete: [c.body.created[0].id] }, w.as.projectOwner!, q)).status, 200);
    const got = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(q.id)}?countTags=true`);
    assert.equal(got.status, 200);
    assert.equal(got.body.statsInfo.tagCount, 2);
    // The root zone holds the list: its statsInfo counts the same live tags; a new zone none.
    const root = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(q.id)}/workzones/${uuidOf(q.rootWorkzoneId)}`);
    assert.equal(root.body.statsInfo.tagCount, 2);
    const zone = await createZone(w.as.projectOwner!, q.id, q.rootWorkzoneId);
    const all = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(q.id)}/workzones`);
    assert.deepEqual(
      all.body.map((z: any) => [z.id, z.statsInfo.tagCount]).sort(),
      [[q.rootWorkzoneId, 2], [zone.id, 0]].sort(),
    );
  });
});

describe('capacity and pending', () => {
  test("the subscription's tag capacity answers 400 capacity-exceeded-tag with the subscription id", async () => {
    const tiny = await createProject(w.as.projectOwner!, { name: 'Tiny P', subscriptionId: SUB_TINY });
    const l = await createList(w.as.projectOwner!, tiny);
    const call = w.as.projectOwner!;
    assert.equal((await bulk(l, { create: [{ data: { id: '1' } }, { data: { id: '2' } }] }, call, tiny)).status, 200);
    const over = await bulk(l, { create: [{ data: { id: '3' } }, { data: { id: '4' } }] }, call, tiny);
    assert.equal(assertProblem(over, 400, 'capacity-exceeded-tag').errorValues.subscriptionId, SUB_TINY);
    // Concurrent creations never exceed it.
    const results = await Promise.all([1, 2, 3].map((i) => bulk(l, { create: [{ data: { id: `c${i}` } }] }, call, tiny)));
    assert.equal(results.filter((r) => r.status === 200).length, 1, JSON.stringify(results.map((r) => r.status)));
    assert.equal((await tagsOf(l, undefined, call, tiny)).length, 3);
    // Deleting frees room.
    const first = (await tagsOf(l, undefined, call, tiny))[0];
    assert.equal((await bulk(l, { delete: [first.id], create: [{ data: { id: 'swap' } }] }, call, tiny)).status, 200);
  });

  test('ai-detection marks the list pending; a pending list refuses changes until the detection ends', async () => {
    const classes = await w.as.viewer!('GET', '/api/2/values/ai-detection-classes');
    assert.equal(classes.status, 200);
    conforms('listAIDetectionClasses', 200, classes.body);
    const l = await createList();
    await t.core.jobRunner.stop(); // the job waits until drained below
    try {
      const res = await w.as.manager!('POST', `${lists(P)}/${uuidOf(l.id)}/ai-detection`, { classes: [classes.body[0].name], filesIds: [SCAN] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      conforms('tagListAiDetection', 200, res.body);
      assert.equal(res.body.pending, true);
      assertProblem(await bulk(l, { create: [{ data: { id: 'x' } }] }), 409, 'tag-list-pending');
      assertProblem(await w.as.manager!('PUT', `${lists(P)}/${uuidOf(l.id)}`, { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'n' }), 409, 'tag-list-pending');
      assertProblem(await w.as.manager!('DELETE', `${lists(P)}/${uuidOf(l.id)}`), 409, 'tag-list-pending');
      assert.equal((await tagsOf(l)).length, 0, 'reads still work');
      await t.core.jobRunner.drain();
    } finally {
      t.core.jobRunner.start();
    }
    const after = await w.as.manager!('GET', `${lists(P)}/${uuidOf(l.id)}`);
    assert.equal(after.body.pending, false);
    assert.equal((await bulk(l, { create: [{ data: { id: 'x' } }] })).status, 200);
    assertProblem(await w.as.manager!('POST', `${lists(P)}/${uuidOf(l.id)}/ai-detection`, { classes: ['no-such-class'], filesIds: [SCAN] }), 400, 'invalid-input');
    // The files must be scans of the project.
    assertProblem(await w.as.manager!('POST', `${lists(P)}/${uuidOf(l.id)}/ai-detection`, { classes: ['valve'], filesIds: ['00000000-0000-4000-8000-000000000001'] }), 404, 'file-not-found');
    const doc = await scanIn(t.core, P.id, P.rootWorkzoneId, 'document');
    assert.equal(assertProblem(await w.as.manager!('POST', `${lists(P)}/${uuidOf(l.id)}/ai-detection`, { classes: ['valve'], filesIds: [doc] }), 400, 'invalid-input').errorValues.field, 'filesIds');
    assert.equal((await w.as.manager!('GET', `${lists(P)}/${uuidOf(l.id)}`)).body.pending, false, 'nothing was changed');
  });
});

describe('permissions: workzone:tags:read / workzone:tags:write on the list’s zone', () => {
  test('a viewer reads but may not write', async () => {
    const l = await createList();
    assert.equal((await tagsOf(l, undefined, w.as.viewer!)).length, 0);
    const denied = assertProblem(await bulk(l, { create: [{ data: { id: 'v' } }] }, w.as.viewer!), 403, 'update-tag-list-forbidden');
    assert.deepEqual(denied.errorValues.requiredPermissions, ['workzone:tags:write']);
    assertProblem(await w.as.viewer!('POST', lists(P), { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'v' }), 403, 'create-tag-list-forbidden');
    assertProblem(await w.as.viewer!('DELETE', `${lists(P)}/${uuidOf(l.id)}`), 403, 'delete-tag-list-forbidden');
    assertProblem(await w.as.viewer!('POST', `${lists(P)}/${uuidOf(l.id)}/ai-detection`, { classes: ['pipe'], filesIds: [SCAN] }), 403, 'update-tag-list-forbidden');
  });

  test('a member of a child zone works on its lists only and lists only them', async () => {
    const inZ = await createList(w.as.alice!, P, { workzoneId: Z.id });
    const inRoot = await createList();
    assert.equal((await bulk(inZ, { create: [{ data: { id: 'z' } }] }, w.as.alice!)).status, 200);
    const seen = await w.as.alice!('GET', lists(P));
    assert.equal(seen.status, 200);
    const ids = seen.body.map((x: any) => x.id);
    assert.ok(ids.includes(inZ.id));
    assert.ok(!ids.includes(inRoot.id));
    assertProblem(await w.as.alice!('GET', `${lists(P)}/${uuidOf(inRoot.id)}/tags`), 403, 'view-tag-list-forbidden');
    assertProblem(await w.as.alice!('POST', lists(P), { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'r' }), 403, 'create-tag-list-forbidden');
    // Moving a list into a zone where the caller may not write tags.
    assertProblem(await w.as.alice!('PUT', `${lists(P)}/${uuidOf(inZ.id)}`, { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'moved' }), 403, 'update-tag-list-forbidden');
    // Detection also needs reality-data:read and export-jobs-reality-data:write on the scans' zone (vendor).
    const scanZ = await scanIn(t.core, P.id, Z.id);
    const noScans = assertProblem(await w.as.alice!('POST', `${lists(P)}/${uuidOf(inZ.id)}/ai-detection`, { classes: ['valve'], filesIds: [scanZ] }), 403, 'update-tag-list-forbidden');
    assert.deepEqual(noScans.errorValues.requiredPermissions, ['workzone:reality-data:read', 'workzone:export-jobs-reality-data:write']);
    // Moving tags out of a list he may not write.
    assertProblem(await w.as.alice!('POST', `${lists(P)}/${uuidOf(inZ.id)}/tags/bulk-move`, [{ sourceTagListId: inRoot.id, tagsIds: [] }]), 403, 'update-tag-list-forbidden');
  });

  test('callers outside the project, or without any tag permission, are refused', async () => {
    assertProblem(await w.as.member!('GET', lists(P)), 403, 'not-member-of-project');
    assertProblem(await w.as.outsider!('GET', lists(P)), 404, 'account-not-found'); // another tenant: as an unknown account
    // Seeing the project listed (rule 6) makes no member.
    const lister = assertProblem(await w.as.projectLister!('GET', lists(P)), 403, 'not-member-of-project');
    assert.deepEqual(lister.errorValues.requiredPermissions, ['project:workzones:list']);
  });

  test('bad references answer 400 or 404, never 5xx', async () => {
    assertProblem(await w.as.manager!('GET', `${lists(P)}/urn:svc:project:${uuidOf(P.id)}`), 400, 'invalid-tag-list-urn');
    assertProblem(await w.as.manager!('GET', `${lists(P)}/00000000-0000-4000-8000-000000000000/tags`), 404, 'tag-list-not-found');
    const l = await createList();
    assertProblem(await bulk(l, { delete: ['urn:svc:tag-list:00000000-0000-4000-8000-000000000000'] }), 400, 'invalid-tag-urn');
    assertProblem(await bulk(l, { delete: ['00000000-0000-4000-8000-000000000000'] }), 404, 'tag-not-found');
    assertProblem(await bulk(l, { delete: ['not-a-derived-id'] }), 404, 'tag-not-found');
    assertProblem(await bulk(l, { create: [{ data: { id: 'x', model: { type: 'BinarizedAxisAlignedList' } } }] }), 400, 'invalid-input');
  });
});

describe('the whole list kept per node', () => {
  test('after random changes (creations, updates, deletions, moves out and back) the whole list is what the store holds, on both generations', async () => {
    const l = await createList();
    const other = await createList();
    const id2 = uuidOf(l.id);
    const A1L = `${A2.replace('/api/2', '/api')}/projects/${P.api1Id}/tag-lists/${l.api1Id}`;
    let seed = 7;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
    for (let step = 0; step < 25; step++) {
      const live = await tagsOf(l); // also keeps (or patches) this version
      const pick = () => live[rnd(live.length)];
      const op = live.length < 3 ? 0 : rnd(5);
      if (op === 0) await bulk(l, { create: Array.from({ length: 1 + rnd(4) }, (_, i) => ({ data: { id: `s${step}-${i}`, boundingBox: box(step) } })) });
      else if (op === 1) await bulk(l, { update: [{ id: pick().id, data: { id: `u${step}`, boundingBox: box(step + 1) } }] });
      else if (op === 2) await bulk(l, { delete: [pick().id] });
      else if (op === 3) {
        const moved = pick();
        await w.as.manager!('POST', `${lists(P)}/${uuidOf(other.id)}/tags/bulk-move`, [{ sourceTagListId: l.id, tagsIds: [moved.id] }]);
        await w.as.manager!('POST', `${lists(P)}/${id2}/tags/bulk-move`, [{ sourceTagListId: other.id, tagsIds: [moved.id] }]);
      } else await bulk(l, { create: [{ data: { id: `m${step}` } }], delete: [pick().id], update: [] });
      const expected = JSON.parse(tagArray(api2TagJson('svc'), ...(await (async () => {
        const v = await t.core.tagLists.getTags({ userId: w.ids.manager! }, { type: 'account', uuid: ACCOUNT_ID }, { type: 'project', uuid: uuidOf(P.id) }, { type: 'tag-list', uuid: id2 }, { all: true });
        return [v.list, v.rows] as const;
      })())));
      assert.deepEqual(await tagsOf(l), expected, `API 2, step ${step} (op ${op})`);
      const v1 = await w.as.manager!('GET', A1L);
      const since = await w.as.manager!('GET', `${A1L}?since=2000-01-01`);
      assert.deepEqual(v1.body, since.body.filter((x: any) => !x.isDeleted), `API 1, step ${step} (op ${op})`);
    }
  });
});

describe('concurrency', () => {
  test('concurrent bulk writes on one list get distinct consecutive versions', async () => {
    const l = await createList();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => bulk(l, { create: [{ data: { id: `c${i}` } }] })));
    assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
    assert.deepEqual(results.map((r) => r.body.tagsVersion).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
    const changes = await tagsOf(l, 3);
    assert.equal(changes.length, 3);
  });

  test('creating or moving a list into a zone while it is deleted answers 201/200 or 404, never 5xx (10 rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const zone = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, `Doomed ${round}`);
      const l = await createList();
      const [created, moved, deleted] = await Promise.all([
        w.as.manager!('POST', lists(P), { workzoneId: zone.id, tagListType: '3d', name: `In doomed ${round}` }),
        w.as.manager!('PUT', `${lists(P)}/${uuidOf(l.id)}`, { workzoneId: zone.id, tagListType: '3d', name: `Moved ${round}` }),
        w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(P.id)}/workzones/${uuidOf(zone.id)}`),
      ]);
      assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
      assert.ok([201, 404].includes(created.status), `create: ${created.status} ${JSON.stringify(created.body)}`);
      assert.ok([200, 404].includes(moved.status), `move: ${moved.status} ${JSON.stringify(moved.body)}`);
      // Whatever won, no list is left in the deleted zone.
      const left = (await w.as.manager!('GET', lists(P))).body.filter((x: any) => x.workzoneId === zone.id);
      assert.deepEqual(left, []);
    }
  });
});

describe('no 5xx', () => {
  test('random bodies and queries on the tag routes answer < 500', async () => {
    const l = await createList();
    const base = `${lists(P)}/${uuidOf(l.id)}`;
    const num = fc.oneof(fc.double(), fc.integer(), fc.constant(1e308), fc.constant(-0));
    const geometry = fc.record({
      boundingBox: fc.array(num, { maxLength: 8 }), orientedBoundingBox: fc.array(num, { maxLength: 12 }),
      model: fc.record({ type: fc.constantFrom('AxisAlignedList', 'OrientedList', 'x'), list: fc.array(fc.array(num, { maxLength: 7 }), { maxLength: 3 }), groupedOBBList: fc.array(fc.array(num, { maxLength: 17 }), { maxLength: 2 }) }, { requiredKeys: ['type'] }),
      id: fc.string({ maxLength: 5 }), metadata: fc.array(fc.record({ id: fc.string({ maxLength: 3 }), value: fc.string({ maxLength: 3 }) }), { maxLength: 2 }),
    }, { requiredKeys: [] });
    const body = fc.oneof(fc.jsonValue(), fc.record({ create: fc.array(fc.record({ data: geometry }), { maxLength: 3 }), delete: fc.array(fc.oneof(fc.uuid(), fc.string()), { maxLength: 2 }) }));
    const target = fc.constantFrom(
      ['POST', `${base}/tags/bulk`], ['POST', `${base}/tags/bulk-move`], ['POST', `${base}/ai-detection`], ['PUT', base], ['POST', lists(P)],
      ['POST', `${lists(P)}/bulk-update`], ['POST', `${lists(P)}/bulk-delete`], ['PUT', `${A2.replace('/api/2', '/api')}/projects/${P.api1Id}/tag-lists/${l.api1Id}`],
      ['POST', `${A2.replace('/api/2', '/api')}/projects/${P.api1Id}/tag-lists`],
    );
    await fc.assert(fc.asyncProperty(target, body, async ([method, url], payload) => {
      const res = await w.as.manager!(method as 'POST', url, payload);
      assert.ok(res.status < 500, `${method} ${url} ${JSON.stringify(payload).slice(0, 300)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }), { numRuns: 150 });
    for (const q of ['afterVersion=99999999999', 'afterVersion=-5', 'afterVersion=abc', 'afterVersion=1.5']) {
      assert.ok((await w.as.manager!('GET', `${base}/tags?${q}`)).status < 500, q);
    }
    for (const q of ['since=2026-13-45', 'since=99999-01-01', 'since=2026-01-01T25:00:00Z', 'since=%00']) {
      assert.ok((await w.as.manager!('GET', `${A2.replace('/api/2', '/api')}/projects/${P.api1Id}/tag-lists/${l.api1Id}?${q}`)).status < 500, q);
    }
  });
});
