// errorValues.grantedBy (granted-by.ts): the account roles a 403 names are the ones whose
// holder, with no project role, would pass the same check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grantingRoles, refusalValues } from './granted-by.ts';
import { accountPermissions } from './evaluate.ts';
import { PROJECT_MANAGER_PERMISSIONS } from './account-roles.ts';

test('creating a project is granted by the project-manager role alone: the owner and administrators lack it', () => {
  assert.deepEqual(grantingRoles(['account:projects:create']), ['projectManager']);
  assert.deepEqual(refusalValues(['account:projects:create']), { requiredPermissions: ['account:projects:create'], grantedBy: ['projectManager'] });
});

test('a permission only the owner holds names the owner; one every role below lists grants names each', () => {
  assert.deepEqual(grantingRoles(['account:account:update-owner']), ['owner']);
  assert.deepEqual(grantingRoles(['account:projects:list']), ['owner', 'administrator', 'projectManager', 'projectLister']);
  assert.deepEqual(grantingRoles(['account:administrators:write']), ['owner', 'administrator']);
});

test('project and work-zone permissions implied by account roles are named (rule 6, account:users:write); project-role ones are not', () => {
  assert.deepEqual(grantingRoles(['project:project:delete']), ['projectManager']);
  assert.deepEqual(grantingRoles(['project:project:update-owner', 'project:project:update-subscription']), ['owner', 'administrator']);
  assert.deepEqual(grantingRoles(['workzone:members:write']), ['owner', 'administrator', 'projectManager']);
  assert.deepEqual(grantingRoles(['workzone:tags:write']), []);
  assert.deepEqual(grantingRoles(['project:workzones:list']), []);
});

test('a role is named only when it grants every permission of the list', () => {
  assert.deepEqual(grantingRoles(['account:projects:create', 'account:administrators:write']), []);
  const pm = accountPermissions({ accountId: 'a', isOwner: false, isMember: true, roles: ['projectManager'] });
  for (const p of PROJECT_MANAGER_PERMISSIONS) assert.ok(pm.has(p) && grantingRoles([p]).includes('projectManager'), p);
});
