// API 1 projects (spec "API 1 resources": Project and Workzone; CONTRACT §6): find (all
// the caller sees, or the one owning ?workzoneId=), get (the shape, API 1 ids only), and
// the subscription change with its {status, type} refusal.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, GROUP_ID, PROJECT_ACTORS, SURVEYOR_ID, addMembers, assertApi1Error, createProject, createZone, emailOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const API1_ID = /^[a-zA-Z0-9_-]{1,50}$/;

let t: TestApp;
let w: World;
/** API 1 ids by kind and name (users by actor name, roles, groups and subscriptions by name). */
const id1 = { users: new Map<string, string>(), roles: new Map<string, string>(), groups: new Map<string, string>(), subs: new Map<string, string>() };
let accountId1: string;
let P: any;
let Z1: any;
let Q: any;
let D: any;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  accountId1 = (await w.as.owner!('GET', A1)).body.id;
  for (const u of (await w.as.owner!('GET', `${A1}/users`)).body) id1.users.set(u.email, u.id);
  for (const r of (await w.as.owner!('GET', `${A1}/roles`)).body) id1.roles.set(r.name, r.id);
  for (const g of (await w.as.owner!('GET', `${A1}/groups`)).body) id1.groups.set(g.name, g.id);
  for (const s of (await w.as.owner!('GET', `${A1}/subscriptions`)).body) id1.subs.set(s.name, s.id);

  P = await createProject(w.as.projectOwner!, {
    name: 'Plant', description: 'Unit 2', location: { lat: 45.5, lng: -73.6 }, spatialReference: { authName: 'EPSG', code: '2154' },
  });
  Z1 = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Z1');
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }], groups: [{ group: GROUP_ID, role: w.roles.Contributor }] });
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('dave'), role: SURVEYOR_ID }] }, [Z1.id]);
  Q = await createProject(w.as.projectOwner!, { name: 'Quarry' });
  D = await createProject(w.as.projectOwner!, { name: 'Demolished' });
  assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(D.id)}`)).status, 204);
});
after(() => t.close());

const u1 = (name: string) => id1.users.get(emailOf(name))!;

describe('get project', () => {
  test('the Project shape, with API 1 ids only', async () => {
    const res = await w.as.viewer!('GET', `${A1}/projects/${P.api1Id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = res.body;
    assert.equal(p.id, P.api1Id);
    assert.equal(p.type, 'project');
    assert.equal(p.accountId, accountId1);
    assert.equal(p.planId, id1.subs.get('A'));
    assert.equal(p.ownerId, u1('projectOwner'));
    assert.equal(p.createdBy, u1('projectOwner'));
    assert.equal(p.name, 'Plant');
    assert.equal(p.description, 'Unit 2');
    assert.deepEqual(p.location, { lat: 45.5, lng: -73.6 });
    assert.equal(p.isDeleted, false);
    assert.equal(p.deletedBy, null);
    assert.equal(p.deletedAt, null);
    assert.equal(typeof p.isdemo, 'boolean');
    assert.equal(typeof p.region, 'string');
    assert.ok(!Number.isNaN(Date.parse(p.createdAt)) && !Number.isNaN(Date.parse(p.updatedAt)));
    assert.equal(p.scanCount, 0);
    assert.equal(p.scanSize, 0);
    assert.equal(p.workzoneCount, 2);
    assert.equal(p.rootWorkzoneCount, 1);
    assert.deepEqual(p.settings, { spatialReference: { authName: 'EPSG', code: '2154' } });
    assert.deepEqual(new Set(p.userIds), new Set([u1('projectOwner'), u1('viewer'), u1('dave')]));
    assert.deepEqual(p.groupIds, [id1.groups.get('Field team')]);
    assert.deepEqual(new Set(p.roleIds), new Set(['Manager', 'Viewer', 'Contributor', 'Surveyor'].map((n) => id1.roles.get(n))));
    assert.deepEqual(p.permissions, { administrator: false, manager: false, contributor: true });

    // Work zones: the root flagged, contributors per zone (inherited down the tree).
    assert.equal(p.workzones.length, 2);
    const root = p.workzones.find((z: any) => z.root);
    const z1 = p.workzones.find((z: any) => !z.root);
    assert.equal(root.uuid, uuidOf(P.rootWorkzoneId));
    assert.equal(p.projectIdDefault, root.id);
    assert.equal(z1.id, Z1.api1Id);
    assert.equal(z1.uuid, uuidOf(Z1.id));
    assert.equal(z1.name, 'Z1');
    for (const z of p.workzones) {
      assert.equal(z.type, 'workzone');
      assert.equal(z.projectId, P.api1Id);
      assert.equal(z.scanCount, 0);
      assert.deepEqual(z.groupContributors, [{ groupId: id1.groups.get('Field team'), roleId: id1.roles.get('Contributor') }]);
    }
    const contributors = (z: any) => new Map(z.userContributors.map((c: any) => [c.userId, c.roleId]));
    assert.deepEqual(contributors(root), new Map([[u1('projectOwner'), id1.roles.get('Manager')], [u1('viewer'), id1.roles.get('Viewer')]]));
    assert.deepEqual(
      contributors(z1),
      new Map([[u1('projectOwner'), id1.roles.get('Manager')], [u1('viewer'), id1.roles.get('Viewer')], [u1('dave'), id1.roles.get('Surveyor')]]),
    );
    assert.deepEqual(new Set(z1.roleIds), new Set(['Manager', 'Viewer', 'Contributor', 'Surveyor'].map((n) => id1.roles.get(n))));

    // API 1 ids, never UUIDs or URNs, wherever an id is named.
    const ids = [p.id, p.accountId, p.planId, p.ownerId, p.createdBy, p.projectIdDefault, ...p.userIds, ...p.groupIds, ...p.roleIds,
      ...p.workzones.flatMap((z: any) => [z.id, z.projectId, ...z.roleIds, ...z.userContributors.flatMap((c: any) => [c.userId, c.roleId])])];
    for (const id of ids) {
      assert.match(id, API1_ID);
      assert.doesNotMatch(id, UUID);
    }
  });

  test('permissions {administrator, manager, contributor} per caller', async () => {
    const flags = async (who: string) => (await w.as[who]!('GET', `${A1}/projects/${P.api1Id}`)).body.permissions;
    assert.deepEqual(await flags('projectOwner'), { administrator: true, manager: true, contributor: true });
    assert.deepEqual(await flags('owner'), { administrator: true, manager: true, contributor: false });
    assert.deepEqual(await flags('administrator'), { administrator: true, manager: true, contributor: false });
    assert.deepEqual(await flags('projectLister'), { administrator: false, manager: false, contributor: false });
    assert.deepEqual(await flags('dave'), { administrator: false, manager: false, contributor: true });
  });

  test('a member of a sub-zone sees the zones he reaches; the project is addressed by API 1 id or UUID, never a URN', async () => {
    const dave = (await w.as.dave!('GET', `${A1}/projects/${uuidOf(P.id)}`)).body;
    assert.equal(dave.id, P.api1Id);
    assert.deepEqual(dave.workzones.map((z: any) => z.id), [Z1.api1Id]);
    assertApi1Error(await w.as.owner!('GET', `${A1}/projects/${P.id}`), 400, 'invalid-project-urn');
    assertApi1Error(await w.as.owner!('GET', `${A1}/projects/nope_nope`), 404, 'project-not-found');
  });

  test('a deleted project is still shown, with isDeleted, deletedBy and deletedAt', async () => {
    const d = (await w.as.projectOwner!('GET', `${A1}/projects/${D.api1Id}`)).body;
    assert.equal(d.isDeleted, true);
    assert.equal(d.deletedBy, u1('projectOwner'));
    assert.ok(!Number.isNaN(Date.parse(d.deletedAt)));
  });
});

describe('find projects', () => {
  test('every project the caller sees, deleted ones included; plain members only theirs', async () => {
    const all = (await w.as.owner!('GET', `${A1}/projects`)).body;
    const byId = new Map(all.map((p: any) => [p.id, p]));
    for (const p of [P, Q, D]) assert.ok(byId.has(p.api1Id), p.name);
    assert.equal((byId.get(D.api1Id) as any).isDeleted, true);
    assert.deepEqual((byId.get(P.api1Id) as any).workzones, [], 'the account owner is no member of P: no zones');
    const own = (await w.as.projectOwner!('GET', `${A1}/projects`)).body.find((p: any) => p.id === P.api1Id);
    assert.equal(own.workzones.length, 2);
    assert.deepEqual((await w.as.viewer!('GET', `${A1}/projects`)).body.map((p: any) => p.id), [P.api1Id]);
    assert.deepEqual((await w.as.member!('GET', `${A1}/projects`)).body, []);
  });

  test('?workzoneId= (API 1 id or UUID): only the project owning the zone; unknown: 404; not visible: []', async () => {
    for (const ref of [Z1.api1Id, uuidOf(Z1.id)]) {
      const res = await w.as.owner!('GET', `${A1}/projects?workzoneId=${ref}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.map((p: any) => p.id), [P.api1Id]);
    }
    assert.deepEqual((await w.as.owner!('GET', `${A1}/projects?workzoneId=${Q.api1Id}`)).status, 404);
    assertApi1Error(await w.as.owner!('GET', `${A1}/projects?workzoneId=unknownzone`), 404, 'workzone-not-found');
    const hidden = await w.as.member!('GET', `${A1}/projects?workzoneId=${Z1.api1Id}`);
    assert.equal(hidden.status, 200, JSON.stringify(hidden.body));
    assert.deepEqual(hidden.body, []);
  });

  test('find answers each project as get does, for every caller (zones read, members, scans per zone, flags), read for all projects at once', async () => {
    const S = await createProject(w.as.projectOwner!, { name: 'Survey' });
    const S1 = await createZone(w.as.projectOwner!, S.id, S.rootWorkzoneId, 'S1');
    const S2 = await createZone(w.as.projectOwner!, S.id, S1.id, 'S2');
    await addMembers(w.as.projectOwner!, S.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }] });
    await addMembers(w.as.projectOwner!, S.id, { groups: [{ group: GROUP_ID, role: w.roles.Contributor }] }, [S1.id]);
    await addMembers(w.as.projectOwner!, S.id, { users: [{ user: emailOf('dave'), role: SURVEYOR_ID }] }, [S2.id]);
    await upload(t, w.as.projectOwner!, S.id, S.rootWorkzoneId, [{ name: 'Root scan', extension: 'e57', content: bytes(300, 1) }]);
    await upload(t, w.as.projectOwner!, S.id, S2.id, [
      { name: 'Deep scan', extension: 'e57', content: bytes(200, 2) }, { name: 'Report', extension: 'pdf', content: bytes(100, 3) },
    ]);
    let compared = 0;
    for (const who of [...PROJECT_ACTORS, 'dave', 'alice']) {
      const found = await w.as[who]!('GET', `${A1}/projects`);
      if (who === 'outsider') {
        assert.notEqual(found.status, 200, 'another account\'s user finds nothing here');
        continue;
      }
      assert.equal(found.status, 200, `${who}: ${JSON.stringify(found.body)}`);
      const one = [];
      for (const p of found.body) {
        const got = await w.as[who]!('GET', `${A1}/projects/${p.id}`);
        assert.equal(got.status, 200, `${who} ${p.name}: ${JSON.stringify(got.body)}`);
        one.push(got.body);
      }
      assert.deepEqual(found.body, one, who);
      compared += found.body.length;
    }
    assert.ok(compared >= 15, `${compared} projects compared`);
    const scans = (who: string) => async () => {
      const s = (await w.as[who]!('GET', `${A1}/projects`)).body.find((p: any) => p.id === S.api1Id);
      return new Map(s.workzones.map((z: any) => [z.name, [z.scanCount, z.scanSize]]));
    };
    assert.deepEqual(await scans('projectOwner')(), new Map([['Survey', [1, 300]], ['S1', [0, 0]], ['S2', [1, 200]]]));
    assert.deepEqual(await scans('dave')(), new Map([['S2', [1, 200]]]), 'a member of a sub-zone: that zone only');
    assert.deepEqual(await scans('alice')(), new Map([['S1', [0, 0]], ['S2', [1, 200]]]), 'through a group: its zones');
  });
});

describe('modify project subscription (PATCH)', () => {
  test('[{op: "replace", path: <current>, value: <new>}] moves the project to the new subscription', async () => {
    const url = `${A1}/projects/${Q.api1Id}`;
    const res = await w.as.owner!('PATCH', url, [{ op: 'replace', path: id1.subs.get('A'), value: id1.subs.get('B') }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.planId, id1.subs.get('B'));
    assert.equal(res.body.id, Q.api1Id);
    assert.equal((await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(Q.id)}`)).body.subscriptionId, `urn:svc:subscription:b2222222-2222-4222-8222-222222222222`);
    // UUIDs work too.
    const back = await w.as.owner!('PATCH', url, [{ op: 'replace', path: 'b2222222-2222-4222-8222-222222222222', value: 'b1111111-1111-4111-8111-111111111111' }]);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.planId, id1.subs.get('A'));
  });

  test('a bad op answers 400 {status, type}; so does a path that is not the current subscription; nothing changes', async () => {
    const url = `${A1}/projects/${Q.api1Id}`;
    for (const body of [
      [{ op: 'add', path: id1.subs.get('A'), value: id1.subs.get('B') }],
      [{ op: 'remove', path: id1.subs.get('A'), value: id1.subs.get('B') }],
      [{ op: 'replace', path: id1.subs.get('B'), value: id1.subs.get('A') }],
    ]) {
      const res = await w.as.owner!('PATCH', url, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ['status', 'type']);
      assert.equal(res.body.status, 400);
      assert.equal(typeof res.body.type, 'string');
    }
    assert.equal((await w.as.owner!('GET', url)).body.planId, id1.subs.get('A'));
  });

  test('several ops: every path must name the current subscription, checked before anything changes (all or nothing)', async () => {
    const url = `${A1}/projects/${Q.api1Id}`;
    const A = id1.subs.get('A');
    const B = id1.subs.get('B');
    const chained = await w.as.owner!('PATCH', url, [{ op: 'replace', path: A, value: B }, { op: 'replace', path: B, value: A }]);
    assert.equal(chained.status, 400, JSON.stringify(chained.body));
    assert.deepEqual(Object.keys(chained.body).sort(), ['status', 'type']);
    assert.equal((await w.as.owner!('GET', url)).body.planId, A, 'the first op was not applied');
    const second = await w.as.owner!('PATCH', url, [{ op: 'replace', path: A, value: B }, { op: 'replace', path: A, value: id1.subs.get('Inactive') }]);
    assertApi1Error(second, 400, 'subscription-not-active');
    assert.equal((await w.as.owner!('GET', url)).body.planId, A, 'nothing applied');
  });

  test('an inactive or unknown target subscription, and malformed bodies, are refused with API 1 errors', async () => {
    const url = `${A1}/projects/${Q.api1Id}`;
    assertApi1Error(await w.as.owner!('PATCH', url, [{ op: 'replace', path: id1.subs.get('A'), value: id1.subs.get('Inactive') }]), 400, 'subscription-not-active');
    assertApi1Error(await w.as.owner!('PATCH', url, [{ op: 'replace', path: id1.subs.get('A'), value: 'nosuchplan' }]), 404, 'subscription-not-found');
    for (const body of [[], [{ op: 'replace', path: id1.subs.get('A') }], { op: 'replace' }]) {
      const res = await w.as.owner!('PATCH', url, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
    }
    assert.equal((await w.as.owner!('GET', url)).body.planId, id1.subs.get('A'));
  });
});
