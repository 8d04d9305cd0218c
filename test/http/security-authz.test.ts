// Authorization fixes of the security review (docs/security.md "Authorization"), one
// test per rule, sharing one project world (seeding it and signing its users in is most
// of the file's time).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, ASSISTANT_ID, GROUP_ID, SUB_A, accessList, addMembers, assertApi1Error, assertProblem, createProject, createZone, emailOf, entryOf, outbox, postMembers, projectWorld, serviceNow,
  uuidOf, type World,
} from '../support/projects.ts';
import { bytes, item, putSigned, upload } from '../support/files.ts';

let t: TestApp;
let w: World;
before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());


test('a work-zone copy includes only the files the caller may read in the source', async () => {
  const p = await createProject(w.as.projectOwner!);
  const s = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'S');
  const s1 = await createZone(w.as.projectOwner!, p.id, s.id, 'S1');
  await upload(t, w.as.projectOwner!, p.id, s.id, [
    { name: 'Scan S', extension: 'e57', content: bytes(200, 1) },
    { name: 'Model S', extension: 'ifc', content: bytes(150, 2) },
    { name: 'Doc S', extension: 'pdf', content: bytes(100, 3) },
  ]);
  await upload(t, w.as.projectOwner!, p.id, s1.id, [{ name: 'Doc S1', extension: 'pdf', content: bytes(100, 4) }]);

  // The project manager (who may create projects) views scans and models on S, but not documents.
  const role = await w.as.owner!('POST', `${A2}/roles`, {
    name: 'Scans and models', permissions: ['workzone:workzones:read', 'workzone:workzones:write', 'workzone:reality-data:read', 'workzone:cad-model:read'],
  });
  assert.equal(role.status, 201, JSON.stringify(role.body));
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('projectManager'), role: role.body.id }] }, [s.id]);
  const pdf = await w.as.projectManager!('GET', `${A2}/projects/${uuidOf(p.id)}/files?category=document`);
  assert.equal(pdf.status, 200);
  const docBlob = (await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(p.id)}/files?category=document`)).body[0].blobName;
  assert.equal((await w.as.projectManager!('GET', `${A2}/projects/${uuidOf(p.id)}/blobs/${docBlob}`)).status, 403, 'no download of documents');

  const res = await w.as.projectManager!('POST', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(s.id)}/copy`, {
    destinationName: 'Copied by the manager', destinationSubscription: SUB_A,
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  await t.core.jobRunner.drain();
  const created = (await w.as.projectManager!('GET', `${A2}/projects`)).body.find((x: any) => x.name === 'Copied by the manager');
  assert.ok(created, 'the new project');
  const files = (await w.as.projectManager!('GET', `${A2}/projects/${uuidOf(created.id)}/files`)).body;
  assert.deepEqual(files.map((f: any) => f.name).sort(), ['Model S', 'Scan S'], 'no document, in S or below');
  const mail = (await outbox(t)).find((m) => m.to === emailOf('projectManager') && m.subject.includes('Copied by the manager'));
  assert.ok(mail?.text.includes('2 files'), mail?.text);

  // The project owner, who reads everything, copies every file as before.
  const all = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(s.id)}/copy`, {
    destinationName: 'Copied by the owner', destinationSubscription: SUB_A,
  });
  assert.equal(all.status, 202, JSON.stringify(all.body));
  await t.core.jobRunner.drain();
  const mine = (await w.as.projectOwner!('GET', `${A2}/projects`)).body.find((x: any) => x.name === 'Copied by the owner');
  const names = (await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(mine.id)}/files`)).body.map((f: any) => f.name).sort();
  assert.deepEqual(names, ['Doc S', 'Doc S1', 'Model S', 'Scan S']);
});


const days = async (n: number) => new Date((await serviceNow(t)).getTime() + n * 86400_000).toISOString();

test('changing an expiration date needs workzone:members:write on every zone the member holds', async () => {
  const p = await createProject(w.as.projectOwner!);
  const z1 = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z1')).id as string;
  const z2 = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Z2')).id as string;
  // alice manages members of Z1 only; bob is a Viewer of Z2 until `soon`.
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: w.roles.Manager }] }, [z1]);
  const soon = await days(10);
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate: soon }] }, [z2]);

  // A later date, or none: both would change bob's access on Z2, where alice manages nobody.
  for (const expirationDate of [await days(365), null]) {
    const res = await postMembers(w.as.alice!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate }] }, [z1]);
    const body = assertProblem(res, 403, 'add-project-members-forbidden');
    assert.deepEqual(body.errorValues.requiredPermissions, ['workzone:members:write']);
    const bob = entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.bob!);
    assert.equal(bob.expirationDate, soon, 'nothing changed');
    assert.deepEqual(bob.workzoneIds, [z2], 'not even the zones of the refused request');
  }

  // The same date: alice only extends bob to her zone.
  await addMembers(w.as.alice!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate: soon }] }, [z1]);
  const bob = entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.bob!);
  assert.deepEqual(new Set(bob.workzoneIds), new Set([z1, z2]));
  assert.equal(bob.expirationDate, soon);

  // Within her zones she changes what she likes: carol holds Z1 only.
  await addMembers(w.as.alice!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Viewer, expirationDate: soon }] }, [z1]);
  const later = await days(30);
  await addMembers(w.as.alice!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Viewer, expirationDate: later }] }, [z1]);
  assert.equal(entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.carol!).expirationDate, later);

  // Whoever manages members on the root changes it project-wide, as before.
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate: later }] }, [z1]);
  assert.equal(entryOf(await accessList(w.as.projectOwner!, p.id), 'user', w.ids.bob!).expirationDate, later);
});

test('an import job\'s view lists only the scans the caller may read (reality-data:read on their zone)', async () => {
  const p = await createProject(w.as.projectOwner!);
  const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Import here')).id as string;
  // erin imports scans on Z but may not view them; frank may view them too.
  const importer = await w.as.owner!('POST', `${A2}/roles`, {
    name: 'Importer', permissions: ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'],
  });
  assert.equal(importer.status, 201, JSON.stringify(importer.body));
  const viewer = await w.as.owner!('POST', `${A2}/roles`, {
    name: 'Importer and viewer', permissions: ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write', 'workzone:reality-data:read'],
  });
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('erin'), role: importer.body.id }] }, [z]);
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('frank'), role: viewer.body.id }] }, [z]);

  const start = await w.as.erin!('POST', `${A1}/projects/${uuidOf(p.id)}/workzones/${uuidOf(z)}/connect/import`);
  assert.equal(start.status, 200, JSON.stringify(start.body));
  const jobUrl = `/connect/${start.body.slug}`;
  const scan = { name: 'imported', extension: 'e57', content: bytes(400, 5) };
  const signed = await w.as.erin!('POST', `${jobUrl}/files`, [item(scan)]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  assert.equal((await putSigned(t, signed.body.files[0].url, scan.content)).statusCode, 201);
  const reg = await w.as.erin!('PUT', `${jobUrl}/files`, [{ ...item(scan), blobName: signed.body.files[0].blobName }]);
  assert.equal(reg.status, 200, JSON.stringify(reg.body));

  const asErin = await w.as.erin!('GET', jobUrl);
  assert.equal(asErin.status, 200, JSON.stringify(asErin.body));
  assert.equal(asErin.body.state, 'received');
  assert.deepEqual(asErin.body.files, [], 'no download URL without reality-data:read');
  const asFrank = await w.as.frank!('GET', jobUrl);
  assert.deepEqual(asFrank.body.files.map((f: any) => f.name), ['imported']);
  assert.match(asFrank.body.files[0].url, /^http/);
});

test('non-members get not-member-of-project on every member-only read; API 1\'s project shows them no zones or members', async () => {
  const p = await createProject(w.as.projectOwner!);
  const z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Inside');
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }] });
  const [file] = await upload(t, w.as.projectOwner!, p.id, z.id, [{ name: 'Scan', extension: 'e57', content: bytes(100, 6) }]);
  const list = await w.as.projectOwner!('POST', `${A2}/projects/${uuidOf(p.id)}/tag-lists`, { workzoneId: z.id, tagListType: '3d', name: 'Tags' });
  assert.equal(list.status, 201, JSON.stringify(list.body));
  const P2 = `${A2}/projects/${uuidOf(p.id)}`;
  const P1 = `${A1}/projects/${p.api1Id}`;
  const reads2 = [
    `${P2}/workzones`, `${P2}/workzones/${uuidOf(z.id)}`, `${P2}/members`, `${P2}/members/access`, `${P2}/files`, `${P2}/files/${file!.id}`,
    `${P2}/blobs/${file!.blobName}`, `${P2}/crops`, `${P2}/tag-lists`, `${P2}/tag-lists/${uuidOf(list.body.id)}`,
  ];
  const reads1 = [`${P1}/files`, `${P1}/tag-lists`];

  // The project lister and the administrator see the project listed, and are no members.
  for (const who of ['projectLister', 'administrator'] as const) {
    assert.equal((await w.as[who]!('GET', P2)).status, 200, `${who} sees the project`);
    for (const url of reads2) {
      const body = assertProblem(await w.as[who]!('GET', url), 403, 'not-member-of-project');
      assert.deepEqual(body.errorValues.requiredPermissions, ['project:workzones:list'], url);
    }
    for (const url of reads1) assertApi1Error(await w.as[who]!('GET', url), 403, 'not-member-of-project');
    const api1 = await w.as[who]!('GET', P1);
    assert.equal(api1.status, 200, JSON.stringify(api1.body));
    assert.equal(api1.body.name, p.name);
    assert.deepEqual([api1.body.userIds, api1.body.groupIds, api1.body.roleIds, api1.body.workzones], [[], [], [], []], `${who}: no member data`);
    const found = (await w.as[who]!('GET', `${A1}/projects`)).body.find((x: any) => x.id === p.api1Id);
    assert.deepEqual([found.userIds, found.workzones], [[], []], `${who}: none in the find either`);
  }
  // A plain account member outside the project: the same code, as before.
  assertProblem(await w.as.member!('GET', `${P2}/workzones`), 403, 'not-member-of-project');

  // account:users:write still gives workzone:members:write on every zone.
  await addMembers(w.as.administrator!, p.id, { users: [{ user: emailOf('heidi'), role: w.roles.Viewer }] }, [z.id]);

  // A member reads all of it, and API 1 shows him the zones and members.
  for (const url of reads2) assert.ok([200, 302].includes((await w.as.viewer!('GET', url)).status), url);
  const api1 = (await w.as.viewer!('GET', P1)).body;
  assert.equal(api1.workzones.length, 2);
  assert.equal(api1.userIds.length, 3, 'projectOwner, viewer, heidi');
});

test('listing the account\'s users needs account:users:read or workzone:members:write on any work zone of the account', async () => {
  const p = await createProject(w.as.projectOwner!);
  const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId, 'Managed')).id as string;
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Manager }, { user: emailOf('dave'), role: w.roles.Viewer }] }, [z]);

  // grace manages members of one sub-zone: she lists the users, without their account roles.
  const listed = await w.as.grace!('GET', `${A2}/users`);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.ok(listed.body.some((u: any) => u.email === emailOf('dave')));
  assert.ok(listed.body.every((u: any) => !('accountRoles' in u)), 'account roles stay hidden');
  assert.equal((await w.as.grace!('GET', `${A1}/users`)).status, 200, 'API 1 too');

  // dave views only; the project lister sees projects but manages no members.
  for (const who of ['dave', 'projectLister', 'bob'] as const) {
    const body = assertProblem(await w.as[who]!('GET', `${A2}/users`), 403, 'list-users-forbidden');
    assert.deepEqual(body.errorValues.requiredPermissions, ['account:users:read']);
  }
  // Through a group's role (Assistant holds manage_users) it counts too.
  await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_ID, role: ASSISTANT_ID }] }, [z]);
  assert.equal((await w.as.bob!('GET', `${A2}/users`)).status, 200);
});
