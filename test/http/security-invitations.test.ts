// Invitations leak nothing and are no mail cannon (docs/security.md "Invitations", issue 26
// item 4): inviting a user who is not a member (bulk invite, or adding him to a project by
// e-mail) answers only what the inviter sent (the address, an id, pending), the same for a
// user of another tenant as for an unknown address; nobody joins an account without
// accepting (existing users accept after signing in, on the account page or API 2); the
// mail quotes the inviting side's text without links; a request, an account's day and a
// recipient's day are capped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, PUBLIC_URL, type TestApp } from '../support/app.ts';
import { UserAgent, hiddenFieldsOf, injectTransport } from '../support/oauth-client.ts';
import { caller, type Call } from '../support/projects.ts';

const ACME = 'a7000000-0000-4000-8000-000000000001';
const OTHER = 'a7000000-0000-4000-8000-000000000002';
const THIRD = 'a7000000-0000-4000-8000-000000000003';
const A2 = `/api/2/accounts/${ACME}`;
const LIMITS = { INVITE_MAX_PER_REQUEST: '4', INVITE_MAX_PER_ACCOUNT_DAY: '6', INVITE_MAILS_PER_RECIPIENT_DAY: '2' };

const user = (name: string, extra: Record<string, string> = {}) => ({ email: `${name}@inv.test`, password: `${name}-password-1`, ...extra });
const SEED = {
  users: [
    user('boss', { firstName: 'Visit www.evil.example', lastName: '"now"' }),
    user('pm', { firstName: 'Pat', lastName: 'Manager' }),
    user('victim', { firstName: 'Valerie', lastName: 'Victim', company: 'Secret Corp', title: 'CFO' }),
    user('other-owner'), user('third-owner'),
  ],
  accounts: [
    { id: ACME, name: 'Acme https://evil.example/login\nURGENT', owner: 'boss@inv.test', projectManagers: ['pm@inv.test'], subscriptions: [{ name: 'Pro' }] },
    { id: OTHER, name: 'Other', owner: 'other-owner@inv.test', members: ['victim@inv.test'] },
    { id: THIRD, name: 'Third', owner: 'third-owner@inv.test' },
  ],
};

let t: TestApp;
const as: Record<string, Call> = {};
const ids: Record<string, string> = {};
/** A caller per seeded user, with a fresh token (again after the clock moved past their lifetime). */
async function signInAll() {
  for (const u of SEED.users) {
    const name = u.email.split('@')[0]!;
    as[name] = caller(t, (await t.tokens(u.email)).access_token);
  }
}
before(async () => {
  t = await testApp(LIMITS);
  const seeded = await t.seed(SEED);
  for (const u of seeded.users as { email: string; id: string }[]) ids[u.email.split('@')[0]!] = u.id;
  await signInAll();
});
after(() => t?.close());

async function outbox(): Promise<{ to: string; subject: string; text: string; links: string[] }[]> {
  return (await t.app.inject({ url: '/_operator/outbox', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json();
}
const mailsTo = async (to: string) => (await outbox()).filter((m) => m.to === to);
const advance = (seconds: number) =>
  t.app.inject({ method: 'POST', url: '/_operator/clock', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { advanceSeconds: seconds } });

/** What the answer shows of a user, without what differs between any two users (ids, address). */
const shape = (u: Record<string, unknown>) => {
  const { id: _id, urn: _urn, api1Id: _api1Id, avatar: _avatar, email: _email, invitedAt: _at, ...rest } = u;
  return rest;
};

test('invitations: a user of another tenant is answered only with what the inviter sent (address, id, pending), exactly like an unknown address', async () => {
  const res = await as.boss!('POST', `${A2}/users/bulk-invite`, [{ email: 'VICTIM@inv.test' }, { email: 'nobody-yet@inv.test' }]);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const [victim, fresh] = res.body;
  assert.equal(victim.email, 'VICTIM@inv.test', 'the address as sent, not as stored');
  for (const field of ['firstName', 'lastName', 'company', 'title']) assert.equal(victim[field], '', field);
  assert.equal(victim.pending, true);
  assert.doesNotMatch(JSON.stringify(res.body), /Valerie|Victim|Secret Corp|CFO/);
  assert.deepEqual(shape(victim), shape(fresh), 'nothing tells a known address from an unknown one');

  const listed = (await as.boss!('GET', `${A2}/users`)).body.find((u: any) => u.id === victim.id);
  assert.deepEqual(listed, victim, 'listed as pending, with the same fields');
  assert.deepEqual((await as.boss!('GET', `${A2}/users/${ids.victim}`)).body, victim);
});

test('invitations: nobody joins without accepting; an existing user accepts on the account page after signing in', async () => {
  const victim = as.victim!;
  assert.equal((await victim('GET', A2)).status, 404, 'invited is not a member');
  assert.ok(!(await victim('GET', '/api/2/accounts')).body.some((a: any) => a.id.endsWith(ACME)));
  const [mail] = await mailsTo('victim@inv.test');
  assert.ok(mail, 'one invitation mail');
  assert.deepEqual(mail.links, [`${PUBLIC_URL}/account`], 'to accept on his account page; no set-password link');

  const browser = new UserAgent(injectTransport(t.app));
  const form = await browser.get('/account');
  const signedIn = await browser.postForm('/account/sign-in', { ...hiddenFieldsOf(form.body), email: 'victim@inv.test', password: 'victim-password-1' });
  assert.equal(signedIn.status, 303);
  const page = await browser.get('/account');
  assert.match(page.body, new RegExp(`data-account="${ACME}"`));
  assert.match(page.body, /“Acme https:\/\/evil\.example\/login\nURGENT”/, 'the account\'s own name, escaped, quoted, on the service\'s page');
  const csrf = hiddenFieldsOf(page.body).csrf!;
  assert.equal((await browser.postForm(`/account/invitations/${ACME}/accept`, { csrf: 'forged' })).status, 403);
  assert.equal((await victim('GET', A2)).status, 404);
  const accepted = await browser.postForm(`/account/invitations/${ACME}/accept`, { csrf });
  assert.equal(accepted.status, 200, accepted.body);
  assert.match(accepted.body, /Invitation accepted/);
  assert.equal((await victim('GET', A2)).status, 200, 'a member once accepted');
  assert.equal((await as.boss!('GET', `${A2}/users/${ids.victim}`)).body.firstName, 'Valerie', 'a member shows his own names');
});

test('invitations: inviter-controlled text in the mail is quoted and stripped of links; the only link is the service\'s', async () => {
  const res = await as.boss!('POST', `${A2}/users/bulk-invite`, [{ email: 'quoted@inv.test' }]);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const [mail] = await mailsTo('quoted@inv.test');
  assert.ok(mail);
  assert.doesNotMatch(mail.text, /evil\.example/);
  assert.doesNotMatch(mail.subject, /evil|Acme/);
  assert.match(mail.text, /“Visit \[link removed\] 'now'” invites you to join the account “Acme \[link removed\] URGENT”/);
  assert.equal(mail.links.length, 1);
  assert.ok(mail.links[0]!.startsWith(`${PUBLIC_URL}/invitations/`));
  for (const url of mail.text.match(/\bhttps?:\/\/\S+/g) ?? []) assert.ok(url.startsWith(PUBLIC_URL), url);
});

test('invitations: adding another tenant\'s user to a project by e-mail invites him: his grants wait, and the members list shows only the address', async () => {
  const project = await as.pm!('POST', `${A2}/projects`, { name: 'Site', subscriptionId: (await as.boss!('GET', `${A2}/subscriptions`)).body[0].id });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const P = `${A2}/projects/${project.body.id.split(':').pop()}`;
  const viewer = (await as.boss!('GET', `${A2}/roles`)).body.find((r: any) => r.name === 'Viewer').id;
  const stranger = user('stranger', { firstName: 'Sam', lastName: 'Stranger', company: 'Hidden Ltd' });
  await t.seed({ users: [stranger], accounts: [{ id: THIRD, name: 'Third', owner: 'third-owner@inv.test', members: [stranger.email] }] });
  const sam = caller(t, (await t.tokens(stranger.email)).access_token);
  const added = await as.pm!('POST', `${P}/members`, { members: { users: [{ user: stranger.email, role: viewer }] } });
  assert.equal(added.status, 204, JSON.stringify(added.body));
  assert.equal((await sam('GET', P)).status, 404, 'his grant waits until he accepts');
  const members = (await as.pm!('GET', `${P}/members`)).body;
  assert.doesNotMatch(JSON.stringify(members), /Sam|Stranger|Hidden/);
  assert.ok(members.some((m: any) => m.email === stranger.email));
  assert.equal((await sam('POST', `/api/2/me/invitations/${ACME}/accept`)).status, 204);
  assert.equal((await sam('GET', P)).status, 200, 'the grant holds once he accepted');
  assert.ok((await as.pm!('GET', `${P}/members`)).body.some((m: any) => m.firstName === 'Sam'));
});

test('invitations: declining drops the invitation and its waiting grants; the account may invite again', async () => {
  const otherOwner = as['other-owner']!;
  const res = await otherOwner('POST', `/api/2/accounts/${OTHER}/users/bulk-invite`, [{ email: 'pm@inv.test' }]);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal((await as.pm!('POST', `/api/2/me/invitations/${OTHER}/decline`)).status, 204);
  assert.deepEqual((await as.pm!('GET', '/api/2/me/invitations')).body, []);
  assert.equal((await as.pm!('GET', `/api/2/accounts/${OTHER}`)).status, 404);
  assert.ok(!(await otherOwner('GET', `/api/2/accounts/${OTHER}/users`)).body.some((u: any) => u.email === 'pm@inv.test'));
  assert.equal((await as.pm!('POST', `/api/2/me/invitations/${OTHER}/accept`)).status, 404, 'nothing left to accept');
});

test('invitations: per request at most INVITE_MAX_PER_REQUEST addresses (400, nothing written)', async () => {
  const five = Array.from({ length: 5 }, (_, i) => ({ email: `cap${i}@inv.test` }));
  const res = await as.boss!('POST', `${A2}/users/bulk-invite`, five);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errorCode, 'invalid-input');
  assert.equal(res.body.errorValues.max, 4);
  assert.equal(await t.core.store.repos.users.byEmail('cap0@inv.test'), null, 'nothing written');
});

test('invitations: per account at most INVITE_MAX_PER_ACCOUNT_DAY new invitations a day (429 with Retry-After, nothing written); the next day again', async () => {
  const third = as['third-owner']!;
  const T3 = `/api/2/accounts/${THIRD}/users/bulk-invite`;
  assert.equal((await third('POST', T3, [1, 2, 3, 4].map((i) => ({ email: `day${i}@inv.test` })))).status, 201);
  assert.equal((await third('POST', T3, [{ email: 'day1@inv.test' }])).status, 201, 'inviting again the same address is no new invitation');
  assert.equal((await third('POST', T3, [5, 6].map((i) => ({ email: `day${i}@inv.test` })))).status, 201, 'six in the day');
  const over = await third('POST', T3, [{ email: 'day7@inv.test' }, { email: 'day8@inv.test' }]);
  assert.equal(over.status, 429, JSON.stringify(over.body));
  assert.equal(over.body.errorCode, 'too-many-invitations');
  assert.ok(Number(over.headers['retry-after']) > 23 * 3600);
  assert.equal(await t.core.store.repos.users.byEmail('day7@inv.test'), null, 'nothing written');
  await advance(24 * 3600 + 1);
  await signInAll();
  assert.equal((await as['third-owner']!('POST', T3, [{ email: 'day7@inv.test' }])).status, 201);
});

test('invitations: a recipient gets at most INVITE_MAILS_PER_RECIPIENT_DAY invitation mails a day, from every account together; the invitations stand', async () => {
  const to = 'popular@inv.test';
  assert.equal((await as.boss!('POST', `${A2}/users/bulk-invite`, [{ email: to }])).status, 201);
  assert.equal((await as['other-owner']!('POST', `/api/2/accounts/${OTHER}/users/bulk-invite`, [{ email: to }])).status, 201);
  assert.equal((await as['third-owner']!('POST', `/api/2/accounts/${THIRD}/users/bulk-invite`, [{ email: to }])).status, 201);
  assert.equal((await mailsTo(to)).length, 2, 'the third mail is not sent');
  const users = (await as['third-owner']!('GET', `/api/2/accounts/${THIRD}/users`)).body;
  assert.ok(users.some((u: any) => u.email === to && u.pending), 'the third invitation stands');
});
