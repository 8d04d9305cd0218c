import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountPermissions, projectPermissions, workzonePermissions, type AccountFacts, type ProjectFacts } from './evaluate.ts';

const member: AccountFacts = { accountId: 'a', isOwner: false, isMember: true, roles: [] };
const now = new Date('2026-06-01T00:00:00Z');

test('a non-member holds nothing in the account', () => {
  assert.equal(accountPermissions({ accountId: 'a', isOwner: false, isMember: false, roles: [] }).size, 0);
});

test('an account member holds account:account:read, roles:read and groups:read only', () => {
  assert.deepEqual([...accountPermissions(member)].sort(), ['account:account:read', 'account:groups:read', 'account:roles:read']);
});

test('only the owner holds account:account:update-owner; administrators hold the rest of the owner row', () => {
  const owner = accountPermissions({ ...member, isOwner: true });
  const admin = accountPermissions({ ...member, roles: ['administrator'] });
  assert.ok(owner.has('account:account:update-owner'));
  assert.ok(!admin.has('account:account:update-owner'));
  for (const p of ['account:users:write', 'account:administrators:write', 'account:subscriptions:update-name'] as const) {
    assert.ok(owner.has(p) && admin.has(p), p);
  }
  assert.ok(!admin.has('account:projects:create'));
});

test('a project manager may create and delete projects and manage project managers, not administrators', () => {
  const pm = accountPermissions({ ...member, roles: ['projectManager'] });
  assert.ok(pm.has('account:projects:create') && pm.has('account:projects:delete') && pm.has('account:project-managers:write'));
  assert.ok(!pm.has('account:administrators:read') && !pm.has('account:subscriptions:update-name'));
});

test('a project lister only lists projects', () => {
  const pl = accountPermissions({ ...member, roles: ['projectLister'] });
  assert.deepEqual([...pl].sort(), ['account:account:read', 'account:groups:read', 'account:projects:list', 'account:roles:read']);
});

const project = (grants: ProjectFacts['grants'], ownerId: string | null = null): ProjectFacts => ({
  projectId: 'p', ownerId, rootWorkzoneId: 'root', grants,
});

test('rule 5: a member holds workzone:workzones:read on his zones and project:workzones:list / members:list', () => {
  const p = project([{ roleId: 'r', workzoneIds: new Set(['w1']), permissions: ['workzone:tags:read'], expiresAt: null }]);
  const wz = workzonePermissions('u', member, p, 'w1', now);
  assert.ok(wz.has('workzone:workzones:read') && wz.has('workzone:tags:read'));
  assert.equal(workzonePermissions('u', member, p, 'w2', now).size, 0);
  const pp = projectPermissions('u', member, p, now);
  assert.ok(pp.has('project:workzones:list') && pp.has('project:members:list'));
});

test('expired access grants nothing from its expiration instant', () => {
  const p = project([{ roleId: 'r', workzoneIds: new Set(['w1']), permissions: ['workzone:tags:read'], expiresAt: now }]);
  assert.equal(workzonePermissions('u', member, p, 'w1', now).size, 0);
  assert.ok(!projectPermissions('u', member, p, now).has('project:workzones:list'));
  const later = project([{ roleId: 'r', workzoneIds: new Set(['w1']), permissions: ['workzone:tags:read'], expiresAt: new Date(now.getTime() + 1) }]);
  assert.ok(workzonePermissions('u', member, later, 'w1', now).has('workzone:tags:read'));
});

test('rule 1: own role and group roles are united', () => {
  const p = project([
    { roleId: 'r', workzoneIds: new Set(['w1']), permissions: ['workzone:tags:read'], expiresAt: null },
    { roleId: 'r', workzoneIds: new Set(['w1']), permissions: ['workzone:documents:read', 'workzone:documents:write'], expiresAt: null },
  ]);
  const wz = workzonePermissions('u', member, p, 'w1', now);
  assert.ok(wz.has('workzone:tags:read') && wz.has('workzone:documents:write'));
});

test('rule 6: account:projects:list gives project:project:list to non-members', () => {
  const pl = { ...member, roles: ['projectLister'] as const };
  const pp = projectPermissions('u', pl, project([]), now);
  assert.ok(pp.has('project:project:list'));
  assert.ok(!pp.has('project:workzones:list'));
});

test('rule 7: the project owner has every project and work-zone permission', () => {
  const p = project([], 'u');
  assert.ok(projectPermissions('u', member, p, now).has('project:project:update-owner'));
  assert.ok(workzonePermissions('u', member, p, 'any', now).has('workzone:members:write'));
});

test('rule 8: annotations:write on the root zone gives the integration permissions', () => {
  const onRoot = project([{ roleId: 'r', workzoneIds: new Set(['root']), permissions: ['workzone:annotations:read', 'workzone:annotations:write'], expiresAt: null }]);
  const onChild = project([{ roleId: 'r', workzoneIds: new Set(['w1']), permissions: ['workzone:annotations:read', 'workzone:annotations:write'], expiresAt: null }]);
  assert.ok(projectPermissions('u', member, onRoot, now).has('project:integrations:write'));
  assert.ok(!projectPermissions('u', member, onChild, now).has('project:integrations:write'));
});

test('account:users:write implies workzone:members:write on every zone', () => {
  const admin = { ...member, roles: ['administrator'] as const };
  assert.ok(workzonePermissions('u', admin, project([]), 'any', now).has('workzone:members:write'));
});
