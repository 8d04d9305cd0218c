// The users of an account through API 2 (spec "User", "Invite users", "Remove users from
// an account", "Update the account roles of a user"; CONTRACT §6): accountRoles
// visibility, bulk-invite (201, idempotent, all or nothing, mails in the outbox),
// removal (the owner stays, all or nothing, access and groups are lost), account-role
// changes (each role needs its own write permission) and that permission changes take
// effect at once (the access cache is invalidated).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, PUBLIC_URL, type TestApp } from '../support/app.ts';
import { ACCOUNT_ID, GROUP_ID, WORLD_SEED, email, type ActorName } from '../support/world.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;

let t: TestApp;
const ids = new Map<string, string>(); // e-mail → user UUID
const tokens = new Map<string, string>();

interface Res {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function api(actor: ActorName | string, method: Method, url: string, payload?: unknown): Promise<Res> {
  let token = tokens.get(actor);
  if (!token) tokens.set(actor, (token = (await t.tokens(actor.includes('@') ? actor : email(actor))).access_token));
  const res = await t.app.inject({ method, url, payload: payload as object | undefined, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
}

function assertProblem(res: Res, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(res.body.errorCode, code, JSON.stringify(res.body));
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  sentAt: string;
}

async function outbox(): Promise<Mail[]> {
  const res = await t.app.inject({ url: '/_operator/outbox', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  assert.equal(res.statusCode, 200);
  return res.json();
}

const urnOf = (emailAddress: string) => `urn:svc:user:${ids.get(emailAddress)}`;
const invite = (actor: ActorName, entries: unknown) => api(actor, 'POST', `${A2}/users/bulk-invite`, entries);

async function usersByEmail(actor: ActorName = 'owner'): Promise<Map<string, any>> {
  const res = await api(actor, 'GET', `${A2}/users`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return new Map(res.body.map((u: any) => [u.email, u]));
}

let counter = 0;
const fresh = (p: string) => `${p}-${++counter}@new.test`;

before(async () => {
  t = await testApp();
  const seeded = await t.seed(WORLD_SEED);
  for (const u of seeded.users) ids.set(u.email, u.id);
});
after(() => t.close());

describe('accountRoles visibility', () => {
  const expected: Record<string, string[]> = {
    [email('owner')]: [],
    [email('administrator')]: ['administrator'],
    [email('projectManager')]: ['projectManager'],
    [email('projectLister')]: ['projectLister'],
    [email('member')]: [],
    [email('target')]: [],
  };

  for (const actor of ['owner', 'administrator'] as const) {
    test(`${actor} sees every user's administrator, projectManager and projectLister roles`, async () => {
      const users = await usersByEmail(actor);
      assert.deepEqual([...users.keys()].sort(), Object.keys(expected).sort(), 'the members of the account, owner included');
      for (const [mail, roles] of Object.entries(expected)) assert.deepEqual(users.get(mail).accountRoles, roles, mail);
    });
  }

  test('a project manager sees only the projectManager role', async () => {
    const users = await usersByEmail('projectManager');
    for (const [mail, roles] of Object.entries(expected)) {
      assert.deepEqual(users.get(mail).accountRoles, roles.filter((r) => r === 'projectManager'), mail);
    }
    const one = await api('projectManager', 'GET', `${A2}/users/${ids.get(email('administrator'))}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.accountRoles, []);
  });

  test('a user holding all three roles shows all three to the owner and one to a project manager', async () => {
    const mail = fresh('triple');
    assert.equal((await invite('owner', [{ email: mail, roles: ['administrator', 'projectManager', 'projectLister'] }])).status, 201);
    assert.deepEqual((await usersByEmail('owner')).get(mail).accountRoles.sort(), ['administrator', 'projectLister', 'projectManager']);
    assert.deepEqual((await usersByEmail('projectManager')).get(mail).accountRoles, ['projectManager']);
  });

  for (const actor of ['projectLister', 'member'] as const) {
    test(`a ${actor} cannot list users at all: 403 list-users-forbidden`, async () => {
      const res = await api(actor, 'GET', `${A2}/users`);
      assertProblem(res, 403, 'list-users-forbidden');
      assert.deepEqual(res.body.errorValues.requiredPermissions, ['account:users:read']);
    });
  }

  test('the owner role is never exposed in accountRoles, not even to the owner about himself', async () => {
    for (const actor of ['owner', 'administrator', 'projectManager'] as const) {
      const list = await api(actor, 'GET', `${A2}/users`);
      for (const u of list.body) {
        for (const r of u.accountRoles ?? []) assert.ok(['administrator', 'projectManager', 'projectLister'].includes(r), `${r} for ${u.email}`);
      }
      const me = await api(actor, 'GET', `${A2}/users/${urnOf(email('owner'))}`);
      assert.equal(me.status, 200);
      assert.deepEqual(me.body.accountRoles, []);
    }
  });

  test('users are found by URN, UUID and API 1 id; a user outside the account is 404 user-not-found', async () => {
    const u = (await usersByEmail()).get(email('member'));
    for (const ref of [u.id, ids.get(email('member'))!, u.api1Id]) {
      const res = await api('owner', 'GET', `${A2}/users/${ref}`);
      assert.equal(res.status, 200, ref);
      assert.equal(res.body.email, email('member'));
      assert.equal(res.body.type, 'user');
      assert.equal(res.body.firstName, 'member');
      assert.equal(res.body.lastName, 'Test');
    }
    const outsider = await api('owner', 'GET', `${A2}/users/${ids.get(email('outsider'))}`);
    assertProblem(outsider, 404, 'user-not-found');
    assert.deepEqual(outsider.body.errorValues, { userId: ids.get(email('outsider')) });
    assertProblem(await api('owner', 'GET', `${A2}/users/urn:svc:group:${GROUP_ID}`), 400, 'invalid-user-urn');
  });
});

describe('bulk-invite', () => {
  test('201: new users are created, listed with their roles, and each gets an invitation mail with a link', async () => {
    const a = fresh('alice');
    const b = fresh('bob');
    const sent = (await outbox()).length;
    const res = await invite('owner', [{ email: a }, { email: b, roles: ['projectLister'] }]);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.map((u: any) => u.email), [a, b]);
    for (const u of res.body) {
      assert.match(u.id, /^urn:svc:user:[0-9a-f-]{36}$/);
      assert.equal(u.invitedBy, urnOf(email('owner')));
      assert.ok(!Number.isNaN(Date.parse(u.invitedAt)));
    }
    assert.deepEqual(res.body[0].accountRoles, []);
    assert.deepEqual(res.body[1].accountRoles, ['projectLister']);

    const users = await usersByEmail();
    assert.deepEqual(users.get(a).accountRoles, []);
    assert.deepEqual(users.get(b).accountRoles, ['projectLister']);

    const mails = await outbox();
    assert.equal(mails.length, sent + 2);
    for (const to of [a, b]) {
      const mail = mails.find((m) => m.to === to);
      assert.ok(mail, `a mail to ${to}`);
      assert.match(mail.text, /the account “Acme”/, 'the account\'s name, quoted');
      assert.equal(mail.links.length, 1);
      assert.match(mail.links[0]!, new RegExp(`^${PUBLIC_URL}/invitations/[A-Za-z0-9_-]{20,}$`));
      assert.ok(mail.text.includes(mail.links[0]!), 'the link is in the text');
      // The link opens the set-password page for that address.
      const page = await t.app.inject({ url: new URL(mail.links[0]!).pathname });
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(to));
    }
  });

  test('idempotent: the same call again answers 201 with the same users, sends no mail, and changes nothing', async () => {
    const a = fresh('carol');
    const body = [{ email: a, roles: ['projectManager'] }, { email: email('member') }];
    const first = await invite('owner', body);
    assert.equal(first.status, 201);
    const mails = (await outbox()).length;
    const state = await usersByEmail();
    const second = await invite('owner', body);
    assert.equal(second.status, 201);
    assert.deepEqual(second.body, first.body);
    assert.equal((await outbox()).length, mails, 'no new mail');
    assert.deepEqual(await usersByEmail(), state, 'same state');
  });

  test('inviting an existing member with a new role grants it (and keeps the old ones) without a mail', async () => {
    const a = fresh('dave');
    await invite('owner', [{ email: a, roles: ['projectLister'] }]);
    const mails = (await outbox()).length;
    const res = await invite('owner', [{ email: a.toUpperCase(), roles: ['projectManager'] }]);
    assert.equal(res.status, 201);
    assert.deepEqual(res.body[0].accountRoles.sort(), ['projectLister', 'projectManager']);
    assert.equal((await outbox()).length, mails);
  });

  test('all or nothing: a project manager inviting [plain user, administrator] answers 403; neither user exists and no mail is sent', async () => {
    const plain = fresh('plain');
    const admin = fresh('would-be-admin');
    const mails = (await outbox()).length;
    const res = await invite('projectManager', [{ email: plain }, { email: admin, roles: ['administrator'] }]);
    assertProblem(res, 403, 'create-user-forbidden');
    assert.ok(res.body.errorValues.requiredPermissions.includes('account:administrators:write'), JSON.stringify(res.body));
    assert.equal((await outbox()).length, mails, 'no mail');
    const users = await usersByEmail();
    assert.ok(!users.has(plain) && !users.has(admin), 'nobody joined the account');
    assert.equal(await t.core.store.repos.users.byEmail(plain), null, 'no platform user was created');
    assert.equal(await t.core.store.repos.users.byEmail(admin), null);
  });

  test('a project manager may invite plain users and project managers', async () => {
    const a = fresh('pm-invitee');
    const res = await invite('projectManager', [{ email: a }, { email: fresh('pm2'), roles: ['projectManager'] }]);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    // The answer follows the caller's visibility: a project manager sees only projectManager.
    assert.deepEqual(res.body[1].accountRoles, ['projectManager']);
  });

  test('invitations: an existing platform user is invited, not added: a mail to accept on his account page (no set-password link), access once he accepts', async () => {
    const existing = email('outsider');
    const before = await api('outsider', 'GET', A2);
    assertProblem(before, 404, 'account-not-found');
    const mails = (await outbox()).length;
    const res = await invite('owner', [{ email: existing }]);
    assert.equal(res.status, 201);
    assert.equal(res.body[0].id, urnOf(existing), 'the same user, not a new one');
    assert.equal(res.body[0].pending, true);
    const sent = (await outbox()).slice(0, (await outbox()).length - mails);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.to, existing);
    assert.deepEqual(sent[0]!.links, [`${PUBLIC_URL}/account`], 'accept on the account page; no set-password link');
    assert.ok(!sent[0]!.text.includes('/invitations/'));
    assertProblem(await api('outsider', 'GET', A2), 404, 'account-not-found');
    assert.ok(!(await api('outsider', 'GET', '/api/2/accounts')).body.some((acc: any) => acc.id === `urn:svc:account:${ACCOUNT_ID}`), 'not a member before accepting');
    const mine = await api('outsider', 'GET', '/api/2/me/invitations');
    assert.deepEqual(mine.body.map((i: any) => [i.accountId, i.accountName]), [[`urn:svc:account:${ACCOUNT_ID}`, 'Acme']]);
    assert.equal((await api('outsider', 'POST', `/api/2/me/invitations/${ACCOUNT_ID}/accept`)).status, 204);
    assert.equal((await api('outsider', 'GET', A2)).status, 200, 'a member once he accepted');
    assert.ok((await api('outsider', 'GET', '/api/2/accounts')).body.some((acc: any) => acc.id === `urn:svc:account:${ACCOUNT_ID}`));
    assert.equal((await usersByEmail()).get(existing).pending, undefined, 'listed as a member, with his own names');
    assert.equal((await usersByEmail()).get(existing).firstName, 'outsider');
  });

  test('invalid bodies answer 400 invalid-input and change nothing', async () => {
    const mails = (await outbox()).length;
    for (const body of [[], [{}], [{ email: 'not-an-email' }], [{ email: fresh('x'), roles: ['owner'] }], [{ email: fresh('y'), roles: ['superuser'] }], {}]) {
      assertProblem(await invite('owner', body), 400, 'invalid-input');
    }
    assert.equal((await outbox()).length, mails);
  });
});

describe('DELETE members', () => {
  test('the owner cannot be removed: 403 delete-account-owner-forbidden, alone or listed with others, and nobody is removed', async () => {
    const leaver = fresh('leaver');
    await invite('owner', [{ email: leaver }]);
    const leaverUrn = (await usersByEmail()).get(leaver).id;
    const state = await usersByEmail();
    for (const body of [[urnOf(email('owner'))], [leaverUrn, urnOf(email('owner'))], [urnOf(email('owner')), leaverUrn]]) {
      const res = await api('administrator', 'DELETE', `${A2}/members`, body);
      assertProblem(res, 403, 'delete-account-owner-forbidden');
      assert.ok(Array.isArray(res.body.errorValues.requiredPermissions));
      assert.deepEqual(await usersByEmail(), state, 'all or nothing');
    }
  });

  test('removing a user revokes his account roles, so it needs their write permissions: a project manager cannot remove an administrator or a project lister', async () => {
    const admin = fresh('admin-kept');
    const lister = fresh('lister-kept');
    const pm = fresh('pm-removable');
    const plain = fresh('plain-removable');
    await invite('owner', [{ email: admin, roles: ['administrator'] }, { email: lister, roles: ['projectLister'] }, { email: pm, roles: ['projectManager'] }, { email: plain }]);
    const users = await usersByEmail();
    for (const [mail, needed] of [[admin, 'account:administrators:write'], [lister, 'account:project-listers:write']] as const) {
      const state = await usersByEmail();
      const res = await api('projectManager', 'DELETE', `${A2}/members`, [users.get(plain).id, users.get(mail).id]);
      assertProblem(res, 403, 'remove-user-from-account-forbidden');
      assert.ok(res.body.errorValues.requiredPermissions.includes(needed), JSON.stringify(res.body));
      assert.deepEqual(await usersByEmail(), state, 'nobody removed, not even the plain user listed first');
    }
    assert.equal((await api('projectManager', 'DELETE', `${A2}/members`, [users.get(pm).id, users.get(plain).id])).status, 204);
    assert.equal((await api('administrator', 'DELETE', `${A2}/members`, [users.get(admin).id, users.get(lister).id])).status, 204);
    const after = await usersByEmail();
    for (const m of [admin, lister, pm, plain]) assert.ok(!after.has(m), m);
  });

  test('a reference to a non-member answers 404 user-not-found and nobody is removed', async () => {
    const leaver = fresh('stayer');
    await invite('owner', [{ email: leaver }]);
    const state = await usersByEmail();
    const res = await api('owner', 'DELETE', `${A2}/members`, [state.get(leaver).id, ids.get(email('other-owner'))]);
    assertProblem(res, 404, 'user-not-found');
    assert.deepEqual(await usersByEmail(), state);
  });

  test('a removed user loses access at once (404, as for an unknown account) and leaves the account\'s groups', async () => {
    const member = email('member');
    assert.equal((await api('member', 'GET', A2)).status, 200, 'reads the account before (and the access is cached)');
    const group = await api('owner', 'GET', `${A2}/groups/${GROUP_ID}`);
    assert.ok(group.body.userIds.includes(urnOf(member)), 'is in the group before');

    const res = await api('projectManager', 'DELETE', `${A2}/members`, [ids.get(member)]);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.equal(res.body, undefined);

    assertProblem(await api('member', 'GET', A2), 404, 'account-not-found');
    assertProblem(await api('member', 'GET', `${A2}/roles`), 404, 'account-not-found');
    assert.ok(!(await api('member', 'GET', '/api/2/accounts')).body.some((a: any) => a.id === `urn:svc:account:${ACCOUNT_ID}`));
    assert.ok(!(await usersByEmail()).has(member));
    assertProblem(await api('owner', 'GET', `${A2}/users/${ids.get(member)}`), 404, 'user-not-found');
    const groupAfter = await api('owner', 'GET', `${A2}/groups/${GROUP_ID}`);
    assert.ok(!groupAfter.body.userIds.includes(urnOf(member)), 'left the group');

    // Invited again, he is back once he accepts, without his old group membership.
    assert.equal((await invite('owner', [{ email: member }])).status, 201);
    assertProblem(await api('member', 'GET', A2), 404, 'account-not-found');
    assert.equal((await api('member', 'POST', `/api/2/me/invitations/${ACCOUNT_ID}/accept`)).status, 204);
    assert.equal((await api('member', 'GET', A2)).status, 200);
    assert.ok(!(await api('owner', 'GET', `${A2}/groups/${GROUP_ID}`)).body.userIds.includes(urnOf(member)));
  });

  test('several users are removed in one call, referenced by URN, UUID and API 1 id', async () => {
    const mails = [fresh('r1'), fresh('r2'), fresh('r3')];
    const res = await invite('owner', mails.map((m) => ({ email: m })));
    const [u1, u2, u3] = res.body;
    const del = await api('owner', 'DELETE', `${A2}/members`, [u1.id, u2.id.split(':')[3], u3.api1Id]);
    assert.equal(del.status, 204);
    const users = await usersByEmail();
    for (const m of mails) assert.ok(!users.has(m));
  });

  test('a user named twice in one call (by URN and by API 1 id) is removed once: 204', async () => {
    const mail = fresh('twice');
    const [u] = (await invite('owner', [{ email: mail }])).body;
    const del = await api('owner', 'DELETE', `${A2}/members`, [u.id, u.api1Id]);
    assert.equal(del.status, 204, JSON.stringify(del.body));
    assert.ok(!(await usersByEmail()).has(mail));
  });
});

describe('PUT members/{u}/roles', () => {
  const rolesOf = async (mail: string) => (await usersByEmail()).get(mail).accountRoles;
  const put = async (actor: ActorName, mail: string, roles: unknown) => {
    const ref = ids.has(mail) ? urnOf(mail) : (await usersByEmail()).get(mail).id;
    return api(actor, 'PUT', `${A2}/members/${ref}/roles`, roles);
  };

  test('the owner grants and revokes roles; 204 each time', async () => {
    const target = email('target');
    let res = await put('owner', target, ['projectLister', 'administrator']);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.deepEqual((await rolesOf(target)).sort(), ['administrator', 'projectLister']);
    res = await put('owner', target, ['projectLister']);
    assert.equal(res.status, 204);
    assert.deepEqual(await rolesOf(target), ['projectLister']);
    res = await put('administrator', target, []);
    assert.equal(res.status, 204);
    assert.deepEqual(await rolesOf(target), []);
  });

  test('a project manager may grant and revoke projectManager', async () => {
    const target = email('target');
    assert.equal((await put('projectManager', target, ['projectManager'])).status, 204);
    assert.deepEqual(await rolesOf(target), ['projectManager']);
    assert.equal((await put('projectManager', target, [])).status, 204);
    assert.deepEqual(await rolesOf(target), []);
  });

  test('a project manager may not grant administrator (or projectLister): 403 naming the write permission; nothing changes', async () => {
    const target = email('target');
    for (const [roles, needed] of [
      [['administrator'], 'account:administrators:write'],
      [['projectManager', 'administrator'], 'account:administrators:write'],
      [['projectLister'], 'account:project-listers:write'],
    ] as const) {
      const res = await put('projectManager', target, roles);
      assertProblem(res, 403, 'update-user-account-roles-forbidden');
      assert.ok(res.body.errorValues.requiredPermissions.includes(needed), JSON.stringify(res.body));
      assert.deepEqual(await rolesOf(target), []);
    }
  });

  test('a project manager may not revoke the administrator role either', async () => {
    const res = await put('projectManager', email('administrator'), []);
    assertProblem(res, 403, 'update-user-account-roles-forbidden');
    assert.ok(res.body.errorValues.requiredPermissions.includes('account:administrators:write'));
    assert.deepEqual(await rolesOf(email('administrator')), ['administrator']);
  });

  test('a non-member answers 404 user-not-found; an unknown role name answers 400 invalid-input', async () => {
    assertProblem(await put('owner', email('other-owner'), ['projectLister']), 404, 'user-not-found');
    assertProblem(await put('owner', email('target'), ['owner']), 400, 'invalid-input');
    assertProblem(await put('owner', email('target'), { roles: ['administrator'] }), 400, 'invalid-input');
    assertProblem(await put('owner', email('target'), ['projectLister', 'projectLister']), 400, 'invalid-input');
  });

  test('a role change takes effect at once: a member promoted to administrator can list users, and not after the revocation', async () => {
    const mail = fresh('promoted');
    await invite('owner', [{ email: mail }]);
    assert.equal((await api(mail, 'POST', `/api/2/me/invitations/${ACCOUNT_ID}/accept`)).status, 204);
    assertProblem(await api(mail, 'GET', `${A2}/users`), 403, 'list-users-forbidden');
    assert.equal((await api(mail, 'GET', A2)).body.permissions.isAdmin, false);

    assert.equal((await put('owner', mail, ['administrator'])).status, 204);
    const listed = await api(mail, 'GET', `${A2}/users`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.ok(listed.body.find((u: any) => u.email === mail).accountRoles.includes('administrator'));
    assert.equal((await api(mail, 'GET', A2)).body.permissions.isAdmin, true);
    assert.ok('end' in (await api(mail, 'GET', `${A2}/subscriptions`)).body[0], 'sees the sensitive subscription fields');

    assert.equal((await put('owner', mail, [])).status, 204);
    assertProblem(await api(mail, 'GET', `${A2}/users`), 403, 'list-users-forbidden');
    assert.equal((await api(mail, 'GET', A2)).body.permissions.isAdmin, false);
  });
});
