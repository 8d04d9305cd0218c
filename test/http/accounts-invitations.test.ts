// The invitation link (spec "Invite users": new platform users receive an invitation to
// set a password), through app.inject(): what the page shows, single use, the 7-day
// expiry on the service clock, and that a link stops working once the user has a
// password. The browser journey is test/e2e/invitation.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, PUBLIC_URL, type TestApp } from '../support/app.ts';
import { injectTransport, obtainTokens } from '../support/oauth-client.ts';
import { ACCOUNT_ID, OTHER_ACCOUNT_ID, WORLD_SEED, email } from '../support/world.ts';

let t: TestApp;
const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };

before(async () => {
  t = await testApp();
  await t.seed(WORLD_SEED);
});
after(() => t.close());

async function inviteTo(accountId: string, inviter: string, to: string): Promise<string> {
  const { access_token } = await t.tokens(email(inviter));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/2/accounts/${accountId}/users/bulk-invite`,
    headers: { authorization: `Bearer ${access_token}` },
    payload: [{ email: to }],
  });
  assert.equal(res.statusCode, 201, res.body);
  const mails = (await t.app.inject({ url: '/_operator/outbox', headers: op })).json() as { to: string; links: string[] }[];
  const mail = mails.find((m) => m.to === to);
  assert.ok(mail, `a mail to ${to}`);
  const link = mail.links[0]!;
  assert.ok(link.startsWith(`${PUBLIC_URL}/invitations/`), link);
  return new URL(link).pathname;
}

const page = (path: string) => t.app.inject({ url: path });
const submit = (path: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

test('the page is HTML for the invited address, escaped, with a form posting to itself, never cached or framed', async () => {
  const to = 'o\'brien+<b>x</b>@new.test';
  const path = await inviteTo(ACCOUNT_ID, 'owner', to);
  const res = await page(path);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.ok(!res.body.includes('<b>x</b>'), 'the address is escaped');
  assert.ok(res.body.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.ok(res.body.includes(`action="${path}"`));
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer', 'the token in the address does not leak through Referer');
});

test('mismatch and short passwords answer 400 with the form; then a good one answers 200 once, and the user signs in', async () => {
  const to = 'paula@new.test';
  const path = await inviteTo(ACCOUNT_ID, 'owner', to);
  const mismatch = await submit(path, { password: 'paula-password-1', confirm: 'paula-password-2' });
  assert.equal(mismatch.statusCode, 400);
  assert.match(mismatch.body, /role="alert"/);
  assert.match(mismatch.body, /id="password"/);
  const short = await submit(path, { password: 'short', confirm: 'short' });
  assert.equal(short.statusCode, 400);
  assert.match(short.body, /role="alert"/);

  const ok = await submit(path, { password: 'paula-password-1', confirm: 'paula-password-1', firstName: 'Paula' });
  assert.equal(ok.statusCode, 200);
  assert.match(ok.body, /Password set/);
  assert.equal((await page(path)).statusCode, 404);
  assert.equal((await submit(path, { password: 'other-password-1', confirm: 'other-password-1' })).statusCode, 404);

  const tokens = await obtainTokens(injectTransport(t.app), to, 'paula-password-1');
  const accounts = await t.app.inject({ url: '/api/2/accounts', headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(accounts.statusCode, 200);
  assert.deepEqual(accounts.json().map((a: { name: string }) => a.name), ['Acme']);
  await assert.rejects(obtainTokens(injectTransport(t.app), to, 'other-password-1'), 'the second post did not change the password');
});

test('unknown, malformed and overlong tokens answer the 404 page (or 400), never 5xx', async () => {
  for (const token of ['nope', 'A'.repeat(129), 'A'.repeat(200), '%00', 'a%2Fb']) {
    const get = await page(`/invitations/${token}`);
    assert.ok([400, 404].includes(get.statusCode), `${token}: ${get.statusCode}`);
    const post = await submit(`/invitations/${token}`, { password: 'whatever-password', confirm: 'whatever-password' });
    assert.ok([400, 404].includes(post.statusCode), `${token}: ${post.statusCode}`);
  }
  assert.equal((await page('/invitations/nope')).statusCode, 404);
});

test('a link stops working once the user has a password, even one set through another invitation', async () => {
  const to = 'quentin@new.test';
  const first = await inviteTo(ACCOUNT_ID, 'owner', to);
  const second = await inviteTo(OTHER_ACCOUNT_ID, 'other-owner', to);
  assert.notEqual(first, second);
  assert.equal((await submit(first, { password: 'quentin-password-1', confirm: 'quentin-password-1' })).statusCode, 200);
  // The other link would otherwise set a new password without the current one.
  assert.equal((await page(second)).statusCode, 404);
  assert.equal((await submit(second, { password: 'hijacked-password-1', confirm: 'hijacked-password-1' })).statusCode, 404);
  const tokens = await obtainTokens(injectTransport(t.app), to, 'quentin-password-1');
  const bearer = { authorization: `Bearer ${tokens.access_token}` };
  const accounts = await t.app.inject({ url: '/api/2/accounts', headers: bearer });
  assert.deepEqual(accounts.json().map((a: { name: string }) => a.name), ['Acme'], 'the link he followed accepted its account\'s invitation');
  // The other account's invitation waits for him; accepting it makes him a member of both.
  const accepted = await t.app.inject({ method: 'POST', url: `/api/2/me/invitations/${OTHER_ACCOUNT_ID}/accept`, headers: bearer });
  assert.equal(accepted.statusCode, 204, accepted.body);
  const both = await t.app.inject({ url: '/api/2/accounts', headers: bearer });
  assert.deepEqual(both.json().map((a: { name: string }) => a.name).sort(), ['Acme', 'Other'], 'a member of both accounts');
});

test('two links of one user submitted at once: exactly one sets the password', async () => {
  const to = 'sam@new.test';
  const first = await inviteTo(ACCOUNT_ID, 'owner', to);
  const second = await inviteTo(OTHER_ACCOUNT_ID, 'other-owner', to);
  const [a, b] = await Promise.all([
    submit(first, { password: 'sam-password-one', confirm: 'sam-password-one' }),
    submit(second, { password: 'sam-password-two', confirm: 'sam-password-two' }),
  ]);
  assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 404]);
  const winner = a.statusCode === 200 ? 'sam-password-one' : 'sam-password-two';
  const loser = a.statusCode === 200 ? 'sam-password-two' : 'sam-password-one';
  await obtainTokens(injectTransport(t.app), to, winner);
  await assert.rejects(obtainTokens(injectTransport(t.app), to, loser));
});

// Last: it moves the service clock forward.
test('a link expires after 7 days on the service clock', async () => {
  const to = 'rita@new.test';
  const path = await inviteTo(ACCOUNT_ID, 'owner', to);
  const advance = (seconds: number) =>
    t.app.inject({ method: 'POST', url: '/_operator/clock', headers: op, payload: { advanceSeconds: seconds } });
  assert.equal((await advance(7 * 24 * 3600 - 60)).statusCode, 200);
  assert.equal((await page(path)).statusCode, 200, 'still valid just before');
  assert.equal((await advance(61)).statusCode, 200);
  assert.equal((await page(path)).statusCode, 404);
  assert.equal((await submit(path, { password: 'rita-password-1', confirm: 'rita-password-1' })).statusCode, 404);
});
