// Projects through API 2: create (root zone, stats, subscription checks), PUT overwrite
// and PATCH, owner and subscription changes, the soft-delete / restore / permanent-delete
// states (spec "States and transitions": acting on a deleted element is 403 deleted-<type>),
// the stats switches, and the subscription's inviteAccountOwnerInNewProjects.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, ACCOUNT_ID, SUB_A, SUB_B, SUB_INACTIVE, SUB_INVITE, accessList, addMembers, assertApi1Error, assertProblem, createProject, createZone,
  emailOf, entryOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';

let t: TestApp;
let w: World;
before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

const pOf = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;

describe('create', () => {
  test('201 with Location, the caller as owner, a root work zone, stats and every project permission', async () => {
    const res = await w.as.projectOwner!('POST', `${A2}/projects`, {
      name: '  Bridge survey  ', description: 'Pier 4', subscriptionId: `urn:svc:subscription:${SUB_A}`,
      location: { lat: 48.85, lng: 2.35 }, spatialReference: { authName: 'EPSG', code: '2154' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const p = res.body;
    assert.equal(res.headers.location, `/api/2/accounts/${ACCOUNT_ID}/projects/${uuidOf(p.id)}`);
    assert.match(p.id, /^urn:svc:project:[0-9a-f-]{36}$/);
    assert.equal(p.urn, p.id);
    assert.match(p.api1Id, /^[A-Za-z0-9_-]{1,50}$/);
    assert.equal(p.type, 'project');
    assert.equal(p.name, 'Bridge survey');
    assert.equal(p.description, 'Pier 4');
    assert.equal(p.accountId, `urn:svc:account:${ACCOUNT_ID}`);
    assert.equal(p.subscriptionId, `urn:svc:subscription:${SUB_A}`);
    assert.equal(p.ownerId, `urn:svc:user:${w.ids.projectOwner}`);
    assert.deepEqual(p.location, { lat: 48.85, lng: 2.35 });
    assert.deepEqual(p.spatialReference, { authName: 'EPSG', code: '2154' });
    assert.equal(p.modificationInfo.isDeleted, false);
    assert.equal(p.modificationInfo.createdBy, p.ownerId);
    assert.deepEqual(p.statsInfo, { scanCount: 0, scanSize: 0, tagCount: 0, workzoneCount: 1 });
    assert.ok(p.permissions.includes('project:project:delete'));
    // The root work zone exists, has no parent, and the creator is a Manager member of it.
    const zones = (await w.as.projectOwner!('GET', `${pOf(p)}/workzones`)).body;
    assert.equal(zones.length, 1);
    assert.equal(zones[0].id, p.rootWorkzoneId);
    assert.equal(zones[0].parentId, null);
    const me = entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.projectOwner!);
    assert.equal(uuidOf(me.roleId), w.roles.Manager);
    assert.deepEqual(me.workzoneIds, [p.rootWorkzoneId]);
    // Listed, and readable.
    assert.ok((await w.as.projectOwner!('GET', `${A2}/projects`)).body.some((x: any) => x.id === p.id));
    assert.equal((await w.as.projectOwner!('GET', pOf(p))).body.name, 'Bridge survey');
  });

  test('an inactive subscription is 400 subscription-not-active with its id; an unknown one 404', async () => {
    const body = assertProblem(await w.as.projectManager!('POST', `${A2}/projects`, { name: 'X', subscriptionId: SUB_INACTIVE }), 400, 'subscription-not-active');
    assert.ok(String(body.errorValues.subscriptionId).endsWith(SUB_INACTIVE));
    assertProblem(
      await w.as.projectManager!('POST', `${A2}/projects`, { name: 'X', subscriptionId: '99999999-9999-4999-8999-999999999999' }),
      404, 'subscription-not-found',
    );
  });

  test('an unknown spatial reference is 400 invalid-input; a name too long, empty or blank too', async () => {
    assertProblem(
      await w.as.projectManager!('POST', `${A2}/projects`, { name: 'X', subscriptionId: SUB_A, spatialReference: { authName: 'EPSG', code: '999999' } }),
      400, 'invalid-input',
    );
    assertProblem(await w.as.projectManager!('POST', `${A2}/projects`, { name: 'x'.repeat(256), subscriptionId: SUB_A }), 400, 'invalid-input');
    assertProblem(await w.as.projectManager!('POST', `${A2}/projects`, { name: '', subscriptionId: SUB_A }), 400, 'invalid-input');
    assertProblem(await w.as.projectManager!('POST', `${A2}/projects`, { name: '   ', subscriptionId: SUB_A }), 400, 'invalid-input');
    const names = (await w.as.projectManager!('GET', `${A2}/projects`)).body.map((p: any) => p.name);
    assert.ok(!names.includes('X'), 'nothing created');
  });

  test('inviteAccountOwnerInNewProjects: the account owner is a member of new projects of that subscription only', async () => {
    const invited = await createProject(w.as.projectManager!, { subscriptionId: SUB_INVITE });
    const plain = await createProject(w.as.projectManager!, { subscriptionId: SUB_A });
    const owner = entryOf(await accessList(w.as.projectManager!, invited.id), 'user', w.ids.owner!);
    assert.ok(owner, 'the account owner is a member');
    assert.deepEqual(owner.workzoneIds, [invited.rootWorkzoneId]);
    assert.ok((await w.as.owner!('GET', pOf(invited))).body.permissions.includes('project:workzones:list'));
    assert.equal(entryOf(await accessList(w.as.projectManager!, plain.id), 'user', w.ids.owner!), undefined);
    assert.ok(!(await w.as.owner!('GET', pOf(plain))).body.permissions.includes('project:workzones:list'));
  });
});

describe('stats', () => {
  test('countScans, countTags and countWorkzones false: statsInfo {} (always an object), on get, list and create', async () => {
    const p = await createProject(w.as.projectOwner!);
    await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId);
    const q = '?countScans=false&countTags=false&countWorkzones=false';
    assert.deepEqual((await w.as.projectOwner!('GET', `${pOf(p)}${q}`)).body.statsInfo, {});
    const listed = (await w.as.projectOwner!('GET', `${A2}/projects${q}`)).body;
    assert.ok(listed.length > 0);
    for (const x of listed) assert.deepEqual(x.statsInfo, {});
    assert.deepEqual((await w.as.projectOwner!('GET', `${pOf(p)}?countScans=false&countTags=false`)).body.statsInfo, { workzoneCount: 2 });
    assert.deepEqual((await w.as.projectOwner!('GET', `${pOf(p)}?countWorkzones=false`)).body.statsInfo, { scanCount: 0, scanSize: 0, tagCount: 0 });
    assert.deepEqual((await w.as.projectOwner!('GET', pOf(p))).body.statsInfo, { scanCount: 0, scanSize: 0, tagCount: 0, workzoneCount: 2 });
  });
});

describe('PUT and PATCH', () => {
  test('PUT overwrites every field: description, location and spatialReference left out are erased', async () => {
    const p = await createProject(w.as.projectOwner!, {
      description: 'Keep?', location: { lat: 1, lng: 2 }, spatialReference: { authName: 'EPSG', code: '4326' },
    });
    const res = await w.as.projectOwner!('PUT', pOf(p), { name: 'Overwritten', subscriptionId: p.subscriptionId, ownerId: p.ownerId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Overwritten');
    assert.equal(res.body.description, '');
    assert.deepEqual(res.body.location, { lat: 0, lng: 0 }); // no location (docs/projects.md)
    assert.equal(res.body.spatialReference, undefined);
    const again = (await w.as.projectOwner!('GET', pOf(p))).body;
    assert.equal(again.description, '');
    assert.deepEqual(again.location, { lat: 0, lng: 0 });
    assert.equal(again.modificationInfo.updatedBy, `urn:svc:user:${w.ids.projectOwner}`);
    // PUT needs the subscription and the owner.
    assertProblem(await w.as.projectOwner!('PUT', pOf(p), { name: 'No owner', subscriptionId: p.subscriptionId }), 400, 'invalid-input');
  });

  test('PATCH changes only the given fields', async () => {
    const p = await createProject(w.as.projectOwner!, { description: 'Kept', location: { lat: 1, lng: 2 }, spatialReference: { authName: 'EPSG', code: '4326' } });
    const res = await w.as.projectOwner!('PATCH', pOf(p), { name: 'Patched' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Patched');
    assert.equal(res.body.description, 'Kept');
    assert.deepEqual(res.body.location, { lat: 1, lng: 2 });
    assert.deepEqual(res.body.spatialReference, { authName: 'EPSG', code: '4326' });
    const cleared = await w.as.projectOwner!('PATCH', pOf(p), { location: null });
    assert.deepEqual(cleared.body.location, { lat: 0, lng: 0 });
    assert.equal(cleared.body.description, 'Kept');
    assertProblem(await w.as.projectOwner!('PATCH', pOf(p), { spatialReference: { authName: 'EPSG', code: 'nope' } }), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('PATCH', pOf(p), { name: ' \t ' }), 400, 'invalid-input');
    assert.equal((await w.as.projectOwner!('GET', pOf(p))).body.name, 'Patched');
  });

  test('owner and subscription: only the account owner, an administrator or the project owner; the new owner must be a project manager', async () => {
    const p = await createProject(w.as.projectOwner!);
    // A project manager may update details but not the owner or the subscription.
    assert.equal((await w.as.projectManager!('PATCH', pOf(p), { description: 'ok' })).status, 200);
    let body = assertProblem(await w.as.projectManager!('PATCH', pOf(p), { ownerId: w.ids.projectManager }), 403, 'update-project-ownership-or-subscription-forbidden');
    assert.ok(body.errorValues.requiredPermissions.includes('project:project:update-owner'));
    assertProblem(await w.as.projectManager!('PATCH', pOf(p), { subscriptionId: SUB_B }), 403, 'update-project-ownership-or-subscription-forbidden');
    // PUT naming the same owner and subscription is no ownership change.
    assert.equal((await w.as.projectManager!('PUT', pOf(p), { name: 'Same owner', subscriptionId: p.subscriptionId, ownerId: p.ownerId })).status, 200);
    // The new owner must be a project manager.
    body = assertProblem(await w.as.administrator!('PATCH', pOf(p), { ownerId: w.ids.member }), 403, 'new-project-owner-not-manager');
    assert.equal((await w.as.projectOwner!('GET', pOf(p))).body.ownerId, p.ownerId, 'unchanged');
    // An inactive target subscription is refused.
    assertProblem(await w.as.administrator!('PATCH', pOf(p), { subscriptionId: SUB_INACTIVE }), 400, 'subscription-not-active');
    // The administrator hands the project to the project manager, who becomes a member.
    const res = await w.as.administrator!('PATCH', pOf(p), { ownerId: `urn:svc:user:${w.ids.projectManager}`, subscriptionId: SUB_B });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ownerId, `urn:svc:user:${w.ids.projectManager}`);
    assert.equal(res.body.subscriptionId, `urn:svc:subscription:${SUB_B}`);
    assert.ok(entryOf(await accessList(w.as.projectManager!, p.id), 'user', w.ids.projectManager!));
    // The former owner is a plain project manager now: details yes, ownership no.
    assertProblem(await w.as.projectOwner!('PATCH', pOf(p), { subscriptionId: SUB_A }), 403, 'update-project-ownership-or-subscription-forbidden');
    // The new project owner may move it back.
    assert.equal((await w.as.projectManager!('PATCH', pOf(p), { subscriptionId: SUB_A })).status, 200);
  });
});

describe('soft delete, restore, permanent delete (403 deleted-project on a deleted project)', () => {
  test('the whole lifecycle', async () => {
    const p = await createProject(w.as.projectOwner!);
    const z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }] });
    const id = uuidOf(p.id);
    // permanent on an active project, restore of an active project: 400.
    let body = assertProblem(await w.as.projectOwner!('DELETE', `${pOf(p)}?permanent=true`), 400, 'project-not-deleted');
    assert.ok(String(body.errorValues.projectId).endsWith(id));
    body = assertProblem(await w.as.projectOwner!('PUT', `${pOf(p)}/restore`), 400, 'project-active');
    assert.ok(String(body.errorValues.projectId).endsWith(id));

    assert.equal((await w.as.projectOwner!('DELETE', pOf(p))).status, 204);
    const listed = (await w.as.projectOwner!('GET', `${A2}/projects`)).body.find((x: any) => x.id === p.id);
    assert.equal(listed.modificationInfo.isDeleted, true);
    assert.equal(listed.modificationInfo.deletedBy, `urn:svc:user:${w.ids.projectOwner}`);
    assert.ok(!Number.isNaN(Date.parse(listed.modificationInfo.deletedAt)));
    const got = await w.as.projectOwner!('GET', pOf(p));
    assert.equal(got.status, 200);
    assert.equal(got.body.modificationInfo.isDeleted, true);
    assert.equal((await w.as.viewer!('GET', pOf(p))).status, 200, 'members still read it');
    assert.equal((await w.as.projectOwner!('GET', `${A1}/projects/${p.api1Id}`)).body.isDeleted, true);

    // Every other action: 403 deleted-project with the project id.
    const refused: [string, string, unknown?][] = [
      ['PUT', pOf(p), { name: 'n', subscriptionId: p.subscriptionId, ownerId: p.ownerId }],
      ['PATCH', pOf(p), { name: 'n' }],
      ['GET', `${pOf(p)}/workzones`],
      ['POST', `${pOf(p)}/workzones`, { name: 'n', parentWorkzoneId: p.rootWorkzoneId }],
      ['GET', `${pOf(p)}/workzones/${uuidOf(z.id)}`],
      ['PUT', `${pOf(p)}/workzones/${uuidOf(z.id)}`, { name: 'n' }],
      ['DELETE', `${pOf(p)}/workzones/${uuidOf(z.id)}`],
      ['POST', `${pOf(p)}/workzones/${uuidOf(z.id)}/copy`, { destinationName: 'c', destinationProject: p.id }],
      ['GET', `${pOf(p)}/members`],
      ['GET', `${pOf(p)}/members/access`],
      ['POST', `${pOf(p)}/members`, { members: { users: [{ user: emailOf('alice'), role: w.roles.Viewer }] } }],
      ['POST', `${pOf(p)}/members/bulk-remove`, { users: [w.ids.viewer] }],
      ['DELETE', `${pOf(p)}/members/users/${w.ids.viewer}`],
      ['DELETE', `${pOf(p)}/workzones/${uuidOf(z.id)}/members/users/${w.ids.viewer}`],
    ];
    for (const [method, url, payload] of refused) {
      const b = assertProblem(await w.as.projectOwner!(method as any, url, payload), 403, 'deleted-project');
      assert.ok(String(b.errorValues.projectId).endsWith(id), `${method} ${url}`);
    }
    const subs = (await w.as.owner!('GET', `${A1}/subscriptions`)).body as any[];
    const planB = subs.find((s) => s.name === 'B').id;
    const planNow = (await w.as.owner!('GET', `${A1}/projects/${p.api1Id}`)).body.planId;
    assertApi1Error(await w.as.owner!('PATCH', `${A1}/projects/${p.api1Id}`, [{ op: 'replace', path: planNow, value: planB }]), 403, 'deleted-project');

    // Deleting again without permanent: 400 project-deleted.
    body = assertProblem(await w.as.projectOwner!('DELETE', pOf(p)), 400, 'project-deleted');
    assert.ok(String(body.errorValues.projectId).endsWith(id));

    // Restore: active again, everything as before.
    const restored = await w.as.projectManager!('PUT', `${pOf(p)}/restore`);
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.modificationInfo.isDeleted, false);
    assert.equal(restored.body.modificationInfo.deletedAt, undefined);
    assert.equal((await w.as.viewer!('GET', `${pOf(p)}/workzones`)).body.length, 2);

    // Delete, then permanently: 404 afterwards on both generations, gone from the lists.
    assert.equal((await w.as.projectOwner!('DELETE', pOf(p))).status, 204);
    assert.equal((await w.as.projectOwner!('DELETE', `${pOf(p)}?permanent=true`)).status, 204);
    assertProblem(await w.as.projectOwner!('GET', pOf(p)), 404, 'project-not-found');
    assertApi1Error(await w.as.projectOwner!('GET', `${A1}/projects/${p.api1Id}`), 404, 'project-not-found');
    assertProblem(await w.as.projectOwner!('DELETE', `${pOf(p)}?permanent=true`), 404, 'project-not-found');
    assert.ok(!(await w.as.owner!('GET', `${A2}/projects`)).body.some((x: any) => x.id === p.id));
    assert.ok(!(await w.as.owner!('GET', `${A1}/projects`)).body.some((x: any) => x.id === p.api1Id));
  });

  test('restoring a project whose subscription is no longer active is 400 subscription-not-active', async () => {
    const LATER = 'b5555555-5555-4555-8555-555555555555';
    const account = { id: ACCOUNT_ID, name: 'Proj', owner: emailOf('owner') };
    await t.seed({ accounts: [{ ...account, subscriptions: [{ id: LATER, name: 'Later', isActive: true }] }] });
    const p = await createProject(w.as.projectOwner!, { subscriptionId: LATER });
    assert.equal((await w.as.projectOwner!('DELETE', pOf(p))).status, 204);
    await t.seed({ accounts: [{ ...account, subscriptions: [{ id: LATER, name: 'Later', isActive: false }] }] });
    const body = assertProblem(await w.as.projectOwner!('PUT', `${pOf(p)}/restore`), 400, 'subscription-not-active');
    assert.ok(String(body.errorValues.subscriptionId).endsWith(LATER));
    assert.equal((await w.as.projectOwner!('GET', pOf(p))).body.modificationInfo.isDeleted, true);
  });
});
