// API 1 over the accounts use cases (spec "API 1 resources"; CONTRACT §2, §6, §9): the
// API 1 shapes of accounts, roles, groups, subscriptions and users; ids are API 1 ids
// (never URNs), references accept API 1 ids and UUIDs but never URNs; errors are
// {code, message}.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { ACTORS, ACCOUNT_ID, GROUP_ID, OTHER_ACCOUNT_ID, ROLE_ID, SUBSCRIPTION_ID, WORLD_SEED, email, type ActorName } from '../support/world.ts';

const A1 = `/api/accounts/${ACCOUNT_ID}`;
const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const API1_ID = /^[a-zA-Z0-9_-]{1,50}$/;

let t: TestApp;
const ids = new Map<string, string>();
const tokens = new Map<string, string>();
/** API 2's view of the same objects, for the api1Id of each. */
let v2: { account: any; users: any[]; roles: any[]; groups: any[]; subscriptions: any[] };

interface Res {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  raw: string;
}

async function get(actor: ActorName | 'none', url: string): Promise<Res> {
  const headers: Record<string, string> = actor === 'none' ? {} : { authorization: `Bearer ${tokens.get(actor)}` };
  const res = await t.app.inject({ url, headers });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined, raw: res.body };
}

/** API 1 errors: exactly {code, message}, JSON, with the status given. */
function assertApi1Error(res: Res, status: number, code: string) {
  assert.equal(res.status, status, res.raw);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message']);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.length > 0);
}

const noUrns = (res: Res) => assert.ok(!res.raw.includes('urn:'), `no URN in ${res.raw.slice(0, 300)}`);

before(async () => {
  t = await testApp();
  const seeded = await t.seed(WORLD_SEED);
  for (const u of seeded.users) ids.set(u.email, u.id);
  for (const a of ACTORS) tokens.set(a, (await t.tokens(email(a))).access_token);
  const h = { authorization: `Bearer ${tokens.get('owner')}` };
  const j = async (url: string) => (await t.app.inject({ url, headers: h })).json();
  v2 = {
    account: await j(A2),
    users: await j(`${A2}/users`),
    roles: await j(`${A2}/roles`),
    groups: await j(`${A2}/groups`),
    subscriptions: await j(`${A2}/subscriptions`),
  };
});
after(() => t.close());

const api1IdOfUser = (mail: string) => v2.users.find((u) => u.email === mail).api1Id;

describe('accounts', () => {
  // permissions {owner, admin, manager, all}: `all` = sees every project (account:projects:list).
  const PERMS: Record<string, { owner: boolean; admin: boolean; manager: boolean; all: boolean }> = {
    owner: { owner: true, admin: false, manager: false, all: true },
    administrator: { owner: false, admin: true, manager: false, all: true },
    projectManager: { owner: false, admin: false, manager: true, all: true },
    projectLister: { owner: false, admin: false, manager: false, all: true },
    member: { owner: false, admin: false, manager: false, all: false },
  };

  for (const [actor, permissions] of Object.entries(PERMS)) {
    test(`list and get as ${actor}: the API 1 Account with permissions ${JSON.stringify(permissions)}`, async () => {
      const list = await get(actor as ActorName, '/api/accounts');
      assert.equal(list.status, 200);
      noUrns(list);
      assert.equal(list.body.length, 1);
      const one = await get(actor as ActorName, A1);
      assert.equal(one.status, 200);
      for (const a of [list.body[0], one.body]) {
        assert.deepEqual(Object.keys(a).sort(), ['createdAt', 'createdBy', 'id', 'name', 'ownerId', 'permissions', 'type']);
        assert.equal(a.id, v2.account.api1Id);
        assert.match(a.id, API1_ID);
        assert.equal(a.type, 'account');
        assert.equal(a.name, 'Acme');
        assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
        assert.equal(a.ownerId, api1IdOfUser(email('owner')));
        assert.equal(a.createdBy, api1IdOfUser(email('owner')));
        assert.deepEqual(a.permissions, permissions);
      }
    });
  }

  test('a user of another account lists only his own account and gets 404 account-not-found on this one, as for an unknown account', async () => {
    const list = await get('outsider', '/api/accounts');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.map((a: any) => a.name), ['Other']);
    assertApi1Error(await get('outsider', A1), 404, 'account-not-found');
  });

  test('an account is referenced by API 1 id or UUID; a URN answers 400 invalid-account-urn; nothing answers 404', async () => {
    assert.equal((await get('owner', `/api/accounts/${v2.account.api1Id}`)).body.name, 'Acme');
    assert.equal((await get('owner', `/api/accounts/${ACCOUNT_ID.toUpperCase()}`)).body.name, 'Acme');
    assertApi1Error(await get('owner', `/api/accounts/urn:svc:account:${ACCOUNT_ID}`), 400, 'invalid-account-urn');
    assertApi1Error(await get('owner', `/api/accounts/${encodeURIComponent('bad id!')}`), 400, 'invalid-account-urn');
    assertApi1Error(await get('owner', `/api/accounts/${'a'.repeat(51)}`), 400, 'invalid-account-urn');
    assertApi1Error(await get('owner', '/api/accounts/NoSuchAccount'), 404, 'account-not-found');
    assertApi1Error(await get('owner', `/api/accounts/${OTHER_ACCOUNT_ID}/roles`), 404, 'account-not-found');
  });
});

describe('roles', () => {
  test('roles carry legacy `permissions` and API 1 ids, no URNs and no new-style permissions', async () => {
    const res = await get('member', `${A1}/roles`);
    assert.equal(res.status, 200);
    noUrns(res);
    assert.equal(res.body.length, v2.roles.length);
    for (const r of res.body) {
      const same = v2.roles.find((x) => x.api1Id === r.id);
      assert.ok(same, `role ${r.id} is the API 2 role with that api1Id`);
      assert.deepEqual(Object.keys(r).sort(), ['accountIds', 'color', 'createdAt', 'description', 'id', 'name', 'permissions', 'type', 'updatedAt']);
      assert.equal(r.type, 'role');
      assert.equal(r.name, same.name);
      assert.equal(r.description, same.description);
      assert.equal(r.color, same.color);
      assert.deepEqual(r.permissions, same.legacyPermissions, 'API 1 permissions are the legacy names');
      assert.deepEqual(r.accountIds, [v2.account.api1Id]);
    }
    const surveyor = res.body.find((r: any) => r.name === 'Surveyor');
    assert.deepEqual([...surveyor.permissions].sort(), ['upload', 'view3d']);
  });

  test('one role by API 1 id or UUID; a URN answers 400 invalid-role-urn; an unknown one 404 role-not-found', async () => {
    const api1Id = v2.roles.find((r) => r.name === 'Surveyor').api1Id;
    for (const ref of [api1Id, ROLE_ID]) {
      const res = await get('member', `${A1}/roles/${ref}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, api1Id);
      assert.equal(res.body.name, 'Surveyor');
    }
    assertApi1Error(await get('member', `${A1}/roles/urn:svc:role:${ROLE_ID}`), 400, 'invalid-role-urn');
    assertApi1Error(await get('member', `${A1}/roles/99999999-9999-4999-8999-999999999999`), 404, 'role-not-found');
  });
});

describe('groups', () => {
  test('groups list their members as API 1 user ids', async () => {
    const res = await get('member', `${A1}/groups`);
    assert.equal(res.status, 200);
    noUrns(res);
    const g = res.body.find((x: any) => x.name === 'Field team');
    assert.deepEqual(Object.keys(g).sort(), ['accountIds', 'color', 'createdAt', 'createdBy', 'description', 'id', 'name', 'type', 'updatedAt', 'userIds']);
    assert.equal(g.id, v2.groups[0].api1Id);
    assert.equal(g.type, 'group');
    assert.deepEqual(g.userIds, [api1IdOfUser(email('member'))]);
    for (const u of g.userIds) assert.match(u, API1_ID);
    assert.deepEqual(g.accountIds, [v2.account.api1Id]);
    assert.equal(g.createdBy, api1IdOfUser(email('owner')));
  });

  test('one group by API 1 id or UUID; a URN answers 400 invalid-group-urn', async () => {
    for (const ref of [v2.groups[0].api1Id, GROUP_ID]) {
      const res = await get('projectLister', `${A1}/groups/${ref}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.name, 'Field team');
    }
    assertApi1Error(await get('member', `${A1}/groups/urn:svc:group:${GROUP_ID}`), 400, 'invalid-group-urn');
    assertApi1Error(await get('member', `${A1}/groups/NoSuchGroup`), 404, 'group-not-found');
  });
});

describe('subscriptions', () => {
  test('UpdatedAt with a capital U, no updatedAt, no end and no invite flag, even for the owner', async () => {
    for (const actor of ['owner', 'administrator', 'projectManager'] as const) {
      const res = await get(actor, `${A1}/subscriptions`);
      assert.equal(res.status, 200);
      noUrns(res);
      assert.equal(res.body.length, 1);
      const s = res.body[0];
      assert.deepEqual(Object.keys(s).sort(), [
        'UpdatedAt', 'accountId', 'createdAt', 'id', 'isActive', 'isTrial', 'isVa', 'name', 'scanCapacity', 'start', 'tagCapacity', 'type',
      ]);
      assert.equal(s.id, v2.subscriptions[0].api1Id);
      assert.equal(s.type, 'subscription');
      assert.equal(s.accountId, v2.account.api1Id);
      assert.equal(s.name, 'Pro');
      assert.equal(s.UpdatedAt, v2.subscriptions[0].updatedAt);
      assert.equal(s.createdAt, v2.subscriptions[0].createdAt);
      assert.ok(!('end' in s) && !('updatedAt' in s) && !('inviteAccountOwnerInNewProjects' in s));
    }
    assert.equal(v2.subscriptions[0].id, `urn:svc:subscription:${SUBSCRIPTION_ID}`);
  });

  test('members without account:subscriptions:read get 403 list-subscriptions-forbidden', async () => {
    assertApi1Error(await get('member', `${A1}/subscriptions`), 403, 'list-subscriptions-forbidden');
  });
});

describe('users', () => {
  test('users with firstname/lastname (lower case), API 1 ids and accountIds', async () => {
    const res = await get('projectManager', `${A1}/users`);
    assert.equal(res.status, 200);
    noUrns(res);
    assert.equal(res.body.length, v2.users.length);
    for (const u of res.body) {
      assert.deepEqual(Object.keys(u).sort(), ['accountIds', 'company', 'email', 'firstname', 'id', 'lastname', 'title', 'type']);
      const same = v2.users.find((x) => x.api1Id === u.id);
      assert.ok(same);
      assert.equal(u.type, 'user');
      assert.equal(u.email, same.email);
      assert.equal(u.firstname, same.firstName);
      assert.equal(u.lastname, same.lastName);
      assert.deepEqual(u.accountIds, [v2.account.api1Id]);
    }
  });

  test('one user by API 1 id or UUID; a URN answers 400 invalid-user-urn; a non-member 404 user-not-found', async () => {
    const mail = email('target');
    for (const ref of [api1IdOfUser(mail), ids.get(mail)]) {
      const res = await get('owner', `${A1}/users/${ref}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.email, mail);
      assert.equal(res.body.firstname, 'target');
    }
    assertApi1Error(await get('owner', `${A1}/users/urn:svc:user:${ids.get(mail)}`), 400, 'invalid-user-urn');
    assertApi1Error(await get('owner', `${A1}/users/${ids.get(email('outsider'))}`), 404, 'user-not-found');
  });

  test('members without account:users:read get 403 list-users-forbidden', async () => {
    assertApi1Error(await get('member', `${A1}/users`), 403, 'list-users-forbidden');
  });
});

test('without a token API 1 answers 401 {code: unauthorized, message}', async () => {
  assertApi1Error(await get('none', '/api/accounts'), 401, 'unauthorized');
  assertApi1Error(await get('none', `${A1}/roles`), 401, 'unauthorized');
});
