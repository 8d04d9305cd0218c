// Work zones through API 2: create under a parent (inheriting its members), get, PUT,
// DELETE with the subtree (members left with no zone stop being members), the root's
// protection, the asynchronous copy (202, a job, the copy with its members, the e-mail,
// 409 while one is queued), and the spatial-reference values.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, GROUP_ID, SUB_B, accessList, addMembers, assertProblem, createProject, createZone, emailOf, entryOf, outbox, projectWorld, uuidOf, type World,
} from '../support/projects.ts';

let t: TestApp;
let w: World;
before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  // Copies run when the test says so (core.jobRunner.drain()), never behind its back.
  await t.core.jobRunner.stop();
});
after(() => t.close());

const pOf = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;
const zOf = (p: any, z: string) => `${pOf(p)}/workzones/${uuidOf(z)}`;

/** Zones of a project as the project owner lists them, by name. */
async function zonesByName(p: any): Promise<Map<string, any>> {
  const res = await w.as.projectOwner!('GET', `${pOf(p)}/workzones`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return new Map(res.body.map((z: any) => [z.name, z]));
}

describe('create, get, PUT', () => {
  test('a zone under a parent: 201 with parentId and rootWorkzoneId; it inherits the parent\'s members', async () => {
    const p = await createProject(w.as.projectOwner!);
    const z1 = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z1');
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] }, [z1.id]);
    const res = await w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: 'Z1a', description: 'under Z1', parentWorkzoneId: z1.api1Id });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const z = res.body;
    assert.match(z.id, /^urn:svc:workzone:/);
    assert.equal(z.type, 'workzone');
    assert.equal(z.projectId, p.id);
    assert.equal(z.parentId, z1.id);
    assert.equal(z.rootWorkzoneId, p.rootWorkzoneId);
    assert.equal(z.name, 'Z1a');
    assert.equal(z.description, 'under Z1');
    assert.equal(z.modificationInfo.createdBy, `urn:svc:user:${w.ids.projectOwner}`);
    assert.deepEqual(new Set(z.roleIds), new Set([`urn:svc:role:${w.roles.Manager}`, `urn:svc:role:${w.roles.Viewer}`]));
    assert.ok(entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.bob!).workzoneIds.includes(z.id));
    assert.equal((await w.as.bob!('GET', zOf(p, z.id))).status, 200);
    // The get answers the same zone, by URN, UUID or API 1 id.
    for (const ref of [z.id, uuidOf(z.id), z.api1Id]) {
      const got = await w.as.projectOwner!('GET', `${pOf(p)}/workzones/${ref}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.id, z.id);
    }
  });

  test('a parent of another project is 404 workzone-not-found; a blank name 400', async () => {
    const p = await createProject(w.as.projectOwner!);
    const q = await createProject(w.as.projectOwner!);
    assertProblem(await w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: 'Z', parentWorkzoneId: q.rootWorkzoneId }), 404, 'workzone-not-found');
    assertProblem(await w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: '  ', parentWorkzoneId: p.rootWorkzoneId }), 400, 'invalid-input');
    assert.equal((await zonesByName(p)).size, 1);
  });

  test('PUT overwrites name and description (a missing description is erased)', async () => {
    const p = await createProject(w.as.projectOwner!);
    const z = (await w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: 'Before', description: 'text', parentWorkzoneId: p.rootWorkzoneId })).body;
    const res = await w.as.projectOwner!('PUT', zOf(p, z.id), { name: 'After' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'After');
    assert.equal(res.body.description, '');
    assert.equal((await w.as.projectOwner!('GET', zOf(p, z.id))).body.name, 'After');
  });
});

describe('DELETE', () => {
  test('deletes the subtree; a member left with no zone is a member no more; others keep their other zones', async () => {
    const p = await createProject(w.as.projectOwner!);
    const z1 = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z1');
    const z1a = await createZone(w.as.projectOwner!, p.id, z1.id, 'Z1a');
    const z1a1 = await createZone(w.as.projectOwner!, p.id, z1a.id, 'Z1a1');
    const z2 = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z2');
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] }, [z1a.id]);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Viewer }] });
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: 'c2222222-2222-4222-8222-222222222222', role: w.roles.Viewer }] }, [z1.id]);

    assert.equal((await w.as.projectOwner!('DELETE', zOf(p, z1a.id))).status, 204);
    for (const z of [z1a, z1a1]) assertProblem(await w.as.projectOwner!('GET', zOf(p, z.id)), 404, 'workzone-not-found');
    assert.deepEqual([...(await zonesByName(p)).keys()].sort(), [p.name, 'Z1', 'Z2'].sort());
    const access = await accessList(w.as.projectOwner!, p.id);
    assert.equal(entryOf(access, 'user', w.ids.bob!), undefined, 'bob had only Z1a and below');
    assertProblem(await w.as.bob!('GET', pOf(p)), 403, 'not-member-of-project');
    assert.deepEqual(new Set(entryOf(access, 'user', w.ids.carol!).workzoneIds), new Set([p.rootWorkzoneId, z1.id, z2.id]));
    assert.deepEqual(entryOf(access, 'group', 'c2222222-2222-4222-8222-222222222222').workzoneIds, [z1.id]);
    assert.equal((await w.as.projectOwner!('GET', pOf(p))).body.statsInfo.workzoneCount, 3);
    assertProblem(await w.as.projectOwner!('DELETE', zOf(p, z1a.id)), 404, 'workzone-not-found');
  });

  test('racing a delete: creating under the zone or renaming it answers 201/200 or 404, never 5xx', async () => {
    for (let round = 0; round < 10; round++) {
      const p = await createProject(w.as.projectOwner!);
      const z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Doomed');
      const [deleted, created, renamed] = await Promise.all([
        w.as.projectOwner!('DELETE', zOf(p, z.id)),
        w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: 'Child', parentWorkzoneId: z.id }),
        w.as.projectOwner!('PUT', zOf(p, z.id), { name: 'Renamed' }),
      ]);
      assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
      assert.ok([201, 404].includes(created.status), `create: ${created.status} ${JSON.stringify(created.body)}`);
      assert.ok([200, 404].includes(renamed.status), `rename: ${renamed.status} ${JSON.stringify(renamed.body)}`);
      if (created.status === 404) assert.equal(created.body.errorCode, 'workzone-not-found');
      if (renamed.status === 404) assert.equal(renamed.body.errorCode, 'workzone-not-found');
      assert.deepEqual([...(await zonesByName(p)).keys()], [p.name], 'the subtree is gone');
    }
  });

  test('the root work zone cannot be deleted: 400 cannot-delete-root-workzone', async () => {
    const p = await createProject(w.as.projectOwner!);
    assertProblem(await w.as.projectOwner!('DELETE', zOf(p, p.rootWorkzoneId)), 400, 'cannot-delete-root-workzone');
    assert.equal((await w.as.projectOwner!('GET', zOf(p, p.rootWorkzoneId))).status, 200);
  });
});

describe('the caller\'s permissions in a zone (ours)', () => {
  test('one zone answers the caller\'s permissions there: the owner\'s, a member\'s role, a group member\'s through the group; lists leave them out', async () => {
    const p = await createProject(w.as.projectOwner!);
    const z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z');
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Viewer }] }, [z.id]);
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_ID, role: w.roles.Contributor }] }, [z.id]);
    const roles = (await w.as.projectOwner!('GET', `${A2}/roles`)).body;
    const permissionsOf = (name: string): string[] => roles.find((r: any) => r.name === name).permissions;
    const zoneAs = async (who: string) => {
      const res = await w.as[who]!('GET', zOf(p, z.id));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return new Set<string>(res.body.permissions);
    };
    const owner = await zoneAs('projectOwner');
    for (const perm of ['workzone:workzones:write', 'workzone:members:write', 'workzone:tags:write']) assert.ok(owner.has(perm), perm);
    const carol = await zoneAs('carol');
    for (const perm of permissionsOf('Viewer')) assert.ok(carol.has(perm), `Viewer: ${perm}`);
    assert.equal(carol.has('workzone:workzones:write'), false);
    const alice = await zoneAs('alice'); // in the Field team group
    for (const perm of permissionsOf('Contributor')) assert.ok(alice.has(perm), `Contributor through the group: ${perm}`);
    const list = (await w.as.projectOwner!('GET', `${pOf(p)}/workzones`)).body;
    assert.equal(list.every((x: any) => x.permissions === undefined), true, 'lists leave them out');
  });
});

describe('copy (202, then a background job)', () => {
  /** A source project: root → S → S1, with bob (Viewer) on S and the Office team (Contributor) on the root. */
  async function source() {
    const p = await createProject(w.as.projectOwner!);
    const s = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'S');
    const s1 = await createZone(w.as.projectOwner!, p.id, s.id, 'S1');
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] }, [s.id]);
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: 'c2222222-2222-4222-8222-222222222222', role: w.roles.Contributor }] });
    return { p, s, s1 };
  }

  const finishedMail = async (name: string) =>
    (await outbox(t)).find((m) => m.to === emailOf('projectOwner') && m.subject.includes('finished') && m.subject.includes(name));

  test('under a zone of an existing project: the subtree and its members are copied; the caller is mailed', async () => {
    const { p, s } = await source();
    const dest = await createProject(w.as.projectOwner!);
    const d = await createZone(w.as.projectOwner!, dest.id, dest.rootWorkzoneId, 'D');
    const res = await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'S copy', destinationProject: dest.id, destinationWorkzone: d.id });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.state, 'queued');
    assert.equal(typeof res.body.jobId, 'string');
    assert.equal((await zonesByName(dest)).has('S copy'), false, 'not done before the job runs');
    assert.equal(await finishedMail('S copy'), undefined);

    await t.core.jobRunner.drain();
    const zones = await zonesByName(dest);
    const copy = zones.get('S copy');
    assert.ok(copy, 'the copy exists');
    assert.equal(copy.parentId, d.id);
    assert.equal(zones.get('S1').parentId, copy.id, 'with its subtree');
    const access = await accessList(w.as.projectOwner!, dest.id);
    const bob = entryOf(access, 'user', w.ids.bob!);
    assert.equal(uuidOf(bob.roleId), w.roles.Viewer);
    assert.deepEqual(new Set(bob.workzoneIds), new Set([copy.id, zones.get('S1').id]));
    const team = entryOf(access, 'group', 'c2222222-2222-4222-8222-222222222222');
    assert.equal(uuidOf(team.roleId), w.roles.Contributor);
    assert.deepEqual(new Set(team.workzoneIds), new Set([copy.id, zones.get('S1').id]));
    // The source is untouched.
    assert.deepEqual([...(await zonesByName(p)).keys()].sort(), [p.name, 'S', 'S1'].sort());
    const mail = await finishedMail('S copy');
    assert.ok(mail, 'the "finished" e-mail');
    assert.ok(mail.text.includes(dest.id));
  });

  test('into a new project (with another subscription): the copied zone is its root; members and subtree follow', async () => {
    const { p, s } = await source();
    const res = await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'Brand new', destinationSubscription: SUB_B });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await t.core.jobRunner.drain();
    const created = (await w.as.projectOwner!('GET', `${A2}/projects`)).body.find((x: any) => x.name === 'Brand new');
    assert.ok(created, 'the new project');
    assert.equal(created.subscriptionId, `urn:svc:subscription:${SUB_B}`);
    assert.equal(created.ownerId, `urn:svc:user:${w.ids.projectOwner}`);
    const zones = await zonesByName(created);
    assert.deepEqual([...zones.keys()].sort(), ['Brand new', 'S1']);
    assert.equal(zones.get('Brand new').id, created.rootWorkzoneId);
    assert.equal(zones.get('S1').parentId, created.rootWorkzoneId);
    const bob = entryOf(await accessList(w.as.projectOwner!, created.id), 'user', w.ids.bob!);
    assert.deepEqual(new Set(bob.workzoneIds), new Set([created.rootWorkzoneId, zones.get('S1').id]));
    assert.equal((await w.as.bob!('GET', pOf(created))).status, 200);
    assert.ok(await finishedMail('Brand new'));
  });

  test('a second copy on the same project while one is queued: 409 copy-in-progress (source or destination); after it, 202 again', async () => {
    const { p, s, s1 } = await source();
    const other = await createProject(w.as.projectOwner!);
    const first = await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'First', destinationProject: p.id });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assertProblem(await w.as.projectOwner!('POST', `${zOf(p, s1.id)}/copy`, { destinationName: 'Second', destinationProject: other.id }), 409, 'copy-in-progress');
    assertProblem(
      await w.as.projectOwner!('POST', `${zOf(other, other.rootWorkzoneId)}/copy`, { destinationName: 'Third', destinationProject: p.id }),
      409, 'copy-in-progress',
    );
    await t.core.jobRunner.drain();
    assert.ok((await zonesByName(p)).has('First'));
    const again = await w.as.projectOwner!('POST', `${zOf(p, s1.id)}/copy`, { destinationName: 'Second', destinationProject: other.id });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    await t.core.jobRunner.drain();
    assert.ok((await zonesByName(other)).has('Second'));
  });

  test('a copy whose destination disappears before it runs fails, and the caller is told by e-mail', async () => {
    const { p, s } = await source();
    const dest = await createProject(w.as.projectOwner!);
    const d = await createZone(w.as.projectOwner!, dest.id, dest.rootWorkzoneId, 'Gone soon');
    assert.equal((await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'Doomed', destinationProject: dest.id, destinationWorkzone: d.id })).status, 202);
    assert.equal((await w.as.projectOwner!('DELETE', zOf(dest, d.id))).status, 204);
    await t.core.jobRunner.drain();
    const mail = (await outbox(t)).find((m) => m.subject.includes('Doomed'));
    assert.ok(mail);
    assert.match(mail.subject, /failed/);
    assert.ok(!(await zonesByName(dest)).has('Doomed'));
  });

  test('following a copy (our extension): its requester sees queued, then done with the copy\'s project and zone; anyone else, another zone or a bad id: 404 job-not-found', async () => {
    const { p, s, s1 } = await source();
    const dest = await createProject(w.as.projectOwner!);
    const res = await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'Followed', destinationProject: dest.id });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const status = `${zOf(p, s.id)}/copy/${res.body.jobId}`;
    const queued = await w.as.projectOwner!('GET', status);
    assert.equal(queued.status, 200, JSON.stringify(queued.body));
    assert.deepEqual(queued.body, { jobId: res.body.jobId, state: 'queued' });
    // bob is a member of the source (Viewer on S) but did not ask for the copy.
    assertProblem(await w.as.bob!('GET', status), 404, 'job-not-found');
    assertProblem(await w.as.projectOwner!('GET', `${zOf(p, s1.id)}/copy/${res.body.jobId}`), 404, 'job-not-found');
    assertProblem(await w.as.projectOwner!('GET', `${zOf(p, s.id)}/copy/not-a-uuid`), 404, 'job-not-found');

    await t.core.jobRunner.drain();
    const done = await w.as.projectOwner!('GET', status);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const copy = (await zonesByName(dest)).get('Followed');
    assert.deepEqual(done.body, {
      jobId: res.body.jobId, state: 'done',
      result: { projectId: dest.id, workzoneId: copy.id, copiedWorkzones: 2, copiedFiles: 0, skippedMembers: 0 },
    });
  });

  test('following a failed copy: state failed with the reason its e-mail gives', async () => {
    const { p, s } = await source();
    const dest = await createProject(w.as.projectOwner!);
    const d = await createZone(w.as.projectOwner!, dest.id, dest.rootWorkzoneId, 'Removed');
    const res = await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'Fails', destinationProject: dest.id, destinationWorkzone: d.id });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal((await w.as.projectOwner!('DELETE', zOf(dest, d.id))).status, 204);
    await t.core.jobRunner.drain();
    const failed = await w.as.projectOwner!('GET', `${zOf(p, s.id)}/copy/${res.body.jobId}`);
    assert.equal(failed.status, 200, JSON.stringify(failed.body));
    assert.equal(failed.body.state, 'failed');
    assert.match(failed.body.error, /destination work zone no longer exists/);
    assert.equal(failed.body.result, undefined);
  });

  test('refusals at request time: a new project needs account:projects:create; destinationWorkzone needs destinationProject', async () => {
    const { p, s } = await source();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
    const body = assertProblem(await w.as.manager!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'No' }), 403, 'copy-workzone-forbidden');
    assert.deepEqual(body.errorValues.requiredPermissions, ['account:projects:create']);
    assertProblem(await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'No', destinationWorkzone: s.id }), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'No', destinationSubscription: 'b3333333-3333-4333-8333-333333333333' }), 400, 'subscription-not-active');
    // Nothing was queued: a copy on the project is accepted at once.
    assert.equal((await w.as.manager!('POST', `${zOf(p, s.id)}/copy`, { destinationName: 'Yes', destinationProject: p.id })).status, 202);
    await t.core.jobRunner.drain();
  });
});

describe('values', () => {
  test('GET /api/2/values/spatial-references lists EPSG:4326 (needs a token)', async () => {
    const res = await w.as.member!('GET', '/api/2/values/spatial-references');
    assert.equal(res.status, 200);
    const wgs = res.body.find((s: any) => s.authName === 'EPSG' && s.code === '4326');
    assert.deepEqual(wgs, { authName: 'EPSG', code: '4326', name: 'WGS 84', type: 'geographic 2D', deprecated: false });
    for (const s of res.body) {
      assert.equal(typeof s.name, 'string');
      assert.equal(typeof s.code, 'string');
    }
    const anon = await t.app.inject({ method: 'GET', url: '/api/2/values/spatial-references' });
    assert.equal(anon.statusCode, 401);
  });
});
