import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_ROLES, LEGACY_EXPANSION, LEGACY_PERMISSIONS, ROLE_PERMISSIONS, WITHOUT_LEGACY, basePermissions,
  effectiveRolePermissions, expandLegacy, isUnionOfRows, legacyOf, resolveRolePermissions, type RolePermission,
} from './role-rules.ts';

// The legacy table of CONTRACT §5, written out again here (not imported) so the test
// checks the implementation against the contract rather than against itself.
const CONTRACT_LEGACY: Record<string, string[]> = {
  create_project: ['project:project:update-details', 'project:project:delete'],
  workzone: ['workzone:workzones:read', 'workzone:workzones:write'],
  view3d: ['workzone:reality-data:read'],
  annotate: ['workzone:annotations:read', 'workzone:annotations:write'],
  view_annotation: ['workzone:annotations:read'],
  measure: ['workzone:measurements:read', 'workzone:measurements:write'],
  share: ['workzone:share-links:read', 'workzone:share-links:write'],
  upload: ['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write'],
  download: ['workzone:export-jobs-reality-data:read', 'workzone:export-jobs-reality-data:write'],
  upload_doc: ['workzone:documents:read', 'workzone:documents:write'],
  manage_users: ['workzone:members:write'],
  create_asset: ['workzone:tags:write'],
  view_asset: ['workzone:tags:read'],
  manage_savedview: ['workzone:savedviews:read', 'workzone:savedviews:write'],
  view_savedview: ['workzone:savedviews:read'],
  manage_cipm: [
    'workzone:progress-monitoring-jobs:read', 'workzone:progress-monitoring-jobs:write',
    'workzone:own-progress-monitoring-jobs:read', 'workzone:own-progress-monitoring-jobs:write',
    'workzone:model-reports:read', 'workzone:model-reports:write',
  ],
};

const sorted = (a: readonly string[]) => [...a].sort();

test('every legacy name expands exactly as CONTRACT §5 says', () => {
  assert.deepEqual(sorted(Object.keys(LEGACY_EXPANSION)), sorted(Object.keys(CONTRACT_LEGACY)));
  for (const name of LEGACY_PERMISSIONS) {
    assert.deepEqual(sorted(expandLegacy([name])), sorted(CONTRACT_LEGACY[name]!), name);
  }
});

test('each legacy name alone is a valid role, and round-trips through its expansion', () => {
  for (const name of LEGACY_PERMISSIONS) {
    const r = resolveRolePermissions(undefined, [name]);
    assert.ok(!('rule' in r), name);
    assert.ok(isUnionOfRows(r.permissions), name);
    assert.ok(legacyOf(r.permissions).includes(name), name);
  }
});

test('permissions with no legacy form have no legacy name', () => {
  assert.deepEqual(
    sorted([...WITHOUT_LEGACY]),
    sorted(['workzone:own-share-links:read', 'workzone:own-share-links:write', 'workzone:reality-data:transform', 'workzone:cad-model:read', 'workzone:cad-model:transform']),
  );
  assert.deepEqual(legacyOf(['workzone:reality-data:transform']), []);
});

test('a role must hold a union of whole rows: {annotations:write} alone is refused', () => {
  const r = resolveRolePermissions(['workzone:annotations:write'], undefined);
  assert.ok('rule' in r && r.rule === 'combination');
});

test('{tags:write} alone is allowed (it is a row of its own)', () => {
  const r = resolveRolePermissions(['workzone:tags:write'], undefined);
  assert.ok(!('rule' in r));
  assert.deepEqual(r.legacyPermissions, ['create_asset']);
});

test('half a row is refused: workzones:write without workzones:read', () => {
  assert.equal(isUnionOfRows(['workzone:workzones:write']), false);
  assert.equal(isUnionOfRows(['workzone:workzones:write', 'workzone:workzones:read']), true);
  assert.equal(isUnionOfRows(['workzone:measurements:write']), false);
  assert.equal(isUnionOfRows(['project:project:delete']), false);
});

test('export-jobs-reality-data:read, named by no row, is a row of its own', () => {
  assert.equal(isUnionOfRows(['workzone:export-jobs-reality-data:read']), true);
});

test('the whole Role enum is a valid union of rows', () => {
  assert.equal(isUnionOfRows([...ROLE_PERMISSIONS]), true);
});

test('given permissions only, legacyPermissions lists every legacy name whose expansion they contain', () => {
  const r = resolveRolePermissions(['workzone:annotations:read', 'workzone:annotations:write', 'workzone:tags:read'], undefined);
  assert.ok(!('rule' in r));
  assert.deepEqual(sorted(r.legacyPermissions), sorted(['annotate', 'view_annotation', 'view_asset']));
});

test('given both, they must be equivalent (ignoring names without legacy form)', () => {
  const ok = resolveRolePermissions(
    ['workzone:reality-data:read', 'workzone:reality-data:transform'] as RolePermission[],
    ['view3d'],
  );
  assert.ok(!('rule' in ok));
  const bad = resolveRolePermissions(['workzone:reality-data:read'], ['view3d', 'view_asset']);
  assert.ok('rule' in bad && bad.rule === 'mismatch');
  const bad2 = resolveRolePermissions(['workzone:reality-data:read', 'workzone:tags:read'], ['view3d']);
  assert.ok('rule' in bad2 && bad2.rule === 'mismatch');
});

test('neither permissions nor legacyPermissions is refused', () => {
  for (const [p, l] of [[undefined, undefined], [[], []], [null, null]] as const) {
    const r = resolveRolePermissions(p as never, l as never);
    assert.ok('rule' in r && r.rule === 'missing');
  }
});

test('base roles expand as CONTRACT §5 says', () => {
  const byName = Object.fromEntries(BASE_ROLES.map((b) => [b.name, basePermissions(b.legacy)]));
  assert.deepEqual(sorted(byName.Manager!.permissions), sorted(ROLE_PERMISSIONS));
  assert.deepEqual(
    sorted(byName.Contributor!.legacyPermissions),
    sorted(['view3d', 'annotate', 'view_annotation', 'measure', 'upload', 'download', 'upload_doc', 'create_asset', 'view_asset', 'manage_savedview', 'view_savedview']),
  );
  assert.deepEqual(sorted(byName.Viewer!.legacyPermissions), sorted(['view3d', 'view_annotation', 'view_asset', 'view_savedview']));
  assert.deepEqual(
    sorted(byName.Viewer!.permissions),
    sorted(['workzone:reality-data:read', 'workzone:annotations:read', 'workzone:tags:read', 'workzone:savedviews:read']),
  );
  for (const b of Object.values(byName)) assert.ok(isUnionOfRows(b.permissions as RolePermission[]));
});

test('at evaluation a role holding a row holds the whole row', () => {
  const viewer = effectiveRolePermissions(['workzone:reality-data:read']);
  assert.ok(viewer.has('workzone:crops:read'));
  const measure = effectiveRolePermissions(['workzone:measurements:read', 'workzone:measurements:write']);
  assert.ok(measure.has('workzone:crops:write'));
  const cad = effectiveRolePermissions(['workzone:cad-model:read']);
  for (const p of ['workzone:cad-model:write', 'workzone:import-jobs-cad-model:read', 'workzone:own-import-jobs-cad-model:write']) {
    assert.ok(cad.has(p as never), p);
  }
  assert.equal(effectiveRolePermissions(['workzone:measurements:read']).has('workzone:crops:write'), false);
});
