// The spec's "Membership rules" 1–8 and the member operations' own rules (one role per
// member per project, expiration dates, invitations, handing out only what one holds),
// each checked through API 2 and, where only the engine can tell, through the project
// scope every use case opens with.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, ACCOUNT_ID, ANNOTATOR_ID, ASSISTANT_ID, GROUP_2_ID, GROUP_ID, SURVEYOR_ID, TAGGER_ID, accessList, addMembers, advanceClock,
  assertProblem, createProject, createZone, emailOf, entryOf, outbox, postMembers, projectPermissionsOf, projectWorld, serviceNow, uuidOf,
  type World,
} from '../support/projects.ts';

let t: TestApp;
let w: World;
before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

const pOf = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;

/** The engine's effective permissions of a user on a work zone. */
async function zonePermissions(user: string, project: any, zoneId: string): Promise<Set<string>> {
  const scope = await t.core.projectAccess.project(
    { userId: w.ids[user]! }, { type: 'account', uuid: ACCOUNT_ID }, { type: 'project', uuid: uuidOf(project.id) },
  );
  return new Set(scope.workzone(uuidOf(zoneId)));
}

/** A project of projectOwner with zones root → z1 → z1a, and root → z2. */
async function tree() {
  const p = await createProject(w.as.projectOwner!);
  const z1 = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z1');
  const z1a = await createZone(w.as.projectOwner!, p.id, z1.id, 'Z1a');
  const z2 = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z2');
  return { p, root: p.rootWorkzoneId as string, z1: z1.id as string, z1a: z1a.id as string, z2: z2.id as string };
}

const zonesOf = async (p: any, type: 'user' | 'group', id: string) => {
  const e = entryOf(await accessList(w.as.projectOwner!, p.id), type, id);
  return e ? new Set<string>(e.workzoneIds) : null;
};

// The spec's project-level permissions (its "Permissions" list, domain project).
const ALL_PROJECT_PERMISSIONS = [
  'project:project:list', 'project:project:delete', 'project:project:update-details', 'project:project:update-owner',
  'project:project:update-subscription', 'project:members:list', 'project:workzones:list', 'project:annotations:create-integration-link',
  'project:integrations:read', 'project:integrations:write',
];
const INTEGRATIONS = ['project:annotations:create-integration-link', 'project:integrations:read', 'project:integrations:write'];

describe('rule 1: a user holds his own role ∪ his groups\' roles, independently', () => {
  test('alice (Viewer herself, Field team holds Assistant) creates zones and adds members through her group only', async () => {
    const { p, z1 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: w.roles.Viewer }] });
    const before = await zonePermissions('alice', p, z1);
    assert.ok(!before.has('workzone:workzones:write'));
    assert.equal((await w.as.alice!('POST', `${pOf(p)}/workzones`, { name: 'No', parentWorkzoneId: z1 })).status, 403);

    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_ID, role: ASSISTANT_ID }] });
    const union = await zonePermissions('alice', p, z1);
    for (const x of ['workzone:workzones:write', 'workzone:members:write', 'workzone:reality-data:read', 'workzone:savedviews:read']) {
      assert.ok(union.has(x), x);
    }
    assert.equal((await w.as.alice!('POST', `${pOf(p)}/workzones`, { name: 'Yes', parentWorkzoneId: z1 })).status, 201);
    // Both memberships stay independent: each keeps its own role.
    const access = await accessList(w.as.projectOwner!, p.id);
    assert.equal(uuidOf(entryOf(access, 'user', w.ids.alice!).roleId), w.roles.Viewer);
    assert.equal(uuidOf(entryOf(access, 'group', GROUP_ID).roleId), ASSISTANT_ID);

    // The group leaves: alice keeps only her own role.
    assert.equal((await w.as.projectOwner!('DELETE', `${pOf(p)}/members/groups/${GROUP_ID}`)).status, 204);
    assert.ok(!(await zonePermissions('alice', p, z1)).has('workzone:workzones:write'));
    assert.equal((await w.as.alice!('POST', `${pOf(p)}/workzones`, { name: 'No again', parentWorkzoneId: z1 })).status, 403);
  });

  test('a user added to a member group gains its access at once; removed from it, loses it', async () => {
    const { p } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_2_ID, role: w.roles.Viewer }] });
    assert.equal((await w.as.dave!('GET', pOf(p))).status, 403);
    assert.equal((await w.as.owner!('POST', `${A2}/groups/${GROUP_2_ID}/members`, [w.ids.dave])).status, 200);
    assert.equal((await w.as.dave!('GET', pOf(p))).status, 200);
    const users = (await w.as.projectOwner!('GET', `${pOf(p)}/members`)).body.map((u: any) => u.email);
    assert.ok(users.includes(emailOf('dave')), 'members lists the users of member groups');
    assert.equal((await w.as.owner!('DELETE', `${A2}/groups/${GROUP_2_ID}/members`, [w.ids.dave])).status, 200);
    assertProblem(await w.as.dave!('GET', pOf(p)), 403, 'not-member-of-project');
  });
});

describe('rules 2 and 4: a grant reaches the subtree; new zones inherit; member-access lists every zone', () => {
  test('bob on Z1 reaches Z1 and Z1a, not root or Z2; a zone created under Z1 then includes him, one under root does not', async () => {
    const { p, root, z1, z1a, z2 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] }, [z1]);
    assert.deepEqual(await zonesOf(p, 'user', w.ids.bob!), new Set([z1, z1a]));
    const z1b = await createZone(w.as.projectOwner!, p.id, z1, 'Z1b');
    const z3 = await createZone(w.as.projectOwner!, p.id, root, 'Z3');
    assert.deepEqual(await zonesOf(p, 'user', w.ids.bob!), new Set([z1, z1a, z1b.id]));
    // The engine agrees, rule 5 included (workzone:workzones:read on each of his zones).
    for (const z of [z1, z1a, z1b.id]) assert.ok((await zonePermissions('bob', p, z)).has('workzone:workzones:read'), z);
    for (const z of [root, z2, z3.id]) assert.equal((await zonePermissions('bob', p, z)).size, 0, z);
    // Through the API: he reads his zones and is refused the others; the list shows only his.
    assert.equal((await w.as.bob!('GET', `${pOf(p)}/workzones/${uuidOf(z1a)}`)).status, 200);
    assertProblem(await w.as.bob!('GET', `${pOf(p)}/workzones/${uuidOf(z2)}`), 403, 'view-workzone-forbidden');
    const listed = (await w.as.bob!('GET', `${pOf(p)}/workzones`)).body.map((z: any) => z.id);
    assert.deepEqual(new Set(listed), new Set([z1, z1a, z1b.id]));
  });

  test('a zone created while a member is being added to its parent inherits him (concurrent requests)', async () => {
    for (let round = 0; round < 10; round++) {
      const { p, z1 } = await tree();
      const [added, created] = await Promise.all([
        postMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('heidi'), role: w.roles.Viewer }] }, [z1]),
        w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: 'Racing', parentWorkzoneId: z1 }),
      ]);
      assert.equal(added.status, 204, JSON.stringify(added.body));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.ok((await zonesOf(p, 'user', w.ids.heidi!))!.has(created.body.id), `round ${round}: the new zone inherits heidi`);
    }
  });

  test('a group granted on the root reaches every zone, and every later zone', async () => {
    const { p, root, z1, z1a, z2 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_ID, role: w.roles.Viewer }] });
    const z = await createZone(w.as.projectOwner!, p.id, z1a, 'deep');
    assert.deepEqual(await zonesOf(p, 'group', GROUP_ID), new Set([root, z1, z1a, z2, z.id]));
  });
});

describe('rule 3: removal from a zone cascades down, and up only with allowRemoveOnParents', () => {
  test('carol on the root: removing her from Z1a without the flag is 400 invalid-input and changes nothing', async () => {
    const { p, root, z1, z1a, z2 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Viewer }] });
    const url = `${pOf(p)}/workzones/${uuidOf(z1a)}/members/users/${w.ids.carol}`;
    assertProblem(await w.as.projectOwner!('DELETE', url), 400, 'invalid-input');
    assertProblem(await w.as.projectOwner!('DELETE', `${url}?allowRemoveOnParents=false`), 400, 'invalid-input');
    assert.deepEqual(await zonesOf(p, 'user', w.ids.carol!), new Set([root, z1, z1a, z2]));
    // With the flag: Z1a, and the parents she belonged to (Z1, root); Z2 stays.
    assert.equal((await w.as.projectOwner!('DELETE', `${url}?allowRemoveOnParents=true`)).status, 204);
    assert.deepEqual(await zonesOf(p, 'user', w.ids.carol!), new Set([z2]));
    assert.equal((await w.as.carol!('GET', pOf(p))).status, 200, 'still a member through Z2');
  });

  test('a member of Z1 only: removal from Z1 takes Z1a too, needs no flag, and ends his membership', async () => {
    const { p, z1 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('dave'), role: w.roles.Viewer }] }, [z1]);
    assert.equal((await w.as.projectOwner!('DELETE', `${pOf(p)}/workzones/${uuidOf(z1)}/members/users/${w.ids.dave}`)).status, 204);
    assert.equal(await zonesOf(p, 'user', w.ids.dave!), null, 'no longer a member');
    assertProblem(await w.as.dave!('GET', pOf(p)), 403, 'not-member-of-project');
  });

  test('a user may remove himself (no members:write); another Viewer may not remove him', async () => {
    const { p, z1, z1a } = await tree();
    await addMembers(w.as.projectOwner!, p.id, {
      users: [{ user: emailOf('erin'), role: w.roles.Viewer }, { user: emailOf('frank'), role: w.roles.Viewer }],
    }, [z1]);
    const body = assertProblem(
      await w.as.frank!('DELETE', `${pOf(p)}/workzones/${uuidOf(z1a)}/members/users/${w.ids.erin}?allowRemoveOnParents=true`),
      403, 'remove-contributor-from-work-zone-forbidden',
    );
    assert.deepEqual(body.errorValues.requiredPermissions, ['workzone:members:write']);
    assert.equal((await w.as.erin!('DELETE', `${pOf(p)}/workzones/${uuidOf(z1a)}/members/users/${w.ids.erin}?allowRemoveOnParents=true`)).status, 204);
    assert.equal(await zonesOf(p, 'user', w.ids.erin!), null);
    assert.ok(await zonesOf(p, 'user', w.ids.frank!));
  });

  test('removing a user from the whole project (bulk-remove, DELETE members/users) ignores non-members; the project owner stays', async () => {
    const { p } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] });
    assert.equal((await w.as.projectOwner!('POST', `${pOf(p)}/members/bulk-remove`, { users: [w.ids.grace, w.ids.heidi] })).status, 204);
    assert.equal(await zonesOf(p, 'user', w.ids.grace!), null);
    assert.equal((await w.as.projectOwner!('DELETE', `${pOf(p)}/members/users/${w.ids.heidi}`)).status, 204);
    const res = await w.as.owner!('DELETE', `${pOf(p)}/members/users/${w.ids.projectOwner}`);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.ok(await zonesOf(p, 'user', w.ids.projectOwner!));
  });
});

describe('rule 5: members automatically hold workzones:list, members:list and workzones:read', () => {
  test('a Viewer (whose role has no workzones:read) lists and reads zones and lists members', async () => {
    const { p, z1 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }] });
    const perms = await projectPermissionsOf(w.as.viewer!, p.id);
    assert.deepEqual(new Set(perms), new Set(['project:workzones:list', 'project:members:list']));
    assert.equal((await w.as.viewer!('GET', `${pOf(p)}/workzones`)).status, 200);
    assert.equal((await w.as.viewer!('GET', `${pOf(p)}/workzones/${uuidOf(z1)}`)).status, 200);
    assert.equal((await w.as.viewer!('GET', `${pOf(p)}/members`)).status, 200);
    assert.ok((await zonePermissions('viewer', p, z1)).has('workzone:workzones:read'));
  });
});

describe('rule 6: project:project:list makes a project visible; plain members see their projects only', () => {
  test('the lister sees every project with project:project:list only; a plain member only his own', async () => {
    const mine = await createProject(w.as.projectOwner!, { name: 'Heidi has it' });
    const other = await createProject(w.as.projectOwner!, { name: 'Heidi has not' });
    await addMembers(w.as.projectOwner!, mine.id, { users: [{ user: emailOf('heidi'), role: w.roles.Viewer }] });

    const listed = (await w.as.projectLister!('GET', `${A2}/projects`)).body;
    for (const p of [mine, other]) {
      const found = listed.find((x: any) => x.id === p.id);
      assert.ok(found, p.name);
      assert.deepEqual(found.permissions, ['project:project:list']);
    }
    assertProblem(await w.as.projectLister!('GET', `${pOf(mine)}/workzones`), 403, 'not-member-of-project');

    const heidis = (await w.as.heidi!('GET', `${A2}/projects`)).body.map((x: any) => x.id);
    assert.ok(heidis.includes(mine.id));
    assert.ok(!heidis.includes(other.id));
    assertProblem(await w.as.heidi!('GET', pOf(other)), 403, 'not-member-of-project');
  });
});

describe('rule 7: the project owner holds every permission on the project and its zones', () => {
  test('every project permission of the spec, and every work-zone permission on a deep zone', async () => {
    const { p, z1a } = await tree();
    assert.deepEqual(new Set(await projectPermissionsOf(w.as.projectOwner!, p.id)), new Set(ALL_PROJECT_PERMISSIONS));
    const zone = await zonePermissions('projectOwner', p, z1a);
    for (const x of ['workzone:workzones:write', 'workzone:members:write', 'workzone:tags:write', 'workzone:cad-model:write', 'workzone:video3d:write']) {
      assert.ok(zone.has(x), x);
    }
  });

  test('even after removing himself from every zone, the owner keeps them', async () => {
    const { p, root, z1a } = await tree();
    assert.equal((await w.as.projectOwner!('DELETE', `${pOf(p)}/workzones/${uuidOf(root)}/members/users/${w.ids.projectOwner}`)).status, 204);
    assert.equal((await w.as.projectOwner!('POST', `${pOf(p)}/workzones`, { name: 'still mine', parentWorkzoneId: z1a })).status, 201);
    assert.ok((await projectPermissionsOf(w.as.projectOwner!, p.id)).includes('project:workzones:list'));
  });
});

describe('account:users:write implies workzone:members:write on every zone', () => {
  test('administrator and project manager (not members) add members on a deep zone; the lister may not', async () => {
    const { p, z1a } = await tree();
    await addMembers(w.as.administrator!, p.id, { users: [{ user: emailOf('alice'), role: w.roles.Contributor }] }, [z1a]);
    await addMembers(w.as.projectManager!, p.id, { users: [{ user: emailOf('bob'), role: TAGGER_ID }] }, [z1a]);
    const res = await postMembers(w.as.projectLister!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Viewer }] }, [z1a]);
    const body = assertProblem(res, 403, 'add-project-members-forbidden');
    assert.ok(body.errorValues.requiredPermissions.includes('workzone:members:write'));
    assert.ok((await zonePermissions('administrator', p, z1a)).has('workzone:members:write'));
    assert.ok(!(await zonePermissions('projectLister', p, z1a)).has('workzone:members:write'));
  });
});

describe('rule 8: annotations:write on the root gives the integration permissions', () => {
  test('on the root: create-integration-link, integrations:read/write; on a sub-zone only: none of them', async () => {
    const { p, z1 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: ANNOTATOR_ID }] });
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: ANNOTATOR_ID }] }, [z1]);
    const alice = await projectPermissionsOf(w.as.alice!, p.id);
    for (const x of INTEGRATIONS) assert.ok(alice.includes(x), x);
    const bob = await projectPermissionsOf(w.as.bob!, p.id);
    for (const x of INTEGRATIONS) assert.ok(!bob.includes(x), x);
    assert.ok(bob.includes('project:workzones:list'));
    assert.ok((await zonePermissions('bob', p, z1)).has('workzone:annotations:write'));
  });

  test('through a group too', async () => {
    const { p } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_2_ID, role: ANNOTATOR_ID }] });
    const carol = await projectPermissionsOf(w.as.carol!, p.id);
    for (const x of INTEGRATIONS) assert.ok(carol.includes(x), x);
  });
});

describe('one role per member per project; expiration dates', () => {
  test('a different role on another zone is 400 member-has-another-role; the same role is extended with the new expiration', async () => {
    const { p, z1, z1a, z2 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] }, [z1]);
    assertProblem(await postMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: SURVEYOR_ID }] }, [z2]), 400, 'member-has-another-role');
    assert.deepEqual(await zonesOf(p, 'user', w.ids.bob!), new Set([z1, z1a]));

    const until = new Date((await serviceNow(t)).getTime() + 30 * 86400_000).toISOString();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate: until }] }, [z2]);
    const e = entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.bob!);
    assert.deepEqual(new Set(e.workzoneIds), new Set([z1, z1a, z2]));
    assert.equal(e.expirationDate, until, 'one expiration, project-wide');
    // Re-adding without a date clears it.
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate: null }] }, [z1a]);
    assert.equal(entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.bob!).expirationDate, null);
    // Groups follow the same rule.
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_2_ID, role: w.roles.Viewer }] }, [z1]);
    assertProblem(await postMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_2_ID, role: w.roles.Contributor }] }), 400, 'member-has-another-role');
  });

  test('two concurrent requests giving one user two different roles: one wins, the other is 400 member-has-another-role', async () => {
    for (let round = 0; round < 10; round++) {
      const { p, z1, z1a, z2 } = await tree();
      const [a, b] = await Promise.all([
        postMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] }, [z1]),
        postMembers(w.as.projectManager!, p.id, { users: [{ user: emailOf('grace'), role: SURVEYOR_ID }] }, [z2]),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [204, 400], `${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`);
      const loser = a.status === 400 ? a : b;
      assert.equal(loser.body.errorCode, 'member-has-another-role');
      const e = entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.grace!);
      const [role, zones] = a.status === 204 ? [w.roles.Viewer, [z1, z1a]] : [SURVEYOR_ID, [z2]];
      assert.equal(uuidOf(e.roleId), role);
      assert.deepEqual(new Set(e.workzoneIds), new Set(zones), 'only the winner\'s zones');
    }
  });

  test('workzones omitted or null: the whole project; an empty list: 400 invalid-input, not the whole project', async () => {
    const { p, root, z1, z1a, z2 } = await tree();
    assertProblem(await postMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] }, []), 400, 'invalid-input');
    assert.equal(await zonesOf(p, 'user', w.ids.grace!), null);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] }, null);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('heidi'), role: w.roles.Viewer }] });
    for (const u of ['grace', 'heidi']) assert.deepEqual(await zonesOf(p, 'user', w.ids[u]!), new Set([root, z1, z1a, z2]), u);
  });

  test('an expiration date in the past is 400 expiration-date-in-past and nobody of the request is added', async () => {
    const { p } = await tree();
    const past = new Date((await serviceNow(t)).getTime() - 60_000).toISOString();
    const res = await postMembers(w.as.projectOwner!, p.id, {
      users: [{ user: emailOf('grace'), role: w.roles.Viewer }, { user: emailOf('heidi'), role: w.roles.Viewer, expirationDate: past }],
    });
    assertProblem(res, 400, 'expiration-date-in-past');
    assert.equal(await zonesOf(p, 'user', w.ids.grace!), null);
    assert.equal(await zonesOf(p, 'user', w.ids.heidi!), null);
  });
});

describe('the caller must hold every permission he hands out', () => {
  test('an Assistant (manage_users, no create_asset) may hand out Viewer, not Tagger (403); account managers may', async () => {
    const { p, z1 } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('heidi'), role: ASSISTANT_ID }] });
    const res = await postMembers(w.as.heidi!, p.id, { users: [{ user: emailOf('grace'), role: TAGGER_ID }] }, [z1]);
    const body = assertProblem(res, 403, 'add-project-members-forbidden');
    assert.ok(body.errorValues.requiredPermissions.includes('workzone:tags:write'));
    assert.equal(await zonesOf(p, 'user', w.ids.grace!), null);
    await addMembers(w.as.heidi!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] }, [z1]);
    await addMembers(w.as.projectManager!, p.id, { users: [{ user: emailOf('frank'), role: TAGGER_ID }] }, [z1]);
  });

  test('a Manager member holds every permission of the Manager role, so he may hand it out', async () => {
    const { p } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
    await addMembers(w.as.manager!, p.id, { users: [{ user: emailOf('erin'), role: w.roles.Manager }] });
    assert.equal(uuidOf(entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.erin!).roleId), w.roles.Manager);
  });
});

describe('unknown e-mails are invited to the account', () => {
  test('adding newcomer@proj.test creates the user, invites him to the account (pending until he accepts), mails an invitation and places his grant', async () => {
    const { p } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: 'Newcomer@Proj.test', role: w.roles.Viewer }] });
    const mail = (await outbox(t)).find((m) => m.to.toLowerCase() === 'newcomer@proj.test');
    assert.ok(mail, 'an invitation was sent');
    assert.ok(mail.links.length >= 1);
    const users = (await w.as.owner!('GET', `${A2}/users`)).body;
    const u = users.find((x: any) => x.email.toLowerCase() === 'newcomer@proj.test');
    assert.ok(u, 'listed by the account');
    assert.equal(u.pending, true, 'invited, not yet a member');
    assert.ok(await zonesOf(p, 'user', uuidOf(u.id)), 'his grant is placed, and waits for his acceptance');
  });
});

describe('what account changes do to project memberships', () => {
  test('a role in use cannot be deleted (400 role-used with projectIds); unused again, it can', async () => {
    const { p } = await tree();
    const role = (await w.as.owner!('POST', `${A2}/roles`, { name: 'Temp role', legacyPermissions: ['view3d'] })).body;
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: role.id }] });
    const body = assertProblem(await w.as.owner!('DELETE', `${A2}/roles/${uuidOf(role.id)}`), 400, 'role-used');
    assert.match(String(body.errorValues.projectIds), new RegExp(uuidOf(p.id)));
    assert.equal((await w.as.projectOwner!('DELETE', `${pOf(p)}/members/users/${w.ids.alice}`)).status, 204);
    assert.equal((await w.as.owner!('DELETE', `${A2}/roles/${uuidOf(role.id)}`)).status, 204);
  });

  test('deleting a group removes its project memberships (and the access its users had through it)', async () => {
    const { p } = await tree();
    const g = (await w.as.owner!('POST', `${A2}/groups`, { name: 'Short-lived' })).body;
    assert.equal((await w.as.owner!('POST', `${A2}/groups/${uuidOf(g.id)}/members`, [w.ids.grace])).status, 200);
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: g.id, role: w.roles.Viewer }] });
    assert.equal((await w.as.grace!('GET', pOf(p))).status, 200);
    assert.equal((await w.as.owner!('DELETE', `${A2}/groups/${uuidOf(g.id)}`)).status, 204);
    assert.equal(await zonesOf(p, 'group', uuidOf(g.id)), null);
    assertProblem(await w.as.grace!('GET', pOf(p)), 403, 'not-member-of-project');
  });

  test('removing a user from the account removes his project memberships', async () => {
    const { p } = await tree();
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: 'leaver@proj.test', role: w.roles.Viewer }] });
    const access = await accessList(w.as.projectOwner!, p.id);
    const leaver = access.find((m: any) => m.member.email === 'leaver@proj.test');
    assert.ok(leaver);
    assert.equal((await w.as.owner!('DELETE', `${A2}/members`, [leaver.member.id])).status, 204);
    assert.equal(await zonesOf(p, 'user', uuidOf(leaver.member.id)), null);
  });

  test('the owner of a project cannot be removed from the account (403 remove-user-from-account-forbidden)', async () => {
    await tree();
    assertProblem(await w.as.owner!('DELETE', `${A2}/members`, [w.ids.projectOwner]), 403, 'remove-user-from-account-forbidden');
  });
});

describe('expired access grants nothing from its expiration instant (service clock)', () => {
  test('granted until now + 1 h: allowed a minute before, refused from the instant; the list and the group follow', async () => {
    const { p, z1 } = await tree();
    const until = new Date((await serviceNow(t)).getTime() + 3600_000);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('frank'), role: ASSISTANT_ID, expirationDate: until.toISOString() }] });
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_ID, role: w.roles.Viewer, expirationDate: until.toISOString() }] });
    assert.equal((await w.as.frank!('GET', pOf(p))).status, 200);
    assert.equal((await w.as.alice!('GET', pOf(p))).status, 200);

    // The real clock keeps running under the offset: leave a minute of margin on a loaded machine.
    await advanceClock(t, 3540);
    assert.equal((await w.as.frank!('GET', pOf(p))).status, 200);
    assert.ok((await zonePermissions('frank', p, z1)).has('workzone:workzones:write'));

    await advanceClock(t, 60);
    assertProblem(await w.as.frank!('GET', pOf(p)), 403, 'not-member-of-project');
    assertProblem(await w.as.alice!('GET', pOf(p)), 403, 'not-member-of-project');
    assert.ok(!(await w.as.frank!('GET', `${A2}/projects`)).body.some((x: any) => x.id === p.id));
    assertProblem(await w.as.frank!('POST', `${pOf(p)}/workzones`, { name: 'late', parentWorkzoneId: z1 }), 403, 'not-member-of-project');
  });
});
