// Cache invalidation across nodes, driven by domain events (docs/architecture.md "Domain
// events"): two nodes on one PostgreSQL database, each caching access facts for 60 s; a
// change committed on node A reaches node B's caches through LISTEN/NOTIFY within a short
// wait, never after the cache lifetime. Needs TEST_DATABASE_URL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { eventually, twoNodes } from '../support/two-nodes.ts';
import type { TestApp } from '../support/app.ts';
import {
  A2, addMembers, caller, createProject, createZone, emailOf, projectWorld, uuidOf, type Call, type World,
} from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';

/** Well under the 60-second cache lifetime: only an event explains a change seen this soon. */
const WAIT_MS = 3000;

describe('cache invalidation across nodes (PostgreSQL, domain events)', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  let w: World;
  /** Callers on node B, by name. */
  const onB: Record<string, Call> = {};
  const callerOnB = async (b: TestApp, name: string) => (onB[name] ??= caller(b, (await b.tokens(emailOf(name))).access_token));

  before(async () => {
    nodes = await twoNodes();
    w = await projectWorld(nodes.a);
    for (const name of ['alice', 'bob', 'carol', 'dave', 'projectOwner']) await callerOnB(nodes.b, name);
  });
  after(async () => {
    await nodes?.close();
  });

  const statusOnB = (name: string, url: string) => async () => (await onB[name]!('GET', url)).status;

  test('member.removed: a member removed on node A is refused on node B within a short wait', async () => {
    const p = await createProject(w.as.projectOwner!);
    const url = `${A2}/projects/${uuidOf(p.id)}/workzones`;
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: w.roles.Viewer }] });
    assert.equal(await statusOnB('alice', url)(), 200, 'node B caches alice\'s grants');
    const removed = await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/members/users/${w.ids.alice}`);
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    assert.equal(await eventually(statusOnB('alice', url), (s) => s === 403, WAIT_MS), 403);
  });

  test('role.updated: a role changed on node A takes effect on node B within a short wait', async () => {
    const role = await w.as.owner!('POST', `${A2}/roles`, { name: `Reader ${Date.now()}`, legacyPermissions: ['view3d'] });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: uuidOf(role.body.id) }] });
    const permissionsOnB = async () => ((await onB.bob!('GET', `${A2}/projects/${uuidOf(p.id)}`)).body.permissions as string[]).sort();
    const before = await permissionsOnB(); // node B caches bob's grants under the old role
    const updated = await w.as.owner!('PUT', `${A2}/roles/${uuidOf(role.body.id)}`, { name: role.body.name, legacyPermissions: ['view3d', 'annotate'] });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const after = await eventually(permissionsOnB, (perms) => perms.join() !== before.join(), WAIT_MS);
    assert.notDeepEqual(after, before, 'the new permissions hold on node B');
  });

  test('user.removed: a user removed from the account on node A loses the account on node B within a short wait', async () => {
    const url = `${A2}`;
    assert.equal(await statusOnB('carol', url)(), 200, 'node B caches carol\'s account facts');
    const res = await w.as.owner!('DELETE', `${A2}/members`, [w.ids.carol]);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.notEqual(await eventually(statusOnB('carol', url), (s) => s !== 200, WAIT_MS), 200);
  });

  test('user.signed-out-everywhere: an access token node B has cached is refused on node B from the next request after the sign-out on node A', async () => {
    const { access_token } = await nodes.a.tokens(emailOf('carol'));
    const onBWith = (token: string) => async () => (await nodes.b.app.inject({ url: '/api/isLogged', headers: { authorization: `Bearer ${token}` } })).statusCode;
    assert.equal(await onBWith(access_token)(), 200, 'node B caches the token and carol\'s revocation point');
    const out = await caller(nodes.a, access_token)('POST', '/api/2/me/sign-out-everywhere');
    assert.equal(out.status, 204, JSON.stringify(out.body));
    assert.equal(await eventually(onBWith(access_token), (s) => s === 401, WAIT_MS), 401);
    const fresh = await nodes.a.tokens(emailOf('carol'));
    assert.equal(await onBWith(fresh.access_token)(), 200, 'a token issued after it works on node B');
  });

  test('project.deleted: a project deleted on node A answers deleted-project on node B within a short wait', async () => {
    const p = await createProject(w.as.projectOwner!);
    const url = `${A2}/projects/${uuidOf(p.id)}/workzones`;
    assert.equal(await statusOnB('projectOwner', url)(), 200);
    assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}`)).status, 204);
    assert.equal(await eventually(statusOnB('projectOwner', url), (s) => s === 403, WAIT_MS), 403);
  });

  // The one-zone read's cache (src/modules/workzones/core/zone-views.ts): node B keeps the zone's read
  // model until the event of a change made on node A arrives.
  describe('a work zone\'s read model on node B', () => {
    const zoneOnB = (p: any, z: string, name = 'projectOwner') => async () =>
      (await onB[name]!('GET', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(z)}`)).body;
    /**
     * Read on node B once the set-up's own events have arrived there (a load overlapping an
     * event is not kept), so that B really holds the zone before the change.
     */
    const cachedOnB = async (read: () => Promise<any>) => {
      await read();
      await new Promise((r) => setTimeout(r, 300));
      return read();
    };

    test('file.registered: a scan registered on node A is counted on node B within a short wait', async () => {
      const p = await createProject(w.as.projectOwner!);
      const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId)).id;
      assert.equal((await cachedOnB(zoneOnB(p, z))).statsInfo.scanCount, 0, 'node B caches the zone');
      await upload(nodes.a, w.as.projectOwner!, p.id, z, [{ name: 'scan', extension: 'e57', content: bytes(100) }]);
      assert.equal((await eventually(zoneOnB(p, z), (b) => b.statsInfo.scanCount === 1, WAIT_MS)).statsInfo.scanCount, 1);
    });

    test('tag-list.changed: tags written on node A are counted on node B within a short wait', async () => {
      const p = await createProject(w.as.projectOwner!);
      const z = p.rootWorkzoneId;
      assert.equal((await cachedOnB(zoneOnB(p, z))).statsInfo.tagCount, 0, 'node B caches the zone');
      const list = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/tag-lists`, { workzoneId: z, tagListType: '3d', name: 'Pipes' });
      assert.equal(list.status, 201, JSON.stringify(list.body));
      const tags = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/tag-lists/${uuidOf(list.body.id)}/tags/bulk`, { create: [{ data: { id: 'P1' } }] });
      assert.equal(tags.status, 200, JSON.stringify(tags.body));
      assert.equal((await eventually(zoneOnB(p, z), (b) => b.statsInfo.tagCount === 1, WAIT_MS)).statsInfo.tagCount, 1);
    });

    test('workzone.updated: a zone renamed on node A is read with its new name on node B within a short wait', async () => {
      const p = await createProject(w.as.projectOwner!);
      const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Before')).id;
      assert.equal((await cachedOnB(zoneOnB(p, z))).name, 'Before', 'node B caches the zone');
      const put = await w.as.projectOwner!('PUT', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(z)}`, { name: 'After' });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal((await eventually(zoneOnB(p, z), (b) => b.name === 'After', WAIT_MS)).name, 'After');
    });

    test('member.added and member.removed: the zone\'s roles on node B follow, and the removed member is refused there', async () => {
      const p = await createProject(w.as.projectOwner!);
      const z = p.rootWorkzoneId;
      const roles = (b: any) => (b.roleIds as string[]).map(uuidOf).sort().join();
      assert.equal(roles(await cachedOnB(zoneOnB(p, z))), w.roles.Manager, 'node B caches the zone');
      await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('dave'), role: w.roles.Viewer }] });
      const withDave = [w.roles.Manager, w.roles.Viewer].sort().join();
      assert.equal(roles(await eventually(zoneOnB(p, z), (b) => roles(b) === withDave, WAIT_MS)), withDave);
      assert.equal(roles(await cachedOnB(zoneOnB(p, z, 'dave'))), withDave, 'dave reads the zone on node B (cached there)');
      const removed = await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/members/users/${w.ids.dave}`);
      assert.equal(removed.status, 204, JSON.stringify(removed.body));
      assert.equal(roles(await eventually(zoneOnB(p, z), (b) => roles(b) === w.roles.Manager, WAIT_MS)), w.roles.Manager);
      const url = `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(z)}`;
      assert.equal(await eventually(statusOnB('dave', url), (s) => s === 403, WAIT_MS), 403);
    });
  });

  // A caller's project list (src/modules/projects/core/project-lists.ts): node B keeps it, with its
  // serialised body, until the event of a change made on node A in the account arrives.
  describe('a caller\'s project list on node B', () => {
    const listOnB = (name: string) => async () => (await onB[name]!('GET', `${A2}/projects`)).body as any[];
    const listedOnB = async (name: string) => {
      await listOnB(name)();
      await new Promise((r) => setTimeout(r, 300));
      return listOnB(name)();
    };
    const has = (p: any) => (l: any[]) => l.some((x) => x.id === p.id);

    test('member.added: a project the caller joins on node A appears in his list on node B within a short wait', async () => {
      const p = await createProject(w.as.projectOwner!);
      assert.ok(!has(p)(await listedOnB('bob')), 'node B caches bob\'s list');
      await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] });
      assert.ok(has(p)(await eventually(listOnB('bob'), has(p), WAIT_MS)));
    });

    test('file.registered: a scan registered on node A is counted in the list on node B within a short wait', async () => {
      const p = await createProject(w.as.projectOwner!);
      const counted = (n: number) => (l: any[]) => l.find((x) => x.id === p.id)?.statsInfo.scanCount === n;
      assert.ok(counted(0)(await listedOnB('projectOwner')), 'node B caches the list');
      await upload(nodes.a, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'scan', extension: 'e57', content: bytes(100) }]);
      assert.ok(counted(1)(await eventually(listOnB('projectOwner'), counted(1), WAIT_MS)));
    });
  });
});
