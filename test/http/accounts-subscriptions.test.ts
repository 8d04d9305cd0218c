// Subscriptions through API 2 (spec "Subscription"; CONTRACT §6 PATCH): `end` only for
// callers holding account:subscriptions:read-sensitive-infos (owner, administrator),
// `inviteAccountOwnerInNewProjects` only for the account owner, on the list, the single
// subscription and the account's embedded list; PATCH rules; another account's
// subscription is not found.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { ACTORS, ACCOUNT_ID, OTHER_ACCOUNT_ID, SUBSCRIPTION_ID, WORLD_SEED, email, type ActorName } from '../support/world.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const SUB = `${A2}/subscriptions/${SUBSCRIPTION_ID}`;

let t: TestApp;
let otherSubscriptionId: string;
const tokens = new Map<ActorName | 'other-owner', string>();

interface Res {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

async function api(actor: ActorName | 'other-owner', method: 'GET' | 'PATCH', url: string, payload?: unknown): Promise<Res> {
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
  assert.equal(res.body.errorCode, code, JSON.stringify(res.body));
}

before(async () => {
  t = await testApp();
  const seeded = await t.seed(WORLD_SEED);
  otherSubscriptionId = seeded.accounts.find((a: { name: string }) => a.name === 'Other').subscriptions[0].id;
  for (const a of ACTORS) tokens.set(a, (await t.tokens(email(a))).access_token);
  tokens.set('other-owner', (await t.tokens(email('other-owner'))).access_token);
});
after(() => t.close());

// Who sees what (spec "Subscription"): end ⇔ read-sensitive-infos; the flag ⇔ account owner.
const VISIBILITY: { actor: ActorName; end: boolean; invite: boolean }[] = [
  { actor: 'owner', end: true, invite: true },
  { actor: 'administrator', end: true, invite: false },
  { actor: 'projectManager', end: false, invite: false },
];

describe('field visibility', () => {
  for (const { actor, end, invite } of VISIBILITY) {
    test(`${actor}: end ${end ? 'shown' : 'hidden'}, inviteAccountOwnerInNewProjects ${invite ? 'shown' : 'hidden'} (list, one, account)`, async () => {
      const list = await api(actor, 'GET', `${A2}/subscriptions`);
      const one = await api(actor, 'GET', SUB);
      const account = await api(actor, 'GET', A2);
      assert.equal(list.status, 200);
      assert.equal(one.status, 200);
      assert.equal(account.status, 200);
      const seen = [list.body.find((s: any) => s.id === `urn:svc:subscription:${SUBSCRIPTION_ID}`), one.body, account.body.subscriptions[0]];
      for (const s of seen) {
        assert.ok(s, 'the subscription is listed');
        assert.equal(s.type, 'subscription');
        assert.equal(s.accountId, `urn:svc:account:${ACCOUNT_ID}`);
        assert.equal(s.name, 'Pro');
        for (const f of ['isVa', 'isActive', 'isTrial']) assert.equal(typeof s[f], 'boolean', f);
        for (const f of ['tagCapacity', 'geoImageCapacity', 'scanCapacity']) assert.ok(Number.isInteger(s[f]), f);
        if (end) assert.equal(s.end, '2027-01-01T00:00:00.000Z');
        else assert.ok(!('end' in s), `no end for ${actor}`);
        if (invite) assert.equal(s.inviteAccountOwnerInNewProjects, true);
        else assert.ok(!('inviteAccountOwnerInNewProjects' in s), `no invite flag for ${actor}`);
      }
    });
  }

  test('members without account:subscriptions:read see the account with an empty subscriptions list', async () => {
    for (const actor of ['projectLister', 'member'] as const) {
      const account = await api(actor, 'GET', A2);
      assert.equal(account.status, 200);
      assert.deepEqual(account.body.subscriptions, []);
    }
  });
});

describe('PATCH', () => {
  test('an administrator renames the subscription; the answer and later reads show the new name', async () => {
    const before = (await api('owner', 'GET', SUB)).body;
    const res = await api('administrator', 'PATCH', SUB, { name: 'Pro (renamed)' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Pro (renamed)');
    assert.equal(res.body.end, before.end, 'the administrator still sees end');
    assert.ok(!('inviteAccountOwnerInNewProjects' in res.body), 'the answer follows the visibility rules');
    assert.ok(Date.parse(res.body.updatedAt) >= Date.parse(before.updatedAt));
    const after = (await api('owner', 'GET', SUB)).body;
    assert.equal(after.name, 'Pro (renamed)');
    assert.equal(after.inviteAccountOwnerInNewProjects, before.inviteAccountOwnerInNewProjects, 'the flag is untouched');
    assert.equal((await api('projectManager', 'GET', A2)).body.subscriptions[0].name, 'Pro (renamed)', 'cached account views see it');
  });

  test('an administrator setting inviteAccountOwnerInNewProjects answers 403 update-subscription-forbidden; nothing changes', async () => {
    const before = (await api('owner', 'GET', SUB)).body;
    for (const body of [{ inviteAccountOwnerInNewProjects: false }, { name: 'Sneaky', inviteAccountOwnerInNewProjects: false }]) {
      const res = await api('administrator', 'PATCH', SUB, body);
      assertProblem(res, 403, 'update-subscription-forbidden');
      assert.ok(Array.isArray(res.body.errorValues?.requiredPermissions) && res.body.errorValues.requiredPermissions.length > 0);
    }
    assert.deepEqual((await api('owner', 'GET', SUB)).body, before);
  });

  test('the owner sets inviteAccountOwnerInNewProjects (and back), and renames', async () => {
    const off = await api('owner', 'PATCH', SUB, { inviteAccountOwnerInNewProjects: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.inviteAccountOwnerInNewProjects, false);
    assert.equal((await api('owner', 'GET', SUB)).body.inviteAccountOwnerInNewProjects, false);
    const both = await api('owner', 'PATCH', `${A2}/subscriptions/urn:svc:subscription:${SUBSCRIPTION_ID}`, {
      name: 'Pro', inviteAccountOwnerInNewProjects: true,
    });
    assert.equal(both.status, 200);
    assert.equal(both.body.name, 'Pro');
    assert.equal(both.body.inviteAccountOwnerInNewProjects, true);
  });

  test('an empty or unknown-field body answers 400 invalid-input', async () => {
    assertProblem(await api('owner', 'PATCH', SUB, {}), 400, 'invalid-input');
    assertProblem(await api('owner', 'PATCH', SUB, { end: '2030-01-01T00:00:00Z' }), 400, 'invalid-input');
    assertProblem(await api('owner', 'PATCH', SUB, { name: '' }), 400, 'invalid-input');
    assertProblem(await api('owner', 'PATCH', SUB, { name: '   ' }), 400, 'invalid-input');
    assert.equal((await api('owner', 'GET', SUB)).body.name, 'Pro', 'unchanged');
  });

  test('the name is stored trimmed', async () => {
    const res = await api('owner', 'PATCH', SUB, { name: '  Pro  ' });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'Pro');
  });
});

describe('references', () => {
  test("another account's subscription answers 404 subscription-not-found (GET and PATCH), and is untouched", async () => {
    const url = `${A2}/subscriptions/${otherSubscriptionId}`;
    const get = await api('owner', 'GET', url);
    assertProblem(get, 404, 'subscription-not-found');
    assert.deepEqual(get.body.errorValues, { subscriptionId: otherSubscriptionId });
    assertProblem(await api('administrator', 'PATCH', url, { name: 'Stolen' }), 404, 'subscription-not-found');
    const theirs = await api('other-owner', 'GET', `/api/2/accounts/${OTHER_ACCOUNT_ID}/subscriptions/${otherSubscriptionId}`);
    assert.equal(theirs.status, 200);
    assert.equal(theirs.body.name, 'Basic');
  });

  test('an unknown subscription answers 404; a URN of another type answers 400 invalid-subscription-urn', async () => {
    const missing = '77777777-7777-4777-8777-777777777777';
    assertProblem(await api('owner', 'GET', `${A2}/subscriptions/${missing}`), 404, 'subscription-not-found');
    assertProblem(await api('owner', 'GET', `${A2}/subscriptions/urn:svc:account:${SUBSCRIPTION_ID}`), 400, 'invalid-subscription-urn');
  });

  test('a subscription is found by its API 1 id too', async () => {
    const s = (await api('owner', 'GET', SUB)).body;
    const res = await api('owner', 'GET', `${A2}/subscriptions/${s.api1Id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, s.id);
  });
});
