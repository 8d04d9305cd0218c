// API 1 tag lists (spec "API 1 operations": list, create, get, update, delete tag list;
// CONTRACT §6, §8): `since` as a date or a date-time returns changes including deletions
// (deleted-tag markers), every request is one transaction, API 2 sees the same versions,
// and the same limits, capacity, pending and permission rules hold.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { scanIn } from '../support/tags.ts';
import {
  A1, A2, ACCOUNT_ID, advanceClock, addMembers, assertApi1Error, createProject, emailOf, projectWorld, serviceNow, uuidOf, type World,
} from '../support/projects.ts';

const SUB_TINY = 'b6666666-6666-4666-8666-666666666666';

let t: TestApp;
let w: World;
let P: any;
let n = 0;
const unique = (p: string) => `${p} ${++n}`;
const lists = (p: any) => `${A1}/projects/${p.api1Id}/tag-lists`;
const box = (i = 0) => [i, 0, 0, i + 1, 1, 1];

async function createList(body: Record<string, unknown> = {}, call = w.as.manager!, project = P): Promise<any> {
  const res = await call('POST', lists(project), { parentId: uuidOf(project.rootWorkzoneId), data: { name: unique('List') }, ...body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  await t.seed({ accounts: [{ id: ACCOUNT_ID, name: 'Proj', owner: emailOf('owner'), subscriptions: [{ id: SUB_TINY, name: 'Tiny 1', tagCapacity: 2 }] }] });
  P = await createProject(w.as.projectOwner!, { name: 'Tags P1' });
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }],
  });
});
after(() => t?.close());

describe('API 1 tag lists', () => {
  test('create with inserted tags answers the TagList with its tags; get answers the tags', async () => {
    const l = await createList({
      data: { name: 'Valves', description: 'All valves', color: '#aabbcc', metadataDefinitions: [{ id: 'm1', name: 'Floor' }] },
      insert: [{ id: 'V-1', boundingBox: box(0), metadata: [{ id: 'm1', value: '2' }] }, { name: 'no id', orientedBoundingBox: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1] }],
    });
    assert.equal(l.type, 'tagList');
    assert.equal(l.parentId, P.rootWorkzoneId ? (await w.as.manager!('GET', `${A2}/projects/${uuidOf(P.id)}/workzones/${uuidOf(P.rootWorkzoneId)}`)).body.api1Id : '');
    assert.equal(l.parentUuid, uuidOf(P.rootWorkzoneId));
    assert.deepEqual(l.data, { name: 'Valves', description: 'All valves', color: '#aabbcc', pending: false, metadataDefinitions: [{ id: 'm1', name: 'Floor' }] });
    assert.equal(l.tags.length, 2);
    assert.equal(l.tags[0].type, 'tag');
    assert.equal(l.tags[0].parentId, l.id);
    assert.deepEqual(l.tags[1].data.boundingBox, [-0.5, -0.5, -0.5, 0.5, 0.5, 0.5]);
    assert.ok(l.tags[1].data.id, 'a tag without data.id gets its own id');
    const got = await w.as.viewer!('GET', `${lists(P)}/${l.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, l.tags, 'the full list (written by the store) equals the create answer (written by the route)');
    const all = await w.as.viewer!('GET', lists(P));
    assert.equal(all.status, 200);
    assert.ok(all.body.some((x: any) => x.id === l.id));
  });

  test('update inserts, updates (keeping metadata) and deletes in one request; since returns changes and deletions', async () => {
    const l = await createList({
      data: { name: 'Pumps', metadataDefinitions: [{ id: 'm1', name: 'Floor' }] },
      insert: [{ id: 'A', boundingBox: box(0), metadata: [{ id: 'm1', value: 'L1' }] }, { id: 'B', boundingBox: box(1) }, { id: 'C', boundingBox: box(2) }],
    });
    const [a, b, c] = l.tags;
    const before = await serviceNow(t);
    await advanceClock(t, 60);
    const up = await w.as.manager!('PUT', `${lists(P)}/${l.id}`, {
      data: { description: 'updated' },
      insert: [{ id: 'D', boundingBox: box(3) }],
      update: { [a.id]: { id: 'A2', boundingBox: box(9) } },
      delete: [b.id],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal(up.body.data.description, 'updated');
    assert.equal(up.body.data.name, 'Pumps', 'fields not given are kept');
    assert.equal(up.body.tagsVersion, 2);
    assert.deepEqual(up.body.tags.map((x: any) => x.data?.id ?? `deleted ${x.id}`), ['D', 'A2', `deleted ${b.id}`]);
    assert.deepEqual(up.body.tags[1].data.metadata, [{ id: 'm1', value: 'L1' }], 'an API 1 update keeps the metadata');
    assert.deepEqual(up.body.tags[2], { id: b.id, isDeleted: true });

    const sinceTime = await w.as.viewer!('GET', `${lists(P)}/${l.id}?since=${encodeURIComponent(before.toISOString())}`);
    assert.equal(sinceTime.status, 200);
    const byId = new Map(sinceTime.body.map((x: any) => [x.id, x]));
    assert.equal(byId.size, 3, JSON.stringify(sinceTime.body));
    assert.deepEqual(byId.get(b.id), { id: b.id, isDeleted: true });
    assert.ok(!byId.has(c.id), 'unchanged tags are left out');
    const sinceDate = await w.as.viewer!('GET', `${lists(P)}/${l.id}?since=2000-01-01`);
    assert.equal(sinceDate.body.length, 4, 'a date: every tag changed since that day, the deleted one included');
    const future = await w.as.viewer!('GET', `${lists(P)}/${l.id}?since=2999-01-01`);
    assert.deepEqual(future.body, []);
    const live = await w.as.viewer!('GET', `${lists(P)}/${l.id}`);
    assert.deepEqual(live.body.map((x: any) => x.data.id).sort(), ['A2', 'C', 'D']);

    // The same history through API 2.
    const v2 = await w.as.viewer!('GET', `${A2}/projects/${uuidOf(P.id)}/tag-lists/${l.id}/tags?afterVersion=1`);
    assert.equal(v2.status, 200);
    assert.deepEqual(v2.body.map((x: any) => [x.api1Id, x.isDeleted]).sort(), [[a.id, false], [b.id, true], [up.body.tags[0].id, false]].sort());

    // Lists updated since a time.
    const listsSince = await w.as.viewer!('GET', `${lists(P)}?since=${encodeURIComponent(before.toISOString())}`);
    assert.ok(listsSince.body.some((x: any) => x.id === l.id));
    const listsFuture = await w.as.viewer!('GET', `${lists(P)}?since=2999-01-01T00:00:00Z`);
    assert.deepEqual(listsFuture.body, []);
    assertApi1Error(await w.as.viewer!('GET', `${lists(P)}?since=yesterday`), 400, 'invalid-input');
  });

  test('an update that fails writes nothing', async () => {
    const l = await createList({ insert: [{ id: 'A', boundingBox: box(0) }] });
    const res = await w.as.manager!('PUT', `${lists(P)}/${l.id}`, {
      data: { name: 'Renamed' }, insert: [{ id: 'ok', boundingBox: box(1) }], delete: [l.tags[0].id],
      update: { [l.tags[0].id]: { boundingBox: [2, 0, 0, 1, 1, 1] } },
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    const bad = await w.as.manager!('PUT', `${lists(P)}/${l.id}`, { data: { name: 'Renamed' }, insert: [{ id: 'x', boundingBox: [2, 0, 0, 1, 1, 1] }] });
    const e = assertApi1Error(bad, 400, 'invalid-input');
    assert.match(e.message, /boundingBox\[0\]/);
    const now = await w.as.manager!('GET', lists(P));
    assert.equal(now.body.find((x: any) => x.id === l.id).data.name, l.data.name);
    assert.deepEqual((await w.as.manager!('GET', `${lists(P)}/${l.id}`)).body.map((x: any) => x.data.id), ['A']);
  });

  test('cleanRemovedMetadataIds strips metadata whose definition was removed', async () => {
    const l = await createList({
      data: { name: 'Meta', metadataDefinitions: [{ id: 'm1', name: 'Floor' }, { id: 'm2', name: 'Room' }] },
      insert: [{ id: 'A', metadata: [{ id: 'm1', value: '1' }, { id: 'm2', value: '2' }] }],
    });
    const res = await w.as.manager!('PUT', `${lists(P)}/${l.id}`, { data: { metadataDefinitions: [{ id: 'm1', name: 'Floor' }] }, cleanRemovedMetadataIds: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await w.as.manager!('GET', `${lists(P)}/${l.id}`)).body[0].data.metadata, [{ id: 'm1', value: '1' }]);
  });

  test('delete answers a deleted-tag marker per tag', async () => {
    const l = await createList({ insert: [{ id: 'A' }, { id: 'B' }] });
    const res = await w.as.manager!('DELETE', `${lists(P)}/${l.id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.sort((x: any, y: any) => x.id.localeCompare(y.id)), l.tags.map((x: any) => ({ id: x.id, isDeleted: true })).sort((x: any, y: any) => x.id.localeCompare(y.id)));
    assertApi1Error(await w.as.manager!('GET', `${lists(P)}/${l.id}`), 404, 'tag-list-not-found');
  });

  test('detect marks the list pending; a pending list refuses changes', async () => {
    await t.core.jobRunner.stop();
    let l: any;
    try {
      const scan = await scanIn(t.core, P.id, P.rootWorkzoneId);
      l = await createList({ detect: { classes: ['valve'], fileIds: [scan] } });
      assert.equal(l.data.pending, true);
      assertApi1Error(await w.as.manager!('PUT', `${lists(P)}/${l.id}`, { insert: [{ id: 'x' }] }), 409, 'tag-list-pending');
      await t.core.jobRunner.drain();
    } finally {
      t.core.jobRunner.start();
    }
    const after = await w.as.manager!('GET', lists(P));
    assert.equal(after.body.find((x: any) => x.id === l.id).data.pending, false, 'the default detector finishes with no tags');
    assert.equal((await w.as.manager!('PUT', `${lists(P)}/${l.id}`, { insert: [{ id: 'x' }] })).status, 200);
  });

  test('capacity, limits and permissions answer {code, message}', async () => {
    const tiny = await createProject(w.as.projectOwner!, { name: 'Tiny P1', subscriptionId: SUB_TINY });
    const over = await w.as.projectOwner!('POST', lists(tiny), { parentId: uuidOf(tiny.rootWorkzoneId), data: { name: 'x' }, insert: [{ id: '1' }, { id: '2' }, { id: '3' }] });
    assertApi1Error(over, 400, 'capacity-exceeded-tag');
    assert.equal((await w.as.projectOwner!('GET', lists(tiny))).body.length, 0, 'the list was not created either');
    const fields = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: 'v' }));
    assertApi1Error(await w.as.manager!('POST', lists(P), { parentId: uuidOf(P.rootWorkzoneId), data: { name: 'x' }, insert: [{ id: 'c', customFields: fields }] }), 400, 'invalid-input');
    assertApi1Error(await w.as.manager!('POST', lists(P), { parentId: uuidOf(P.rootWorkzoneId), data: { name: 'x', metadataDefinitions: [{ id: 'a', name: 'id' }] } }), 400, 'invalid-input');
    assertApi1Error(await w.as.viewer!('POST', lists(P), { parentId: uuidOf(P.rootWorkzoneId), data: { name: 'x' } }), 403, 'create-tag-list-forbidden');
    const l = await createList();
    assertApi1Error(await w.as.viewer!('PUT', `${lists(P)}/${l.id}`, { insert: [{ id: 'x' }] }), 403, 'update-tag-list-forbidden');
    assertApi1Error(await w.as.viewer!('DELETE', `${lists(P)}/${l.id}`), 403, 'delete-tag-list-forbidden');
    assertApi1Error(await w.as.member!('GET', lists(P)), 403, 'not-member-of-project');
    assertApi1Error(await w.as.projectLister!('GET', lists(P)), 403, 'not-member-of-project');
    assertApi1Error(await w.as.manager!('GET', `${lists(P)}/urn:svc:tag-list:${uuidOf(P.id)}`), 400, 'invalid-tag-list-urn');
  });
});
