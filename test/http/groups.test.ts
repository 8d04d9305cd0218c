// Groups through API 2 (vendor "Group"; CONTRACT §6): create (201 + Location), names
// unique per account case-insensitively (409), PUT overwrite, members who must belong to
// the account (404 user-not-found otherwise, all or nothing), delete.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { ACTORS, ACCOUNT_ID, GROUP_ID, OTHER_ACCOUNT_ID, WORLD_SEED, email, type ActorName } from '../support/world.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;

let t: TestApp;
const ids = new Map<string, string>();
const tokens = new Map<string, string>();

interface Res {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

async function api(actor: ActorName | 'other-owner', method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Res> {
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

const userUrn = (actor: string) => `urn:svc:user:${ids.get(email(actor))}`;
let counter = 0;
const unique = (p: string) => `${p} ${++counter}`;

async function create(body: Record<string, unknown>): Promise<any> {
  const res = await api('owner', 'POST', `${A2}/groups`, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const list = async () => (await api('owner', 'GET', `${A2}/groups`)).body as any[];

before(async () => {
  t = await testApp();
  const seeded = await t.seed(WORLD_SEED);
  for (const u of seeded.users) ids.set(u.email, u.id);
  for (const a of [...ACTORS, 'other-owner']) tokens.set(a, (await t.tokens(email(a))).access_token);
});
after(() => t.close());

describe('create', () => {
  test('POST answers 201 with Location and the full Group; GET at Location answers the same', async () => {
    const before = Date.now();
    const res = await api('projectManager', 'POST', `${A2}/groups`, { name: 'Surveyors', description: 'On site', color: '#aa00ff' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const g = res.body;
    assert.match(g.id, /^urn:svc:group:[0-9a-f-]{36}$/);
    assert.equal(g.urn, g.id);
    assert.match(g.api1Id, /^[a-zA-Z0-9_-]{1,50}$/);
    assert.equal(g.type, 'group');
    assert.equal(g.name, 'Surveyors');
    assert.equal(g.description, 'On site');
    assert.equal(g.color, '#aa00ff');
    assert.equal(g.createdBy, userUrn('projectManager'));
    assert.ok(Date.parse(g.createdAt) >= before - 60_000);
    assert.deepEqual(g.userIds, []);
    assert.deepEqual(g.accountIds, [`urn:svc:account:${ACCOUNT_ID}`]);
    const location = String(res.headers.location);
    assert.ok(location.startsWith(`${A2}/groups/`), location);
    const fetched = await api('member', 'GET', location);
    assert.equal(fetched.status, 200);
    assert.deepEqual(fetched.body, g);
    assert.ok((await list()).some((x) => x.id === g.id));
  });

  test('a missing description and colour default to "" and a valid colour', async () => {
    const g = await create({ name: unique('Plain') });
    assert.equal(g.description, '');
    assert.match(g.color, /^#[0-9a-f]{6}$/);
  });

  test('a duplicate name, in any case, answers 409 (problem+json, status 409) and creates nothing', async () => {
    const n = (await list()).length;
    for (const name of ['Field team', 'FIELD TEAM', 'field Team', '  field team  ']) {
      const res = await api('owner', 'POST', `${A2}/groups`, { name });
      assertProblem(res, 409, 'group-already-exists');
    }
    assert.equal((await list()).length, n);
  });

  test('concurrent creations of one name: exactly one 201, the others 409', async () => {
    const name = unique('Race');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api('owner', 'POST', `${A2}/groups`, { name: i % 2 ? name.toUpperCase() : name })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409], JSON.stringify(results.map((r) => r.body)));
    for (const r of results.filter((x) => x.status === 409)) assertProblem(r, 409, 'group-already-exists');
    assert.equal((await list()).filter((g) => g.name.toLowerCase() === name.toLowerCase()).length, 1);
  });

  test('the same name is allowed in another account', async () => {
    const res = await api('other-owner', 'POST', `/api/2/accounts/${OTHER_ACCOUNT_ID}/groups`, { name: 'Field team' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.accountIds, [`urn:svc:account:${OTHER_ACCOUNT_ID}`]);
  });

  test('invalid bodies answer 400 invalid-input', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(37) }, { name: 'ok', color: '#FFF' }, { name: 'ok', color: 'blue' }, { name: 'ok', extra: 1 }]) {
      assertProblem(await api('owner', 'POST', `${A2}/groups`, body), 400, 'invalid-input');
    }
  });
});

describe('PUT', () => {
  test('overwrites: a missing description and colour are erased', async () => {
    const g = await create({ name: unique('Old'), description: 'Keep?', color: '#010203' });
    const defaultColor = (await create({ name: unique('Default') })).color;
    const res = await api('administrator', 'PUT', `${A2}/groups/${g.id}`, { name: 'Overwritten' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, g.id);
    assert.equal(res.body.name, 'Overwritten');
    assert.equal(res.body.description, '');
    assert.equal(res.body.color, defaultColor);
    assert.equal(res.body.createdAt, g.createdAt);
    assert.ok(Date.parse(res.body.updatedAt) >= Date.parse(g.updatedAt));
    assert.deepEqual((await api('owner', 'GET', `${A2}/groups/${g.api1Id}`)).body, res.body);
  });

  test('renaming onto another group\'s name (any case) answers 409 and changes nothing', async () => {
    const g = await create({ name: unique('Renamable'), description: 'd' });
    const res = await api('owner', 'PUT', `${A2}/groups/${g.id}`, { name: 'FIELD team' });
    assertProblem(res, 409, 'group-already-exists');
    assert.deepEqual((await api('owner', 'GET', `${A2}/groups/${g.id}`)).body, g);
  });

  test('renaming a group to its own name in another case is allowed', async () => {
    const g = await create({ name: 'Night Shift' });
    const res = await api('owner', 'PUT', `${A2}/groups/${g.id}`, { name: 'NIGHT SHIFT' });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'NIGHT SHIFT');
  });

  test('a missing name answers 400 invalid-input; an unknown group 404 group-not-found', async () => {
    const g = await create({ name: unique('Named') });
    assertProblem(await api('owner', 'PUT', `${A2}/groups/${g.id}`, { description: 'no name' }), 400, 'invalid-input');
    const missing = '66666666-6666-4666-8666-666666666666';
    const res = await api('owner', 'PUT', `${A2}/groups/${missing}`, { name: 'x' });
    assertProblem(res, 404, 'group-not-found');
    assert.deepEqual(res.body.errorValues, { groupId: missing });
  });
});

describe('members', () => {
  test('adding members answers 200 with the group; references by URN, UUID and API 1 id; adding twice keeps one entry', async () => {
    const g = await create({ name: unique('Crew') });
    const targetApi1 = (await api('owner', 'GET', `${A2}/users/${ids.get(email('target'))}`)).body.api1Id;
    const res = await api('owner', 'POST', `${A2}/groups/${g.id}/members`, [userUrn('member'), ids.get(email('administrator')), targetApi1]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([...res.body.userIds].sort(), [userUrn('member'), userUrn('administrator'), userUrn('target')].sort());
    const again = await api('owner', 'POST', `${A2}/groups/${g.id}/members`, [userUrn('member'), userUrn('member')]);
    assert.equal(again.status, 200);
    assert.equal(again.body.userIds.length, 3);
    assert.deepEqual((await api('owner', 'GET', `${A2}/groups/${g.id}`)).body.userIds, again.body.userIds);
  });

  test('removing members answers 200 with the group without them', async () => {
    const g = await create({ name: unique('Crew') });
    await api('owner', 'POST', `${A2}/groups/${g.id}/members`, [userUrn('member'), userUrn('target')]);
    const res = await api('projectManager', 'DELETE', `${A2}/groups/${g.id}/members`, [userUrn('target')]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.userIds, [userUrn('member')]);
    assert.deepEqual((await api('owner', 'GET', `${A2}/groups/${g.id}`)).body.userIds, [userUrn('member')]);
  });

  test('removing a user who is not in the group answers 400 users-not-in-groups naming him, and removes nobody', async () => {
    const g = await create({ name: unique('Crew') });
    await api('owner', 'POST', `${A2}/groups/${g.id}/members`, [userUrn('member')]);
    const res = await api('owner', 'DELETE', `${A2}/groups/${g.id}/members`, [userUrn('member'), userUrn('target')]);
    assertProblem(res, 400, 'users-not-in-groups');
    assert.ok(res.body.errorValues.users.includes(ids.get(email('target'))!), res.body.errorValues.users);
    assert.deepEqual((await api('owner', 'GET', `${A2}/groups/${g.id}`)).body.userIds, [userUrn('member')]);
  });

  test('a user who is not a member of the account answers 404 user-not-found, and nobody of the list is added', async () => {
    const g = await create({ name: unique('Crew') });
    for (const body of [[userUrn('outsider')], [userUrn('target'), userUrn('outsider')], ['99999999-9999-4999-8999-999999999999']]) {
      const res = await api('owner', 'POST', `${A2}/groups/${g.id}/members`, body);
      assertProblem(res, 404, 'user-not-found');
      assert.equal(typeof res.body.errorValues.userId, 'string');
    }
    assert.deepEqual((await api('owner', 'GET', `${A2}/groups/${g.id}`)).body.userIds, []);
    assertProblem(await api('owner', 'DELETE', `${A2}/groups/${g.id}/members`, [userUrn('outsider')]), 404, 'user-not-found');
  });

  test('a malformed user reference answers 400 invalid-user-urn; an empty list 400 invalid-input', async () => {
    const res = await api('owner', 'POST', `${A2}/groups/${GROUP_ID}/members`, [`urn:svc:group:${GROUP_ID}`]);
    assertProblem(res, 400, 'invalid-user-urn');
    assertProblem(await api('owner', 'POST', `${A2}/groups/${GROUP_ID}/members`, []), 400, 'invalid-input');
  });
});

describe('DELETE', () => {
  test('204, then GET answers 404 group-not-found and the list no longer has it; the name is free again', async () => {
    const g = await create({ name: 'Temporary', description: 'x' });
    await api('owner', 'POST', `${A2}/groups/${g.id}/members`, [userUrn('member')]);
    const res = await api('administrator', 'DELETE', `${A2}/groups/${g.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.body, undefined);
    const gone = await api('owner', 'GET', `${A2}/groups/${g.id}`);
    assertProblem(gone, 404, 'group-not-found');
    assert.deepEqual(gone.body.errorValues, { groupId: g.id.split(':')[3] });
    assert.ok(!(await list()).some((x) => x.id === g.id));
    assertProblem(await api('owner', 'DELETE', `${A2}/groups/${g.id}`), 404, 'group-not-found');
    assert.equal((await api('owner', 'POST', `${A2}/groups`, { name: 'temporary' })).status, 201);
  });

  test('a URN of another type answers 400 invalid-group-urn', async () => {
    assertProblem(await api('owner', 'DELETE', `${A2}/groups/urn:svc:role:${GROUP_ID}`), 400, 'invalid-group-urn');
    assert.equal((await api('owner', 'GET', `${A2}/groups/${GROUP_ID}`)).status, 200);
  });
});
