// Roles and groups in the seed document (CONTRACT §3): every account gets its base roles,
// seeded roles and groups are matched by fixed id or name, re-applying the same document
// changes nothing, a changed document updates in place, and a refused document changes
// nothing at all.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';

let t: TestApp;
const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };

const ROLE_ID = 'ABCDEF01-2345-4678-89AB-CDEF01234567'; // upper case on purpose: UUIDs compare case-insensitively
const GROUP_ID = 'abcdef01-2345-4678-89ab-cdef01234568';

const doc = (over: { roles?: unknown[]; groups?: unknown[]; members?: string[] } = {}) => ({
  users: [
    { email: 'sophie@seed.test', password: 'sophie-password-1' },
    { email: 'tom@seed.test' },
    { email: 'uma@seed.test' },
    { email: 'stranger@seed.test' },
  ],
  accounts: [
    {
      name: 'Seeded',
      owner: 'sophie@seed.test',
      members: over.members ?? ['tom@seed.test', 'uma@seed.test'],
      roles: over.roles ?? [
        { id: ROLE_ID, name: 'Surveyor', legacyPermissions: ['upload', 'view3d'] },
        { name: 'Inspector', description: 'Looks', color: '#112233', permissions: ['workzone:annotations:read', 'workzone:annotations:write'] },
      ],
      groups: over.groups ?? [
        { id: GROUP_ID, name: 'Crew', users: ['tom@seed.test', 'uma@seed.test'] },
        { name: 'Office', description: 'Desk', color: '#445566', users: [] },
      ],
    },
    { name: 'Bare', owner: 'sophie@seed.test' },
  ],
});

async function seed(d: unknown) {
  const res = await t.app.inject({ method: 'POST', url: '/_operator/seed', headers: op, payload: d as object });
  return { status: res.statusCode, body: res.json() };
}

async function state(accountName: string) {
  const repos = t.core.store.repos;
  const account = await repos.accounts.byName(accountName);
  assert.ok(account);
  return { roles: await repos.roles.listByAccount(account.id), groups: await repos.groups.listByAccount(account.id) };
}

before(async () => {
  t = await testApp();
});
after(() => t.close());

test('seed answers the ids of the roles and groups it names; every account has the base roles', async () => {
  const res = await seed(doc());
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const seeded = res.body.accounts.find((a: any) => a.name === 'Seeded');
  assert.deepEqual(seeded.roles.map((r: any) => r.name), ['Surveyor', 'Inspector']);
  assert.equal(seeded.roles[0].id, ROLE_ID.toLowerCase());
  assert.deepEqual(seeded.groups.map((g: any) => g.name), ['Crew', 'Office']);
  assert.equal(seeded.groups[0].id, GROUP_ID);

  const { roles, groups } = await state('Seeded');
  assert.deepEqual(roles.map((r) => r.name).sort(), ['Contributor', 'Inspector', 'Manager', 'Surveyor', 'Viewer']);
  const surveyor = roles.find((r) => r.name === 'Surveyor')!;
  assert.deepEqual([...surveyor.permissions].sort(), ['workzone:import-jobs-reality-data:write', 'workzone:reality-data:read', 'workzone:reality-data:write']);
  const inspector = roles.find((r) => r.name === 'Inspector')!;
  assert.deepEqual([...inspector.legacyPermissions].sort(), ['annotate', 'view_annotation']);
  assert.equal(inspector.color, '#112233');
  assert.equal(inspector.description, 'Looks');
  assert.equal(groups.find((g) => g.name === 'Crew')!.userIds.length, 2);
  assert.equal(groups.find((g) => g.name === 'Office')!.description, 'Desk');

  const bare = await state('Bare');
  assert.deepEqual(bare.roles.map((r) => r.name).sort(), ['Contributor', 'Manager', 'Viewer']);
  assert.deepEqual(bare.groups, []);
});

test('applying the same document again changes nothing (same ids, same timestamps, same members)', async () => {
  const before = await state('Seeded');
  const res = await seed(doc());
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(await state('Seeded'), before);
});

test('a changed document updates roles and groups in place and makes group membership match', async () => {
  const before = await state('Seeded');
  const res = await seed(
    doc({
      roles: [
        { id: ROLE_ID, name: 'Surveyor', legacyPermissions: ['view3d'] },
        { name: 'Inspector', description: 'Looks', color: '#112233', permissions: ['workzone:annotations:read', 'workzone:annotations:write'] },
      ],
      groups: [
        { id: GROUP_ID, name: 'Crew', users: ['uma@seed.test'] },
        { name: 'office', description: 'Desk', color: '#445566', users: ['tom@seed.test'] },
      ],
    }),
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const after = await state('Seeded');
  const surveyor = after.roles.find((r) => r.name === 'Surveyor')!;
  assert.equal(surveyor.id, ROLE_ID.toLowerCase());
  assert.deepEqual(surveyor.permissions, ['workzone:reality-data:read']);
  assert.deepEqual(after.roles.find((r) => r.name === 'Inspector'), before.roles.find((r) => r.name === 'Inspector'), 'untouched');
  const crew = after.groups.find((g) => g.id === GROUP_ID)!;
  const uma = await t.core.store.repos.users.byEmail('uma@seed.test');
  assert.deepEqual(crew.userIds, [uma!.id]);
  const office = after.groups.find((g) => g.name.toLowerCase() === 'office')!;
  assert.equal(office.id, before.groups.find((g) => g.name === 'Office')!.id, 'matched by name, case-insensitively');
  assert.equal(after.groups.length, 2);
});

test('refused documents answer 400 and change nothing: a base role, a broken combination, a group member outside the account', async () => {
  const before = await state('Seeded');
  for (const bad of [
    doc({ roles: [{ name: 'Manager', legacyPermissions: ['view3d'] }] }),
    doc({ roles: [{ name: 'Broken', permissions: ['workzone:annotations:write'] }] }),
    doc({ roles: [{ name: 'Nothing' }] }),
    doc({ groups: [{ name: 'Crew', users: ['stranger@seed.test'] }] }),
    doc({ groups: [{ name: '' }] }),
  ]) {
    const res = await seed(bad);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errorCode, 'invalid-input');
    assert.deepEqual(await state('Seeded'), before);
  }
});

test('seeded roles and groups are what API 2 shows', async () => {
  const { access_token } = await t.tokens('sophie@seed.test');
  const account = await t.core.store.repos.accounts.byName('Seeded');
  const h = { authorization: `Bearer ${access_token}` };
  const role = await t.app.inject({ url: `/api/2/accounts/${account!.id}/roles/${ROLE_ID}`, headers: h });
  assert.equal(role.statusCode, 200);
  assert.equal(role.json().name, 'Surveyor');
  assert.equal(role.json().createdBy, `urn:svc:user:${account!.ownerId}`);
  const group = await t.app.inject({ url: `/api/2/accounts/${account!.id}/groups/${GROUP_ID}`, headers: h });
  assert.equal(group.statusCode, 200);
  assert.equal(group.json().name, 'Crew');
});
