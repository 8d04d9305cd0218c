// The one-zone read's per-node cache (src/modules/workzones/core/zone-views.ts): a zone's read model
// (its fields, the roles present on it, its scan and tag counts) is kept until a domain event
// changes it. Each change below is read back at once, on this node, right after its call
// answered: each case fails if its event's row in core/events/invalidation.ts stops dropping
// the cached model. On PGlite, or TEST_DATABASE_URL's PostgreSQL (one node; two nodes:
// cluster-invalidation.test.ts).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { queryLog } from '../support/query-counter.ts';
import { A2, addMembers, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';
import { loadConfig } from '../../src/config.ts';

const log = queryLog();
let t: TestApp;
let w: World;
before(async () => {
  t = await testApp({}, { wrapSql: log.wrapSql });
  w = await projectWorld(t);
  await t.core.jobRunner.stop();
});
after(() => t.close());

const pOf = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;
const zOf = (p: any, z: string) => `${pOf(p)}/workzones/${uuidOf(z)}`;

/** The zone as the project owner reads it (200 asserted). */
async function zone(p: any, z: string, as = w.as.projectOwner!): Promise<any> {
  const res = await as('GET', zOf(p, z));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
const roleIdsOf = async (p: any, z: string) => (await zone(p, z)).roleIds.map(uuidOf).sort();

/** A project with a zone under its root, read once (so cached) before each change. */
async function readZone(): Promise<{ p: any; z: string }> {
  const p = await createProject(w.as.projectOwner!);
  const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId)).id;
  await zone(p, z);
  return { p, z };
}

test('cache: a zone read again issues no query (what the cases below invalidate is really kept)', async () => {
  const { p, z } = await readZone();
  const again = await log.measure(() => w.as.projectOwner!('GET', zOf(p, z)));
  assert.equal(again.result.status, 200);
  assert.deepEqual(again.texts, []);
});

describe('counts', () => {
  test('file.registered and file.deleted: the zone\'s scan count and size follow at once', async () => {
    const { p, z } = await readZone();
    const [f] = await upload(t, w.as.projectOwner!, p.id, z, [{ name: 'scan', extension: 'e57', content: bytes(300) }]);
    assert.deepEqual((await zone(p, z)).statsInfo, { scanCount: 1, scanSize: 300, tagCount: 0 });
    const del = await w.as.projectOwner!('DELETE', `${pOf(p)}/files/${f!.id}`);
    assert.equal(del.status, 204, JSON.stringify(del.body));
    assert.deepEqual((await zone(p, z)).statsInfo, { scanCount: 0, scanSize: 0, tagCount: 0 });
  });

  test('tag-list.changed, .updated (a move to another zone) and .deleted: both zones\' tag counts follow at once', async () => {
    const { p, z } = await readZone();
    const other = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId)).id;
    await zone(p, other);
    const lists = `${pOf(p)}/tag-lists`;
    const list = await w.as.projectOwner!('POST', lists, { workzoneId: z, tagListType: '3d', name: 'Valves' });
    assert.equal(list.status, 201, JSON.stringify(list.body));
    const L = `${lists}/${uuidOf(list.body.id)}`;
    const tags = await w.as.projectOwner!('POST', `${L}/tags/bulk`, {
      create: [{ data: { id: 'V1' } }, { data: { id: 'V2' } }],
    });
    assert.equal(tags.status, 200, JSON.stringify(tags.body));
    assert.equal((await zone(p, z)).statsInfo.tagCount, 2, 'tag-list.changed');
    const moved = await w.as.projectOwner!('PUT', L, { workzoneId: other, tagListType: '3d', name: 'Valves' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await zone(p, z)).statsInfo.tagCount, 0, 'tag-list.updated: the zone it left');
    assert.equal((await zone(p, other)).statsInfo.tagCount, 2, 'tag-list.updated: the zone it joined');
    assert.equal((await w.as.projectOwner!('DELETE', L)).status, 204);
    assert.equal((await zone(p, other)).statsInfo.tagCount, 0, 'tag-list.deleted');
  });
});

describe('the zone itself', () => {
  test('workzone.updated: a renamed zone is read with its new name and description at once', async () => {
    const { p, z } = await readZone();
    const put = await w.as.projectOwner!('PUT', zOf(p, z), { name: 'Renamed', description: 'new words' });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.name, 'Renamed', 'the PUT answers the new fields');
    const got = await zone(p, z);
    assert.deepEqual([got.name, got.description], ['Renamed', 'new words']);
  });

  test('workzone.deleted: a deleted zone is 404 at once', async () => {
    const { p, z } = await readZone();
    assert.equal((await w.as.projectOwner!('DELETE', zOf(p, z))).status, 204);
    assert.equal((await w.as.projectOwner!('GET', zOf(p, z))).status, 404);
  });
});

describe('roles present on the zone', () => {
  test('member.added, member.access-removed, member.removed: roleIds follow at once, and a removed member is refused', async () => {
    const { p, z } = await readZone();
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager]);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: w.roles.Viewer }] }, [z]);
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager, w.roles.Viewer].sort(), 'member.added');
    await zone(p, z, w.as.alice!); // alice's read caches her grants and the zone
    const removed = await w.as.projectOwner!('DELETE', `${pOf(p)}/members/users/${w.ids.alice}`);
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager], 'member.removed');
    assert.equal((await w.as.alice!('GET', zOf(p, z))).status, 403, 'the removed member');
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Contributor }] }, [z]);
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager, w.roles.Contributor].sort());
    const gone = await w.as.projectOwner!('DELETE', `${zOf(p, z)}/members/users/${w.ids.bob}?allowRemoveOnParents=true`);
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager], 'member.access-removed');
  });

  test('user.removed: a user who leaves the account leaves the zone\'s roles at once', async () => {
    const { p, z } = await readZone();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('heidi'), role: w.roles.Viewer }] }, [z]);
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager, w.roles.Viewer].sort());
    const res = await w.as.owner!('DELETE', `${A2}/members`, [w.ids.heidi]);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager]);
  });

  test('group.deleted: a deleted group leaves the zone\'s roles at once', async () => {
    const { p, z } = await readZone();
    const g = await w.as.owner!('POST', `${A2}/groups`, { name: `Crew ${Date.now()}` });
    assert.equal(g.status, 201, JSON.stringify(g.body));
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: g.body.id, role: w.roles.Contributor }] }, [z]);
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager, w.roles.Contributor].sort());
    const del = await w.as.owner!('DELETE', `${A2}/groups/${uuidOf(g.body.id)}`);
    assert.equal(del.status, 204, JSON.stringify(del.body));
    assert.deepEqual(await roleIdsOf(p, z), [w.roles.Manager]);
  });
});

test('WORKZONE_CACHE_ENTRIES=0 turns the cache off: every read queries', async () => {
  const off = queryLog();
  const app = await testApp({ WORKZONE_CACHE_ENTRIES: '0' }, { wrapSql: off.wrapSql });
  try {
    const world = await projectWorld(app);
    const p = await createProject(world.as.projectOwner!);
    const url = zOf(p, p.rootWorkzoneId);
    assert.equal((await world.as.projectOwner!('GET', url)).status, 200);
    const again = await off.measure(() => world.as.projectOwner!('GET', url));
    assert.equal(again.result.status, 200);
    assert.equal(again.texts.length, 1, JSON.stringify(again.texts));
  } finally {
    await app.close();
  }
});

test('WORKZONE_CACHE_ENTRIES config rule: an integer from 0 to 1,000,000, 10,000 by default', () => {
  assert.equal(loadConfig({}).workzoneCacheEntries, 10_000);
  assert.equal(loadConfig({ WORKZONE_CACHE_ENTRIES: '0' }).workzoneCacheEntries, 0);
  for (const bad of ['-1', '1000001', 'lots', '1.5']) assert.throws(() => loadConfig({ WORKZONE_CACHE_ENTRIES: bad }), /WORKZONE_CACHE_ENTRIES/, bad);
});
