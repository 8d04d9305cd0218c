// Roles through API 2 (spec "Role", "Create role", "Update role"; CONTRACT §5): the base
// roles, the legacy ↔ new equivalence, the combination and colour rules, the overwrite
// semantics of PUT, base-role protection, deletion, and role references. The expected
// values are written from the spec and CONTRACT tables, not imported from src/.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { ACTORS, ACCOUNT_ID, OTHER_ACCOUNT_ID, ROLE_ID, WORLD_SEED, email, type ActorName } from '../support/world.ts';

// Spec "Role": allowed values of Role.permissions.
const ROLE_ENUM = [
  'project:project:delete', 'project:project:update-details', 'workzone:workzones:write', 'workzone:workzones:read',
  'workzone:annotations:write', 'workzone:annotations:read', 'workzone:measurements:write', 'workzone:measurements:read',
  'workzone:share-links:write', 'workzone:share-links:read', 'workzone:own-share-links:write',
  'workzone:own-share-links:read', 'workzone:reality-data:read', 'workzone:reality-data:write',
  'workzone:reality-data:transform', 'workzone:cad-model:transform', 'workzone:cad-model:read',
  'workzone:import-jobs-reality-data:write', 'workzone:export-jobs-reality-data:read',
  'workzone:export-jobs-reality-data:write', 'workzone:documents:write', 'workzone:documents:read',
  'workzone:members:write', 'workzone:tags:write', 'workzone:tags:read', 'workzone:savedviews:write',
  'workzone:savedviews:read', 'workzone:model-reports:read', 'workzone:model-reports:write',
  'workzone:progress-monitoring-jobs:read', 'workzone:progress-monitoring-jobs:write',
  'workzone:own-progress-monitoring-jobs:read', 'workzone:own-progress-monitoring-jobs:write',
];

// CONTRACT §5: the legacy table (all under workzone: unless written in full).
const W = (...names: string[]) => names.map((n) => (n.startsWith('project:') ? n : `workzone:${n}`));
const LEGACY: Record<string, string[]> = {
  create_project: W('project:project:update-details', 'project:project:delete'),
  workzone: W('workzones:read', 'workzones:write'),
  view3d: W('reality-data:read'),
  annotate: W('annotations:read', 'annotations:write'),
  view_annotation: W('annotations:read'),
  measure: W('measurements:read', 'measurements:write'),
  share: W('share-links:read', 'share-links:write'),
  upload: W('reality-data:write', 'import-jobs-reality-data:write'),
  download: W('export-jobs-reality-data:read', 'export-jobs-reality-data:write'),
  upload_doc: W('documents:read', 'documents:write'),
  manage_users: W('members:write'),
  create_asset: W('tags:write'),
  view_asset: W('tags:read'),
  manage_savedview: W('savedviews:read', 'savedviews:write'),
  view_savedview: W('savedviews:read'),
  manage_cipm: W(
    'progress-monitoring-jobs:read', 'progress-monitoring-jobs:write', 'own-progress-monitoring-jobs:read',
    'own-progress-monitoring-jobs:write', 'model-reports:read', 'model-reports:write',
  ),
};
const expand = (legacy: string[]) => [...new Set(legacy.flatMap((l) => LEGACY[l]!))];
const sorted = (a: readonly string[]) => [...a].sort();

const CONTRIBUTOR = ['view3d', 'annotate', 'view_annotation', 'measure', 'upload', 'download', 'upload_doc', 'create_asset', 'view_asset', 'manage_savedview', 'view_savedview'];
const VIEWER = ['view3d', 'view_annotation', 'view_asset', 'view_savedview'];

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let ownerId: string;
const tokens = new Map<ActorName, string>();

interface Res {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

async function api(actor: ActorName, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Res> {
  const res = await t.app.inject({
    method,
    url,
    payload: payload as object | undefined,
    headers: { authorization: `Bearer ${tokens.get(actor)}` },
  });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
}

function assertProblem(res: Res, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
  assert.equal(res.body.errorCode, code, JSON.stringify(res.body));
}

const uuidOf = (urn: string) => urn.split(':')[3]!;
let counter = 0;
const unique = (p: string) => `${p} ${++counter}`;

async function create(body: Record<string, unknown>): Promise<any> {
  const res = await api('owner', 'POST', `${A2}/roles`, { name: unique('Role'), ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function roleCount(): Promise<number> {
  return (await api('owner', 'GET', `${A2}/roles`)).body.length;
}

before(async () => {
  t = await testApp();
  const seeded = await t.seed(WORLD_SEED);
  ownerId = seeded.users.find((u: { email: string }) => u.email === email('owner')).id;
  for (const a of ACTORS) tokens.set(a, (await t.tokens(email(a))).access_token);
});
after(() => t.close());

describe('base roles', () => {
  test('the list holds Manager, Contributor and Viewer with the permissions CONTRACT §5 gives them, and the seeded role', async () => {
    const res = await api('member', 'GET', `${A2}/roles`);
    assert.equal(res.status, 200);
    const byName = new Map<string, any>(res.body.map((r: any) => [r.name, r]));
    assert.deepEqual(sorted([...byName.keys()]), ['Contributor', 'Manager', 'Surveyor', 'Viewer']);

    const manager = byName.get('Manager');
    assert.deepEqual(sorted(manager.permissions), sorted(ROLE_ENUM), 'Manager holds every role permission');
    assert.deepEqual(sorted(manager.legacyPermissions), sorted(Object.keys(LEGACY)));

    const contributor = byName.get('Contributor');
    assert.deepEqual(sorted(contributor.legacyPermissions), sorted(CONTRIBUTOR));
    assert.deepEqual(sorted(contributor.permissions), sorted(expand(CONTRIBUTOR)));

    const viewer = byName.get('Viewer');
    assert.deepEqual(sorted(viewer.legacyPermissions), sorted(VIEWER));
    assert.deepEqual(sorted(viewer.permissions), sorted(expand(VIEWER)));

    const surveyor = byName.get('Surveyor');
    assert.equal(surveyor.id, `urn:svc:role:${ROLE_ID}`);
    assert.deepEqual(sorted(surveyor.permissions), sorted(expand(['view3d', 'upload'])));

    for (const r of res.body) {
      assert.equal(r.type, 'role');
      assert.match(r.id, /^urn:svc:role:/);
      assert.equal(r.urn, r.id);
      assert.match(uuidOf(r.id), UUID_RE);
      assert.match(r.api1Id, /^[a-zA-Z0-9_-]{1,50}$/);
      assert.match(r.color, /^#[0-9a-f]{6}$/);
      assert.equal(typeof r.description, 'string');
    }
  });

  test('each account has its own base roles', async () => {
    const mine = (await api('owner', 'GET', `${A2}/roles`)).body.filter((r: any) => r.name === 'Manager');
    const other = await t.app.inject({
      url: `/api/2/accounts/${OTHER_ACCOUNT_ID}/roles`,
      headers: { authorization: `Bearer ${(await t.tokens(email('other-owner'))).access_token}` },
    });
    assert.equal(other.statusCode, 200);
    const theirs = other.json().filter((r: any) => r.name === 'Manager');
    assert.equal(mine.length, 1);
    assert.equal(theirs.length, 1);
    assert.notEqual(mine[0].id, theirs[0].id);
    // A role of another account is not found through this one.
    const cross = await api('owner', 'GET', `${A2}/roles/${theirs[0].id}`);
    assertProblem(cross, 404, 'role-not-found');
  });

  for (const name of ['Manager', 'Contributor', 'Viewer']) {
    test(`PUT on the base role ${name} answers 400 cannot-update-base-role and changes nothing`, async () => {
      const role = (await api('owner', 'GET', `${A2}/roles`)).body.find((r: any) => r.name === name);
      const res = await api('owner', 'PUT', `${A2}/roles/${role.id}`, { name: 'Hijacked', legacyPermissions: ['view3d'] });
      assertProblem(res, 400, 'cannot-update-base-role');
      assert.deepEqual((await api('owner', 'GET', `${A2}/roles/${role.id}`)).body, role);
    });

    test(`DELETE on the base role ${name} answers 400 cannot-delete-base-role and the role stays`, async () => {
      const role = (await api('owner', 'GET', `${A2}/roles`)).body.find((r: any) => r.name === name);
      const res = await api('administrator', 'DELETE', `${A2}/roles/${role.id}`);
      assertProblem(res, 400, 'cannot-delete-base-role');
      assert.equal((await api('owner', 'GET', `${A2}/roles/${role.id}`)).status, 200);
    });
  }
});

describe('POST roles: legacy and new permissions are equivalent', () => {
  const legacy = ['view3d', 'upload'];
  const perms = W('reality-data:read', 'reality-data:write', 'import-jobs-reality-data:write');

  test('legacy only, permissions only and both give the same pair; 201 with Location and the full Role', async () => {
    const before = Date.now();
    const bodies = [];
    for (const body of [{ legacyPermissions: legacy }, { permissions: perms }, { legacyPermissions: legacy, permissions: perms }]) {
      const res = await api('owner', 'POST', `${A2}/roles`, { name: unique('Surveyor'), ...body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.headers.location, `${A2}/roles/${uuidOf(res.body.id)}`);
      const fetched = await api('owner', 'GET', `${A2}/roles/${uuidOf(res.body.id)}`);
      assert.deepEqual(fetched.body, res.body, 'GET answers what POST answered');
      bodies.push(res.body);
    }
    for (const r of bodies) {
      assert.deepEqual(sorted(r.permissions), sorted(perms));
      assert.deepEqual(sorted(r.legacyPermissions), sorted(legacy));
      assert.equal(r.type, 'role');
      assert.equal(r.description, '');
      assert.match(r.color, /^#[0-9a-f]{6}$/);
      assert.equal(r.createdBy, `urn:svc:user:${ownerId}`);
      assert.ok(Date.parse(r.createdAt) >= before - 60_000);
      assert.equal(r.updatedAt, r.createdAt);
    }
  });

  test('permissions only: legacyPermissions lists every legacy name whose expansion is contained', async () => {
    const r = await create({ permissions: W('annotations:read', 'annotations:write') });
    assert.deepEqual(sorted(r.legacyPermissions), ['annotate', 'view_annotation']);
  });

  test('given both, permissions without a legacy form are allowed beside the expansion', async () => {
    const r = await create({ legacyPermissions: ['view3d'], permissions: W('reality-data:read', 'reality-data:transform') });
    assert.deepEqual(sorted(r.permissions), sorted(W('reality-data:read', 'reality-data:transform')));
    assert.deepEqual(r.legacyPermissions, ['view3d']);
  });

  test('{tags:write} alone is a whole row and is allowed', async () => {
    const r = await create({ permissions: W('tags:write') });
    assert.deepEqual(r.permissions, W('tags:write'));
    assert.deepEqual(r.legacyPermissions, ['create_asset']);
  });

  test('description and colour are kept as given', async () => {
    const r = await create({ description: 'Walks the site', color: '#a1b2c3', legacyPermissions: ['view3d'] });
    assert.equal(r.description, 'Walks the site');
    assert.equal(r.color, '#a1b2c3');
  });
});

describe('POST roles: refused bodies answer 400 invalid-input and create nothing', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['{annotations:write} alone (not a whole row)', { permissions: W('annotations:write') }],
    ['half of the measurements row', { permissions: W('measurements:write') }],
    ['a mismatched pair', { legacyPermissions: ['view3d'], permissions: W('reality-data:read', 'tags:read') }],
    ['a pair where permissions lack part of the legacy expansion', { legacyPermissions: ['view3d', 'view_asset'], permissions: W('reality-data:read') }],
    ['an uppercase colour #FFFFFF', { color: '#FFFFFF', legacyPermissions: ['view3d'] }],
    ['a short colour #fff', { color: '#fff', legacyPermissions: ['view3d'] }],
    ['a colour name (red)', { color: 'red', legacyPermissions: ['view3d'] }],
    ['empty permissions', { permissions: [] }],
    ['empty legacyPermissions', { legacyPermissions: [] }],
    ['both arrays empty', { permissions: [], legacyPermissions: [] }],
    ['neither array', {}],
    ['an unknown permission', { permissions: ['workzone:teleport:write'] }],
    ['a permission outside the Role enum (crops:read)', { permissions: W('crops:read') }],
    ['an unknown legacy permission', { legacyPermissions: ['fly'] }],
  ];
  for (const [what, body] of cases) {
    test(what, async () => {
      const n = await roleCount();
      const res = await api('owner', 'POST', `${A2}/roles`, { name: unique('Refused'), ...body });
      assertProblem(res, 400, 'invalid-input');
      assert.equal(await roleCount(), n, 'no role was created');
    });
  }

  test('a missing or empty name', async () => {
    const n = await roleCount();
    assertProblem(await api('owner', 'POST', `${A2}/roles`, { legacyPermissions: ['view3d'] }), 400, 'invalid-input');
    assertProblem(await api('owner', 'POST', `${A2}/roles`, { name: '', legacyPermissions: ['view3d'] }), 400, 'invalid-input');
    assertProblem(await api('owner', 'POST', `${A2}/roles`, { name: '   ', legacyPermissions: ['view3d'] }), 400, 'invalid-input');
    assert.equal(await roleCount(), n);
  });
});

describe('PUT roles overwrites every field', () => {
  test('a missing description and colour are erased: description "" and the default colour', async () => {
    const defaultColor = (await create({ legacyPermissions: ['view3d'] })).color;
    const r = await create({ description: 'Old description', color: '#123456', legacyPermissions: ['view3d', 'upload'] });
    const res = await api('owner', 'PUT', `${A2}/roles/${r.id}`, { name: 'Renamed role', legacyPermissions: ['view_asset'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, r.id);
    assert.equal(res.body.name, 'Renamed role');
    assert.equal(res.body.description, '');
    assert.equal(res.body.color, defaultColor);
    assert.deepEqual(res.body.legacyPermissions, ['view_asset']);
    assert.deepEqual(res.body.permissions, W('tags:read'));
    assert.equal(res.body.createdAt, r.createdAt);
    assert.equal(res.body.createdBy, r.createdBy);
    assert.ok(Date.parse(res.body.updatedAt) >= Date.parse(r.updatedAt));
    assert.deepEqual((await api('owner', 'GET', `${A2}/roles/${r.id}`)).body, res.body, 'stored as answered');
  });

  test('null fields are erased too; permissions replace the old pair', async () => {
    const r = await create({ description: 'x', color: '#654321', legacyPermissions: ['view3d'] });
    const res = await api('owner', 'PUT', `${A2}/roles/${r.id}`, {
      name: r.name, description: null, color: null, permissions: W('documents:read', 'documents:write'), legacyPermissions: null,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.description, '');
    assert.notEqual(res.body.color, '#654321');
    assert.deepEqual(sorted(res.body.permissions), sorted(W('documents:read', 'documents:write')));
    assert.deepEqual(res.body.legacyPermissions, ['upload_doc']);
  });

  test('a missing name answers 400 invalid-input and the role is unchanged', async () => {
    const r = await create({ description: 'Keep me', legacyPermissions: ['view3d'] });
    assertProblem(await api('owner', 'PUT', `${A2}/roles/${r.id}`, { legacyPermissions: ['view_asset'] }), 400, 'invalid-input');
    assertProblem(await api('owner', 'PUT', `${A2}/roles/${r.id}`, { name: null, legacyPermissions: ['view_asset'] }), 400, 'invalid-input');
    assert.deepEqual((await api('owner', 'GET', `${A2}/roles/${r.id}`)).body, r);
  });

  test('PUT follows the same rules as POST: no permissions, a broken combination or a bad colour answer 400', async () => {
    const r = await create({ legacyPermissions: ['view3d'] });
    for (const body of [
      { name: 'x' },
      { name: 'x', permissions: [], legacyPermissions: [] },
      { name: 'x', permissions: W('annotations:write') },
      { name: 'x', legacyPermissions: ['view3d'], permissions: W('tags:read') },
      { name: 'x', legacyPermissions: ['view3d'], color: '#FFFFFF' },
    ]) {
      assertProblem(await api('owner', 'PUT', `${A2}/roles/${r.id}`, body), 400, 'invalid-input');
    }
    assert.deepEqual((await api('owner', 'GET', `${A2}/roles/${r.id}`)).body, r);
  });

  test('PUT on an unknown role answers 404 role-not-found', async () => {
    const missing = '99999999-9999-4999-8999-999999999999';
    const res = await api('owner', 'PUT', `${A2}/roles/${missing}`, { name: 'x', legacyPermissions: ['view3d'] });
    assertProblem(res, 404, 'role-not-found');
    assert.equal(res.body.errorValues.roleId, missing);
  });
});

describe('DELETE roles', () => {
  test('204 with no body, then GET answers 404 role-not-found with errorValues.roleId, and the list no longer has it', async () => {
    const r = await create({ legacyPermissions: ['view3d'] });
    const res = await api('projectManager', 'DELETE', `${A2}/roles/${r.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.body, undefined);
    const gone = await api('owner', 'GET', `${A2}/roles/${r.id}`);
    assertProblem(gone, 404, 'role-not-found');
    assert.equal(gone.body.errorValues.roleId, uuidOf(r.id));
    assert.ok(!(await api('owner', 'GET', `${A2}/roles`)).body.some((x: any) => x.id === r.id));
    assertProblem(await api('owner', 'DELETE', `${A2}/roles/${r.id}`), 404, 'role-not-found');
  });
});

describe('role references', () => {
  test('a role is found by URN, by raw UUID and by API 1 id, on GET, PUT and DELETE', async () => {
    const r = await create({ legacyPermissions: ['view3d'] });
    for (const ref of [r.id, uuidOf(r.id), uuidOf(r.id).toUpperCase(), r.api1Id]) {
      const res = await api('owner', 'GET', `${A2}/roles/${encodeURIComponent(ref)}`);
      assert.equal(res.status, 200, `${ref}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.id, r.id);
    }
    const put = await api('owner', 'PUT', `${A2}/roles/${r.api1Id}`, { name: 'By API 1 id', legacyPermissions: ['view3d'] });
    assert.equal(put.status, 200);
    assert.equal(put.body.name, 'By API 1 id');
    assert.equal((await api('owner', 'DELETE', `${A2}/roles/${r.id}`)).status, 204);
  });

  test('the account may be referenced by URN or API 1 id as well', async () => {
    const api1Id = (await api('owner', 'GET', `/api/2/accounts/${ACCOUNT_ID}`)).body.api1Id;
    for (const ref of [`urn:svc:account:${ACCOUNT_ID}`, api1Id]) {
      const res = await api('owner', 'GET', `/api/2/accounts/${ref}/roles/${ROLE_ID}`);
      assert.equal(res.status, 200, ref);
      assert.equal(res.body.name, 'Surveyor');
    }
  });

  test('a URN of another type, or an unparsable URN, answers 400 invalid-role-urn', async () => {
    for (const ref of [`urn:svc:group:${ROLE_ID}`, `urn:svc:role:not-a-uuid`, `urn:other:role:${ROLE_ID}`, 'urn:svc:role']) {
      const res = await api('owner', 'GET', `${A2}/roles/${encodeURIComponent(ref)}`);
      assertProblem(res, 400, 'invalid-role-urn');
    }
    assertProblem(await api('owner', 'DELETE', `${A2}/roles/urn:svc:user:${ROLE_ID}`), 400, 'invalid-role-urn');
    assert.equal((await api('owner', 'GET', `${A2}/roles/${ROLE_ID}`)).status, 200);
  });

  test('a well-formed reference to nothing answers 404 role-not-found keyed roleId', async () => {
    const missing = '88888888-8888-4888-8888-888888888888';
    const res = await api('owner', 'GET', `${A2}/roles/urn:svc:role:${missing}`);
    assertProblem(res, 404, 'role-not-found');
    assert.deepEqual(res.body.errorValues, { roleId: missing });
    assertProblem(await api('owner', 'GET', `${A2}/roles/NoSuchApi1Id`), 404, 'role-not-found');
  });
});
