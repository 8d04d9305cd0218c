// Who may call what, derived from the spec's tables ("Account-level roles" and the
// permission column of each operation), not from the implementation: every endpoint of
// the accounts issue × every kind of caller → allowed, or the exact 403 code, on both
// API generations. A user of another account gets 404 account-not-found, as for an
// account that does not exist (docs/security.md "Existence across tenants").
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { ACTORS, ACCOUNT_ID, GROUP_ID, ROLE_ID, SUBSCRIPTION_ID, WORLD_SEED, email, type ActorName } from '../support/world.ts';

// Spec "Account-level roles": which callers hold each permission used below.
const ALL_MEMBERS: ActorName[] = ['owner', 'administrator', 'projectManager', 'projectLister', 'member'];
const HOLDERS: Record<string, ActorName[]> = {
  'account:account:read': ALL_MEMBERS,
  'account:roles:read': ALL_MEMBERS,
  'account:groups:read': ALL_MEMBERS,
  'account:roles:write': ['owner', 'administrator', 'projectManager'],
  'account:users:read': ['owner', 'administrator', 'projectManager'],
  'account:users:write': ['owner', 'administrator', 'projectManager'],
  'account:subscriptions:read': ['owner', 'administrator', 'projectManager'],
  'account:subscriptions:update-name': ['owner', 'administrator'],
  'account:administrators:write': ['owner', 'administrator'],
  'account:project-listers:write': ['owner', 'administrator'],
  'account:project-managers:write': ['owner', 'administrator', 'projectManager'],
  'account:groups:write': ['owner', 'administrator', 'projectManager'], // CONTRACT §5
};

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Builds the URL (and body); may create what it acts on first, as the owner. */
  prepare: (t: TestApp) => Promise<{ url: string; payload?: unknown }>;
  permission: string;
  /** The permission a refusal lists, when it differs from the one deciding who is allowed. */
  required?: string;
  denied: string;
  ok: number;
}

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const A1 = `/api/accounts/${ACCOUNT_ID}`;
let counter = 0;
const unique = (p: string) => `${p}-${++counter}`;

async function asOwner(t: TestApp, method: 'POST', url: string, payload: unknown) {
  const { access_token } = await t.tokens(email('owner'));
  const res = await t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${access_token}` } });
  assert.ok(res.statusCode < 300, res.body);
  return res.json();
}

const fixed = (url: string, payload?: unknown) => async () => ({ url, payload });

const API2: Case[] = [
  { name: 'GET account', method: 'GET', prepare: fixed(A2), permission: 'account:account:read', denied: 'view-account-forbidden', ok: 200 },
  { name: 'GET subscriptions', method: 'GET', prepare: fixed(`${A2}/subscriptions`), permission: 'account:subscriptions:read', denied: 'list-subscriptions-forbidden', ok: 200 },
  { name: 'GET subscription', method: 'GET', prepare: fixed(`${A2}/subscriptions/${SUBSCRIPTION_ID}`), permission: 'account:subscriptions:read', denied: 'view-subscription-forbidden', ok: 200 },
  { name: 'PATCH subscription name', method: 'PATCH', prepare: fixed(`${A2}/subscriptions/${SUBSCRIPTION_ID}`, { name: 'Pro plan' }), permission: 'account:subscriptions:update-name', denied: 'update-subscription-forbidden', ok: 200 },
  { name: 'GET roles', method: 'GET', prepare: fixed(`${A2}/roles`), permission: 'account:roles:read', denied: 'list-roles-forbidden', ok: 200 },
  { name: 'GET role', method: 'GET', prepare: fixed(`${A2}/roles/${ROLE_ID}`), permission: 'account:roles:read', denied: 'view-role-forbidden', ok: 200 },
  { name: 'POST role', method: 'POST', prepare: async () => ({ url: `${A2}/roles`, payload: { name: unique('Role'), legacyPermissions: ['view3d'] } }), permission: 'account:roles:write', denied: 'create-role-forbidden', ok: 201 },
  {
    name: 'PUT role', method: 'PUT', permission: 'account:roles:write', denied: 'update-role-forbidden', ok: 200,
    prepare: async (t) => {
      const r = await asOwner(t, 'POST', `${A2}/roles`, { name: unique('Role'), legacyPermissions: ['view3d'] });
      return { url: `${A2}/roles/${r.id}`, payload: { name: unique('Renamed'), legacyPermissions: ['view_asset'] } };
    },
  },
  {
    name: 'DELETE role', method: 'DELETE', permission: 'account:roles:write', denied: 'delete-role-forbidden', ok: 204,
    prepare: async (t) => {
      const r = await asOwner(t, 'POST', `${A2}/roles`, { name: unique('Role'), legacyPermissions: ['view3d'] });
      return { url: `${A2}/roles/${r.id}` };
    },
  },
  { name: 'GET users', method: 'GET', prepare: fixed(`${A2}/users`), permission: 'account:users:read', denied: 'list-users-forbidden', ok: 200 },
  { name: 'GET user', method: 'GET', prepare: fixed(`${A2}/users/placeholder`), permission: 'account:users:read', denied: 'view-user-forbidden', ok: 200 },
  { name: 'POST bulk-invite (no account role)', method: 'POST', prepare: async () => ({ url: `${A2}/users/bulk-invite`, payload: [{ email: `${unique('new')}@acme.test` }] }), permission: 'account:users:write', required: 'workzone:members:write', denied: 'create-user-forbidden', ok: 201 },
  { name: 'POST bulk-invite as administrator', method: 'POST', prepare: async () => ({ url: `${A2}/users/bulk-invite`, payload: [{ email: `${unique('admin')}@acme.test`, roles: ['administrator'] }] }), permission: 'account:administrators:write', denied: 'create-user-forbidden', ok: 201 },
  { name: 'POST bulk-invite as project manager', method: 'POST', prepare: async () => ({ url: `${A2}/users/bulk-invite`, payload: [{ email: `${unique('pm')}@acme.test`, roles: ['projectManager'] }] }), permission: 'account:project-managers:write', denied: 'create-user-forbidden', ok: 201 },
  {
    name: 'DELETE members', method: 'DELETE', permission: 'account:users:write', denied: 'remove-user-from-account-forbidden', ok: 204,
    prepare: async (t) => {
      const [u] = await asOwner(t, 'POST', `${A2}/users/bulk-invite`, [{ email: `${unique('leaver')}@acme.test` }]);
      return { url: `${A2}/members`, payload: [u.id] };
    },
  },
  {
    name: 'PUT member roles (grant projectLister)', method: 'PUT', permission: 'account:project-listers:write', denied: 'update-user-account-roles-forbidden', ok: 204,
    prepare: async (t) => {
      const [u] = await asOwner(t, 'POST', `${A2}/users/bulk-invite`, [{ email: `${unique('promoted')}@acme.test` }]);
      return { url: `${A2}/members/${u.id}/roles`, payload: ['projectLister'] };
    },
  },
  { name: 'GET groups', method: 'GET', prepare: fixed(`${A2}/groups`), permission: 'account:groups:read', denied: 'list-groups-forbidden', ok: 200 },
  { name: 'GET group', method: 'GET', prepare: fixed(`${A2}/groups/${GROUP_ID}`), permission: 'account:groups:read', denied: 'view-group-forbidden', ok: 200 },
  { name: 'POST group', method: 'POST', prepare: async () => ({ url: `${A2}/groups`, payload: { name: unique('Group') } }), permission: 'account:groups:write', denied: 'create-group-forbidden', ok: 201 },
  {
    name: 'PUT group', method: 'PUT', permission: 'account:groups:write', denied: 'update-group-forbidden', ok: 200,
    prepare: async (t) => {
      const g = await asOwner(t, 'POST', `${A2}/groups`, { name: unique('Group') });
      return { url: `${A2}/groups/${g.id}`, payload: { name: unique('Renamed') } };
    },
  },
  {
    name: 'DELETE group', method: 'DELETE', permission: 'account:groups:write', denied: 'delete-group-forbidden', ok: 204,
    prepare: async (t) => {
      const g = await asOwner(t, 'POST', `${A2}/groups`, { name: unique('Group') });
      return { url: `${A2}/groups/${g.id}` };
    },
  },
  { name: 'POST group members', method: 'POST', prepare: async () => ({ url: `${A2}/groups/${GROUP_ID}/members`, payload: [targetId] }), permission: 'account:groups:write', denied: 'update-group-forbidden', ok: 200 },
  {
    name: 'DELETE group members', method: 'DELETE',
    // The user must be in the group (else 400 users-not-in-groups): the owner puts him back first.
    prepare: async (t) => {
      await asOwner(t, 'POST', `${A2}/groups/${GROUP_ID}/members`, [targetId]);
      return { url: `${A2}/groups/${GROUP_ID}/members`, payload: [targetId] };
    }, permission: 'account:groups:write', denied: 'update-group-forbidden', ok: 200 },
];

const API1: Case[] = [
  { name: 'GET account', method: 'GET', prepare: fixed(A1), permission: 'account:account:read', denied: 'view-account-forbidden', ok: 200 },
  { name: 'GET subscriptions', method: 'GET', prepare: fixed(`${A1}/subscriptions`), permission: 'account:subscriptions:read', denied: 'list-subscriptions-forbidden', ok: 200 },
  { name: 'GET roles', method: 'GET', prepare: fixed(`${A1}/roles`), permission: 'account:roles:read', denied: 'list-roles-forbidden', ok: 200 },
  { name: 'GET role', method: 'GET', prepare: fixed(`${A1}/roles/${ROLE_ID}`), permission: 'account:roles:read', denied: 'view-role-forbidden', ok: 200 },
  { name: 'GET groups', method: 'GET', prepare: fixed(`${A1}/groups`), permission: 'account:groups:read', denied: 'list-groups-forbidden', ok: 200 },
  { name: 'GET group', method: 'GET', prepare: fixed(`${A1}/groups/${GROUP_ID}`), permission: 'account:groups:read', denied: 'view-group-forbidden', ok: 200 },
  { name: 'GET users', method: 'GET', prepare: fixed(`${A1}/users`), permission: 'account:users:read', denied: 'list-users-forbidden', ok: 200 },
  { name: 'GET user', method: 'GET', prepare: fixed(`${A1}/users/placeholder`), permission: 'account:users:read', denied: 'view-user-forbidden', ok: 200 },
];

let t: TestApp;
let targetId: string;
const tokens = new Map<ActorName, string>();

before(async () => {
  t = await testApp();
  const seeded = await t.seed(WORLD_SEED);
  targetId = seeded.users.find((u: { email: string }) => u.email === email('target')).id;
  for (const a of ACTORS) tokens.set(a, (await t.tokens(email(a))).access_token);
});
after(() => t.close());

for (const [generation, cases] of [['API 2', API2], ['API 1', API1]] as const) {
  describe(`${generation} authorization`, () => {
    for (const c of cases) {
      for (const actor of ACTORS) {
        const allowed = HOLDERS[c.permission]!.includes(actor);
        const stranger = !ALL_MEMBERS.includes(actor);
        test(`${c.name} as ${actor}: ${allowed ? `answers ${c.ok}` : stranger ? 'answers 404 account-not-found' : `answers 403 ${c.denied}`}`, async () => {
          const { url, payload } = await c.prepare(t);
          const res = await t.app.inject({
            method: c.method,
            url: url.replace('placeholder', targetId),
            payload: payload as object | undefined,
            headers: { authorization: `Bearer ${tokens.get(actor)}` },
          });
          if (allowed) {
            assert.equal(res.statusCode, c.ok, res.body);
            return;
          }
          if (stranger) {
            assert.equal(res.statusCode, 404, res.body);
            assert.equal(generation === 'API 2' ? res.json().errorCode : res.json().code, 'account-not-found');
            return;
          }
          assert.equal(res.statusCode, 403, res.body);
          const body = res.json();
          if (generation === 'API 2') {
            assert.match(String(res.headers['content-type']), /application\/problem\+json/);
            assert.equal(body.errorCode, c.denied);
            assert.equal(body.status, 403);
            assert.ok(Array.isArray(body.errorValues?.requiredPermissions), 'requiredPermissions listed');
            const required = c.required ?? c.permission;
            assert.ok(body.errorValues.requiredPermissions.includes(required), `requires ${required}`);
          } else {
            assert.equal(body.code, c.denied);
            assert.equal(typeof body.message, 'string');
          }
        });
      }
    }
  });
}

test('an unknown account answers 404 account-not-found on both generations', async () => {
  const unknown = '99999999-9999-4999-8999-999999999999';
  const h = { authorization: `Bearer ${tokens.get('owner')}` };
  const r2 = await t.app.inject({ url: `/api/2/accounts/${unknown}/roles`, headers: h });
  assert.equal(r2.statusCode, 404);
  assert.equal(r2.json().errorCode, 'account-not-found');
  assert.deepEqual(r2.json().errorValues, { accountId: unknown });
  const r1 = await t.app.inject({ url: `/api/accounts/${unknown}/roles`, headers: h });
  assert.equal(r1.statusCode, 404);
  assert.equal(r1.json().code, 'account-not-found');
});

test('a URN of the wrong type answers 400 invalid-account-urn; API 1 refuses URNs', async () => {
  const h = { authorization: `Bearer ${tokens.get('owner')}` };
  const r2 = await t.app.inject({ url: `/api/2/accounts/urn:svc:project:${ACCOUNT_ID}`, headers: h });
  assert.equal(r2.statusCode, 400);
  assert.equal(r2.json().errorCode, 'invalid-account-urn');
  const ok = await t.app.inject({ url: `/api/2/accounts/urn:svc:account:${ACCOUNT_ID}`, headers: h });
  assert.equal(ok.statusCode, 200);
  const r1 = await t.app.inject({ url: `/api/accounts/urn:svc:account:${ACCOUNT_ID}`, headers: h });
  assert.equal(r1.statusCode, 400);
  assert.equal(r1.json().code, 'invalid-account-urn');
});
