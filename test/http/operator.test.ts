// The operator surface (CONTRACT §3): 404 everywhere without OPERATOR_TOKEN, 401 for a
// wrong token; seed (ids of everything named, fixed ids, idempotent, transactional),
// reset, outbox, tokens for CI, and the sandbox clock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const OPERATOR_ROUTES: InjectOptions[] = [
  { method: 'POST', url: '/_operator/seed', payload: { users: [{ email: 'ghost@acme.test' }] } },
  { method: 'POST', url: '/_operator/reset' },
  { method: 'GET', url: '/_operator/outbox' },
  { method: 'POST', url: '/_operator/tokens', payload: { email: 'olivia@acme.test' } },
  { method: 'GET', url: '/_operator/clock' },
  { method: 'POST', url: '/_operator/clock', payload: { advanceSeconds: 60 } },
  { method: 'GET', url: '/_operator' },
  { method: 'GET', url: '/_operator/unknown' },
];

const FIXED = {
  olivia: '0b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d01',
  acme: '0b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d02',
  pro: '0b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d03',
};

/** The seed file re-applied by reset: fixed ids, so the same objects come back. */
const FILE_SEED = {
  users: [{ id: FIXED.olivia, email: 'olivia@acme.test', password: 'olivia-password-1', firstName: 'Olivia' }],
  accounts: [{ id: FIXED.acme, name: 'Acme', owner: 'olivia@acme.test', subscriptions: [{ id: FIXED.pro, name: 'Pro' }] }],
};

let t: TestApp; // OPERATOR_TOKEN, SANDBOX=1, SEED_FILE
let tmp: string;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-operator-'));
  const seedFile = path.join(tmp, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(FILE_SEED));
  t = await testApp({ SEED_FILE: seedFile });
});
after(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const op = (o: InjectOptions) => t.app.inject({ ...o, headers: { ...OP, ...(o.headers ?? {}) } });

/** Users, accounts, members and subscriptions as stored, for before/after comparisons. */
async function snapshot(app: TestApp, emails: string[], accountNames: string[]) {
  const repos = app.core.store.repos;
  const users = await Promise.all(emails.map((e) => repos.users.byEmail(e)));
  const accounts = await Promise.all(accountNames.map((n) => repos.accounts.byName(n)));
  const details = await Promise.all(
    accounts.map(async (a) => ({
      members: a ? await repos.accounts.members(a.id) : null,
      subscriptions: a ? await repos.subscriptions.listByAccount(a.id) : null,
      roles: a ? await repos.roles.listByAccount(a.id) : null,
    })),
  );
  return { users, accounts, details };
}

// ---- access -------------------------------------------------------------------

test('without OPERATOR_TOKEN every /_operator path answers 404, token or not, and does nothing', async () => {
  const closed = await testApp({ OPERATOR_TOKEN: '' });
  try {
    for (const route of OPERATOR_ROUTES) {
      for (const headers of [{}, OP, { authorization: 'Bearer anything-at-all' }]) {
        const res = await closed.app.inject({ ...route, headers });
        assert.equal(res.statusCode, 404, `${route.method} ${route.url}`);
        assert.equal(res.json().errorCode, 'route-not-found');
      }
    }
    assert.equal(await closed.core.store.repos.users.byEmail('ghost@acme.test'), null);
  } finally {
    await closed.close();
  }
});

test('a missing or wrong operator token answers 401 and does nothing', async () => {
  const wrong = [
    undefined,
    'Bearer',
    'Bearer wrong-token-value',
    `Bearer ${OPERATOR_TOKEN.toUpperCase()}`,
    `Bearer ${OPERATOR_TOKEN}x`,
    `Bearer ${OPERATOR_TOKEN.slice(0, -1)}`,
    `Basic ${Buffer.from(`operator:${OPERATOR_TOKEN}`).toString('base64')}`,
    OPERATOR_TOKEN,
  ];
  // Each from its own address: failures are throttled per address (security-secrets.test.ts).
  let n = 0;
  for (const route of OPERATOR_ROUTES.slice(0, 6)) {
    for (const authorization of wrong) {
      const remoteAddress = `198.51.100.${++n}`;
      const res = await t.app.inject({ ...route, remoteAddress, headers: authorization ? { authorization } : {} });
      assert.equal(res.statusCode, 401, `${route.method} ${route.url} with ${authorization}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.json().errorCode, 'unauthorized');
    }
  }
  assert.equal(await t.core.store.repos.users.byEmail('ghost@acme.test'), null);
});

test('a user access token is not an operator token', async () => {
  await t.seed(BASIC_SEED);
  const { access_token } = await t.tokens('olivia@acme.test');
  const res = await t.app.inject({ method: 'GET', url: '/_operator/outbox', headers: { authorization: `Bearer ${access_token}` } });
  assert.equal(res.statusCode, 401);
});

// ---- seed ---------------------------------------------------------------------

test('seed answers 200 with the ids of every user, account and subscription it names', async () => {
  const doc = {
    users: [
      { email: 'una@seed.test', firstName: 'Una' },
      { email: 'vic@seed.test', password: 'vic-password-1' },
    ],
    accounts: [
      {
        name: 'Seedco',
        owner: 'una@seed.test',
        administrators: ['vic@seed.test'],
        subscriptions: [{ name: 'Basic' }, { name: 'Trial', isTrial: true, end: '2027-01-01T00:00:00Z' }],
      },
    ],
  };
  const res = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  const repos = t.core.store.repos;

  assert.deepEqual(body.users.map((u: { email: string }) => u.email), ['una@seed.test', 'vic@seed.test']);
  for (const u of body.users) assert.equal((await repos.users.byEmail(u.email))!.id, u.id);

  assert.equal(body.accounts.length, 1);
  const [account] = body.accounts;
  assert.equal(account.name, 'Seedco');
  const stored = await repos.accounts.byId(account.id);
  assert.equal(stored!.name, 'Seedco');
  assert.equal(stored!.ownerId, body.users[0].id);

  assert.deepEqual(account.subscriptions.map((s: { name: string }) => s.name), ['Basic', 'Trial']);
  const subs = await repos.subscriptions.listByAccount(account.id);
  assert.deepEqual(new Set(subs.map((s) => s.id)), new Set(account.subscriptions.map((s: { id: string }) => s.id)));
  const trial = subs.find((s) => s.name === 'Trial')!;
  assert.equal(trial.isTrial, true);
  assert.equal(trial.end!.toISOString(), '2027-01-01T00:00:00.000Z');

  const vic = await repos.accounts.member(account.id, body.users[1].id);
  assert.deepEqual(vic!.roles, ['administrator']);
});

test('fixed ids are honoured, in any letter case, and re-applying them changes nothing', async () => {
  const upper = (id: string) => id.toUpperCase();
  const doc = {
    users: [{ id: upper('1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d11'), email: 'fixed@seed.test' }],
    accounts: [
      {
        id: '1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d12',
        name: 'Fixed Co',
        owner: 'fixed@seed.test',
        subscriptions: [{ id: upper('1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d13'), name: 'Fixed plan' }],
      },
    ],
  };
  const first = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(first.statusCode, 200, first.body);
  assert.deepEqual(first.json().users, [{ email: 'fixed@seed.test', id: '1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d11' }]);
  assert.equal(first.json().accounts[0].id, '1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d12');
  assert.equal(first.json().accounts[0].subscriptions[0].id, '1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d13');
  assert.equal((await t.core.store.repos.users.byId('1b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d11'))!.email, 'fixed@seed.test');

  const again = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(again.statusCode, 200, again.body);
  assert.deepEqual(again.json(), first.json());
});

test('fixed role and group ids are honoured in any letter case, and re-applying them changes nothing', async () => {
  const roleId = '3b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d31';
  const groupId = '3b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d32';
  const doc = {
    users: [{ email: 'roles-owner@seed.test' }],
    accounts: [
      {
        name: 'Roles Co',
        owner: 'roles-owner@seed.test',
        roles: [{ id: roleId.toUpperCase(), name: 'Surveyor', legacyPermissions: ['view3d', 'upload'] }],
        groups: [{ id: groupId.toUpperCase(), name: 'Field team', users: ['roles-owner@seed.test'] }],
      },
    ],
  };
  const first = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(first.statusCode, 200, first.body);
  assert.deepEqual(first.json().accounts[0].roles, [{ name: 'Surveyor', id: roleId }]);
  assert.equal(first.json().accounts[0].groups[0].id, groupId);
  const again = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(again.statusCode, 200, again.body);
  assert.deepEqual(again.json(), first.json());
});

test('seed is idempotent: applying the same document twice changes no row, updatedAt included', async () => {
  const doc = {
    users: [
      { email: 'idem-owner@seed.test', password: 'idem-password-1', firstName: 'Ida', lastName: 'Owner', company: 'Idem', title: 'CEO' },
      { email: 'idem-pm@seed.test', firstName: 'Pat' },
      { email: 'idem-member@seed.test' },
    ],
    accounts: [
      {
        name: 'Idempotent',
        owner: 'idem-owner@seed.test',
        projectManagers: ['idem-pm@seed.test'],
        projectListers: ['idem-pm@seed.test'],
        members: ['idem-member@seed.test'],
        subscriptions: [
          { name: 'Pro', scanCapacity: 7, tagCapacity: 8, geoImageCapacity: 9, start: '2026-01-01T00:00:00Z', end: '2027-01-01T00:00:00+02:00' },
          { name: 'Free', isActive: false },
        ],
      },
    ],
  };
  const emails = doc.users.map((u) => u.email);
  const first = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(first.statusCode, 200, first.body);
  const before = await snapshot(t, emails, ['Idempotent']);
  await new Promise((r) => setTimeout(r, 5)); // any rewrite would get a later updatedAt

  const second = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(second.statusCode, 200, second.body);
  assert.deepEqual(second.json(), first.json());
  assert.deepEqual(await snapshot(t, emails, ['Idempotent']), before);

  // The comparison does see a change: a new first name rewrites that user only.
  const changed = structuredClone(doc);
  changed.users[1]!.firstName = 'Patricia';
  assert.equal((await op({ method: 'POST', url: '/_operator/seed', payload: changed })).statusCode, 200);
  const after = await snapshot(t, emails, ['Idempotent']);
  assert.equal(after.users[1]!.firstName, 'Patricia');
  assert.ok(after.users[1]!.updatedAt.getTime() > before.users[1]!.updatedAt.getTime());
  assert.deepEqual(after.users[0], before.users[0]);
  assert.deepEqual(after.accounts, before.accounts);
  assert.deepEqual(after.details, before.details);
});

test('an unknown owner e-mail answers 404 user-email-not-found and writes nothing', async () => {
  const doc = {
    users: [{ email: 'rolled-back@seed.test', password: 'rolled-back-1' }],
    accounts: [
      { name: 'Good Co', owner: 'rolled-back@seed.test', subscriptions: [{ name: 'Plan' }] },
      { name: 'Ghost Co', owner: 'ghost@seed.test' },
    ],
  };
  const res = await op({ method: 'POST', url: '/_operator/seed', payload: doc });
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(res.json().errorCode, 'user-email-not-found');
  assert.equal(res.json().errorValues.email, 'ghost@seed.test');
  const repos = t.core.store.repos;
  assert.equal(await repos.users.byEmail('rolled-back@seed.test'), null);
  assert.equal(await repos.accounts.byName('Good Co'), null);
  assert.equal(await repos.accounts.byName('Ghost Co'), null);
});

test('an unknown member e-mail answers 404 user-email-not-found and writes nothing', async () => {
  const res = await op({
    method: 'POST',
    url: '/_operator/seed',
    payload: { accounts: [{ name: 'Lonely Co', owner: 'olivia@acme.test', members: ['nobody@seed.test'] }] },
  });
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(res.json().errorCode, 'user-email-not-found');
  assert.equal(await t.core.store.repos.accounts.byName('Lonely Co'), null);
});

test('the same e-mail twice in one document answers 400 invalid-input', async () => {
  const res = await op({
    method: 'POST',
    url: '/_operator/seed',
    payload: { users: [{ email: 'twice@seed.test' }, { email: 'TWICE@seed.test' }] },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().errorCode, 'invalid-input');
  assert.equal(await t.core.store.repos.users.byEmail('twice@seed.test'), null);
});

test('a fixed id held by another object answers 400 invalid-input instead of reusing it', async () => {
  const id = '2b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d21';
  assert.equal((await op({ method: 'POST', url: '/_operator/seed', payload: { users: [{ id, email: 'holder@seed.test' }] } })).statusCode, 200);

  // Another e-mail with the holder's id.
  const other = await op({ method: 'POST', url: '/_operator/seed', payload: { users: [{ id, email: 'intruder@seed.test' }] } });
  assert.equal(other.statusCode, 400, other.body);
  assert.equal(await t.core.store.repos.users.byEmail('intruder@seed.test'), null);

  // The holder's e-mail with another id.
  const moved = await op({
    method: 'POST',
    url: '/_operator/seed',
    payload: { users: [{ id: '2b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d22', email: 'holder@seed.test' }] },
  });
  assert.equal(moved.statusCode, 400, moved.body);

  // An account name already held by an account with another id.
  const a1 = '2b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d23';
  const a2 = '2b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d24';
  assert.equal(
    (await op({ method: 'POST', url: '/_operator/seed', payload: { accounts: [{ id: a1, name: 'Named', owner: 'holder@seed.test' }] } })).statusCode,
    200,
  );
  const clash = await op({ method: 'POST', url: '/_operator/seed', payload: { accounts: [{ id: a2, name: 'Named', owner: 'holder@seed.test' }] } });
  assert.equal(clash.statusCode, 400, clash.body);
  assert.equal(await t.core.store.repos.accounts.byId(a2), null);
});

// ---- outbox -------------------------------------------------------------------

test('the outbox lists sent e-mails newest first as {to, subject, text, links, sentAt}', async () => {
  const mail = (n: number) => ({
    to: `reader${n}@mail.test`,
    subject: `Subject ${n}`,
    text: `Body ${n}`,
    links: [`http://localhost:8080/link/${n}`],
  });
  // Three in one transaction (same millisecond), then one more.
  await t.core.store.transaction(async (repos) => {
    for (const n of [1, 2, 3]) await t.core.sendMail(repos, mail(n));
  });
  await t.core.store.transaction((repos) => t.core.sendMail(repos, mail(4)));
  // A rolled-back transaction sends nothing.
  await assert.rejects(
    t.core.store.transaction(async (repos) => {
      await t.core.sendMail(repos, mail(99));
      throw new Error('roll back');
    }),
    /roll back/,
  );

  const res = await op({ method: 'GET', url: '/_operator/outbox' });
  assert.equal(res.statusCode, 200);
  const outbox = res.json() as { to: string; subject: string; text: string; links: string[]; sentAt: string }[];
  const ours = outbox.filter((m) => m.to.endsWith('@mail.test'));
  assert.deepEqual(ours.map((m) => m.to), ['reader4@mail.test', 'reader3@mail.test', 'reader2@mail.test', 'reader1@mail.test']);
  for (const m of ours) {
    assert.deepEqual(Object.keys(m).sort(), ['links', 'sentAt', 'subject', 'text', 'to']);
    const n = m.to.match(/\d+/)![0];
    assert.equal(m.subject, `Subject ${n}`);
    assert.equal(m.text, `Body ${n}`);
    assert.deepEqual(m.links, [`http://localhost:8080/link/${n}`]);
    assert.match(m.sentAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  const times = outbox.map((m) => Date.parse(m.sentAt));
  assert.deepEqual(times, [...times].sort((a, b) => b - a), 'sentAt never increases down the list');
});

// ---- tokens -------------------------------------------------------------------

test('tokens answers the token endpoint JSON for a user, and the access token works', async () => {
  await t.seed(BASIC_SEED);
  const res = await op({ method: 'POST', url: '/_operator/tokens', payload: { email: 'OLIVIA@acme.test' } });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'token_type', 'user_id']);
  assert.equal(body.token_type, 'Bearer');
  assert.equal(body.expires_in, 10800);
  const olivia = await t.core.store.repos.users.byEmail('olivia@acme.test');
  assert.equal(body.user_id, `urn:svc:user:${olivia!.id}`);
  const ok = await t.app.inject({ url: '/api/isLogged', headers: { authorization: `Bearer ${body.access_token}` } });
  assert.equal(ok.statusCode, 200);
  // The refresh token is a real one.
  const refreshed = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'refresh_token', refresh_token: body.refresh_token },
  });
  assert.equal(refreshed.statusCode, 200, refreshed.body);
});

test('tokens for an unknown e-mail answers 404 user-email-not-found; a malformed one 400', async () => {
  const res = await op({ method: 'POST', url: '/_operator/tokens', payload: { email: 'nobody@acme.test' } });
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().errorCode, 'user-email-not-found');
  for (const payload of [{}, { email: 'not-an-email' }, { email: 'olivia@acme.test', extra: 1 }]) {
    const bad = await op({ method: 'POST', url: '/_operator/tokens', payload });
    assert.equal(bad.statusCode, 400, JSON.stringify(payload));
    assert.equal(bad.json().errorCode, 'invalid-input');
  }
});

// ---- clock --------------------------------------------------------------------

test('the clock answers {now, offsetSeconds} and advancing moves core.clock forward', async () => {
  const before = await op({ method: 'GET', url: '/_operator/clock' });
  assert.equal(before.statusCode, 200);
  const b = before.json();
  assert.deepEqual(Object.keys(b).sort(), ['now', 'offsetSeconds']);
  assert.equal(typeof b.offsetSeconds, 'number');
  assert.ok(Math.abs(Date.parse(b.now) - (Date.now() + b.offsetSeconds * 1000)) < 5000);

  const res = await op({ method: 'POST', url: '/_operator/clock', payload: { advanceSeconds: 3600 } });
  assert.equal(res.statusCode, 200, res.body);
  const a = res.json();
  assert.equal(a.offsetSeconds, b.offsetSeconds + 3600);
  assert.equal(t.core.clock.offsetMs, a.offsetSeconds * 1000);
  const drift = t.core.clock.now().getTime() - (Date.now() + a.offsetSeconds * 1000);
  assert.ok(Math.abs(drift) < 1000, `core.clock is the system time plus the offset (${drift} ms)`);
  assert.deepEqual((await op({ method: 'GET', url: '/_operator/clock' })).json().offsetSeconds, a.offsetSeconds);
});

test('the clock moves back by a negative advance or to an instant; a bad body answers 400 and changes nothing', async () => {
  const { offsetSeconds } = (await op({ method: 'GET', url: '/_operator/clock' })).json();
  const back = await op({ method: 'POST', url: '/_operator/clock', payload: { advanceSeconds: -86400 } });
  assert.equal(back.statusCode, 200, back.body);
  assert.equal(back.json().offsetSeconds, offsetSeconds - 86400);
  assert.ok(Math.abs(t.core.clock.nowMs() - (Date.now() + (offsetSeconds - 86400) * 1000)) < 1000);
  const to = await op({ method: 'POST', url: '/_operator/clock', payload: { to: '2020-02-29T12:00:00Z' } });
  assert.equal(to.statusCode, 200, to.body);
  assert.ok(Math.abs(Date.parse(to.json().now) - Date.parse('2020-02-29T12:00:00Z')) < 1000, to.body);
  const restored = await op({ method: 'POST', url: '/_operator/clock', payload: { advanceSeconds: offsetSeconds - to.json().offsetSeconds } });
  assert.equal(restored.json().offsetSeconds, offsetSeconds);
  for (const payload of [{}, { advanceSeconds: 'soon' }, { advanceSeconds: 1, back: true }, { offsetSeconds: 0 }, { to: 'yesterday' },
    { to: '1969-07-20T20:17:00Z' }, { advanceSeconds: 1, to: '2020-01-01T00:00:00Z' }]) {
    const res = await op({ method: 'POST', url: '/_operator/clock', payload });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.equal(res.json().errorCode, 'invalid-input');
  }
  assert.equal((await op({ method: 'GET', url: '/_operator/clock' })).json().offsetSeconds, offsetSeconds);
});

test('concurrent clock advances all count (each reads and writes the shared offset under a lock)', async () => {
  const before = (await t.app.inject({ method: 'GET', url: '/_operator/clock', headers: OP })).json().offsetSeconds;
  const results = await Promise.all(
    Array.from({ length: 8 }, () => t.app.inject({ method: 'POST', url: '/_operator/clock', headers: OP, payload: { advanceSeconds: 60 } })),
  );
  for (const r of results) assert.equal(r.statusCode, 200, r.body);
  const after = (await t.app.inject({ method: 'GET', url: '/_operator/clock', headers: OP })).json().offsetSeconds;
  assert.equal(after - before, 8 * 60);
});

test('the clock refuses to move past the year 9999 (dates would stop being valid)', async () => {
  const { offsetSeconds } = (await op({ method: 'GET', url: '/_operator/clock' })).json();
  const century = 100 * 365 * 24 * 3600;
  let refused = false;
  for (let i = 0; i < 90 && !refused; i++) {
    const res = await op({ method: 'POST', url: '/_operator/clock', payload: { advanceSeconds: century } });
    if (res.statusCode === 400) refused = true;
    else assert.equal(res.statusCode, 200);
  }
  assert.ok(refused, 'refused before year 10000');
  assert.ok(t.core.clock.now().getUTCFullYear() <= 9999);
  assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
  assert.equal((await op({ method: 'POST', url: '/_operator/seed', payload: BASIC_SEED })).statusCode, 200);
  assert.ok((await op({ method: 'GET', url: '/_operator/clock' })).json().offsetSeconds > offsetSeconds);
});

test('the clock answers 404 without SANDBOX, even with the operator token', async () => {
  const plain = await testApp({ SANDBOX: '0' });
  try {
    for (const route of [
      { method: 'GET' as const, url: '/_operator/clock' },
      { method: 'POST' as const, url: '/_operator/clock', payload: { advanceSeconds: 60 } },
    ]) {
      const res = await plain.app.inject({ ...route, headers: OP });
      assert.equal(res.statusCode, 404, `${route.method} ${route.url}`);
      assert.equal(res.json().errorCode, 'route-not-found');
    }
    assert.equal(plain.core.clock.offsetMs, 0);
    // The rest of the operator surface works there.
    assert.equal((await plain.app.inject({ method: 'GET', url: '/_operator/outbox', headers: OP })).statusCode, 200);
    // Reset without SEED_FILE seeds nothing.
    const reset = await plain.app.inject({ method: 'POST', url: '/_operator/reset', headers: OP });
    assert.equal(reset.statusCode, 200);
    assert.deepEqual(reset.json(), { seeded: null });
  } finally {
    await plain.close();
  }
});

// ---- reset (last: it empties the database) -----------------------------------------

test('reset deletes all data, keeps the signing keys and the clock, and re-applies SEED_FILE', async () => {
  const repos = t.core.store.repos;
  await t.seed(BASIC_SEED);
  assert.ok(await repos.users.byEmail('mark@acme.test'));
  await t.core.store.transaction((r) => t.core.sendMail(r, { to: 'x@mail.test', subject: 's', text: 't', links: [] }));
  const jwksBefore = (await t.app.inject({ url: '/oauth/jwks' })).json();
  const clockBefore = (await op({ method: 'GET', url: '/_operator/clock' })).json().offsetSeconds;

  const res = await op({ method: 'POST', url: '/_operator/reset' });
  assert.equal(res.statusCode, 200, res.body);
  const { seeded } = res.json();
  assert.deepEqual(seeded.users, [{ email: 'olivia@acme.test', id: FIXED.olivia }]);
  assert.equal(seeded.accounts[0].id, FIXED.acme);
  assert.deepEqual(seeded.accounts[0].subscriptions, [{ name: 'Pro', id: FIXED.pro }]);

  // Data gone, except what SEED_FILE names.
  assert.equal(await repos.users.byEmail('mark@acme.test'), null);
  assert.equal(await repos.users.byEmail('una@seed.test'), null);
  assert.equal(await repos.accounts.byName('Seedco'), null);
  assert.deepEqual((await op({ method: 'GET', url: '/_operator/outbox' })).json(), []);
  assert.equal((await repos.users.byEmail('olivia@acme.test'))!.id, FIXED.olivia);
  assert.equal((await repos.accounts.byId(FIXED.acme))!.name, 'Acme');

  // Signing keys and the clock stay.
  assert.deepEqual((await t.app.inject({ url: '/oauth/jwks' })).json(), jwksBefore);
  assert.equal((await op({ method: 'GET', url: '/_operator/clock' })).json().offsetSeconds, clockBefore);

  // The re-seeded user signs in through the operator again.
  const tokens = await t.tokens('olivia@acme.test');
  assert.equal(tokens.user_id, `urn:svc:user:${FIXED.olivia}`);

  // A second reset is the same state again.
  const again = await op({ method: 'POST', url: '/_operator/reset' });
  assert.equal(again.statusCode, 200);
  assert.deepEqual(again.json().seeded, seeded);
});
