// Secrets and keys (docs/security.md): invitation tokens neither in the request log nor
// usable in the outbox, sign-in throttling that cannot lock the owner out, the operator
// token throttled per address, and signing-key rotation.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, loggedPath, type App } from '../../src/http/app.ts';
import { accountDelayMs, THROTTLE } from '../../src/modules/users/core/sign-in.ts';
import { OPERATOR_THROTTLE } from '../../src/modules/operator/core/operator-auth.ts';
import { ACCESS_TOKEN_SECONDS } from '../../src/modules/oauth/core/token-service.ts';
import { SIGNING_KEY_RELOAD_SECONDS } from '../../src/core/ports/crypto.ts';
import { BASIC_SEED, OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import { migratedDatabase, type TestDatabase } from '../support/database.ts';
import {
  UserAgent, authorizePath, header, hiddenFieldsOf, injectTransport, type Transport,
} from '../support/oauth-client.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const OLIVIA = BASIC_SEED.users[0]!;
const REDIRECT = 'http://localhost:7777/cb';

interface Mail {
  to: string;
  text: string;
  links: string[];
}

/** One service (operator API on, behind one trusted proxy) and one without the operator API, on one database. */
interface Service {
  app: App;
  core: Core;
}
let db: TestDatabase;
let t: Service; // OPERATOR_TOKEN, SANDBOX=1, TRUST_PROXY=1
let closed: Service; // no OPERATOR_TOKEN
let accountId: string;
const logLines: string[] = [];

before(async () => {
  db = await migratedDatabase();
  const env = { DATABASE_URL: 'memory:', SANDBOX: '1', PUBLIC_URL, TRUST_PROXY: '1' };
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const core = await compose(loadConfig({ ...env, OPERATOR_TOKEN }), { sql: db.sql });
  t = { core, app: await buildApp(core, { logger: { level: 'info', stream } }) };
  const other = await compose(loadConfig(env), { sql: db.sql });
  closed = { core: other, app: await buildApp(other) };
  accountId = (await t.core.applySeed(BASIC_SEED)).accounts[0]!.id;
});
after(async () => {
  for (const s of [t, closed]) {
    await s?.app.close();
    await s?.core.close();
  }
  await db?.drop();
});

const tokensOf = async (s: Service, email: string) =>
  s.core.tokens.issueForUser((await s.core.store.repos.users.byEmail(email))!.id);

/** Invites `to` into the account as Olivia. */
async function invite(s: Service, to: string): Promise<void> {
  const { access_token } = await tokensOf(s, OLIVIA.email);
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/2/accounts/${accountId}/users/bulk-invite`,
    headers: { authorization: `Bearer ${access_token}` },
    payload: [{ email: to }],
  });
  assert.equal(res.statusCode, 201, res.body);
}

/** Accepts an invitation through its link's page (sets a password). */
async function accept(s: Service, link: string): Promise<void> {
  const accepted = await s.app.inject({
    method: 'POST',
    url: new URL(link).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ password: 'a-good-password', confirm: 'a-good-password' }).toString(),
  });
  assert.equal(accepted.statusCode, 200, accepted.body);
}

/** The outbox rows as stored (not through the operator API). */
async function storedMailsTo(s: Service, to: string): Promise<Mail[]> {
  return (await s.core.store.repos.outbox.list(1000)).filter((m) => m.to === to);
}

describe('invitation tokens: the request log', () => {
  test('the request log redacts the token of /invitations/{token} (every method), and keeps other paths', async () => {
    const token = 'SecretInvitationToken_0123456789abcdef';
    const from = logLines.length;
    await t.app.inject({ url: `/invitations/${token}` });
    await t.app.inject({ method: 'POST', url: `/invitations/${token}?x=1`, payload: 'password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await t.app.inject({ url: '/healthz' });
    const lines = logLines.slice(from);
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    assert.deepEqual(requests.map((r) => r.path), ['/invitations/[redacted]', '/invitations/[redacted]', '/healthz']);
    assert.ok(!lines.join('\n').includes(token), 'the token is nowhere in the log');
  });

  test('loggedPath drops the query and redacts only the invitation segment', () => {
    assert.equal(loggedPath('/invitations/abc/def?code=1'), '/invitations/[redacted]/def');
    assert.equal(loggedPath('/api/2/accounts/invitations/abc'), '/api/2/accounts/invitations/abc');
    assert.equal(loggedPath('/oauth/authorize?code=secret'), '/oauth/authorize');
  });
});

describe('invitation tokens: the outbox', () => {
  test('with neither the operator API nor a mail transport, the outbox is the mailbox (`npm run admin -- outbox`): the link is kept until the invitation is accepted, then redacted', async () => {
    const to = 'admin-reads@outbox.test';
    await invite(closed, to);
    const [mail] = await storedMailsTo(closed, to);
    assert.ok(mail);
    const link = mail.links[0]!;
    assert.match(link, new RegExp(`^${PUBLIC_URL}/invitations/[A-Za-z0-9_-]{20,}$`), 'whole: nothing else delivers it');
    await accept(closed, link);
    const [after] = await storedMailsTo(closed, to);
    assert.deepEqual(after!.links, [`${PUBLIC_URL}/invitations/[redacted]`]);
    assert.ok(!/\/invitations\/(?!\[redacted\])/.test(after!.text), 'no usable link in the row once spent');
  });

  test('with the operator API on, the outbox shows the link until the invitation is accepted, then the stored copy is redacted', async () => {
    const to = 'reads-outbox@outbox.test';
    await invite(t, to);
      const shown = ((await t.app.inject({ url: '/_operator/outbox', headers: OP })).json() as Mail[]).find((m) => m.to === to)!;
      const link = shown.links[0]!;
      assert.match(link, new RegExp(`^${PUBLIC_URL}/invitations/[A-Za-z0-9_-]{20,}$`));
      assert.ok(shown.text.includes(link));
      const token = link.split('/').at(-1)!;

      await accept(t, link);

      const after = ((await t.app.inject({ url: '/_operator/outbox', headers: OP })).json() as Mail[]).find((m) => m.to === to)!;
      assert.deepEqual(after.links, [`${PUBLIC_URL}/invitations/[redacted]`]);
      assert.ok(!after.text.includes(token) && after.text.includes('/invitations/[redacted]'), after.text);
  });
});

/** A transport whose requests come from `address` through the one trusted proxy (TRUST_PROXY=1). */
const from = (base: Transport, address: string): Transport => (req) =>
  base({ ...req, headers: { ...req.headers, 'x-forwarded-for': address } });

async function loginForm(agent: UserAgent): Promise<Record<string, string>> {
  return hiddenFieldsOf((await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'throttle' }))).body);
}

describe('sign-in throttling cannot lock the owner out', () => {
  let http: Transport;
  before(async () => {
    await t.core.applySeed({
      users: [
        { email: 'owner@throttle.test', password: 'owner-password-1' },
        { email: 'spread@throttle.test', password: 'spread-password-1' },
      ],
    });
    http = injectTransport(t.app);
  });

  test('5 wrong passwords from one address lock that address for the account (429), not the owner at another address', async () => {
    const attacker = new UserAgent(from(http, '203.0.113.66'));
    const fields = await loginForm(attacker);
    for (let i = 0; i < THROTTLE.maxFailuresPerAccountAndAddress; i++) {
      const res = await attacker.postForm('/oauth/login', { ...fields, email: 'owner@throttle.test', password: `wrong-${i}` });
      assert.equal(res.status, 401, `attempt ${i + 1}`);
    }
    const locked = await attacker.postForm('/oauth/login', { ...fields, email: 'owner@throttle.test', password: 'owner-password-1' });
    assert.equal(locked.status, 429, 'the failing address is refused, right password or not');
    assert.ok(Number(header(locked, 'retry-after')) > 0);

    const owner = new UserAgent(from(http, '198.51.100.10'));
    const ownerFields = await loginForm(owner);
    const res = await owner.postForm('/oauth/login', { ...ownerFields, email: 'owner@throttle.test', password: 'owner-password-1' });
    assert.equal(res.status, 303, res.body);
    assert.match(header(res, 'location') ?? '', /^\/oauth\/authorize\?/);
  });

  test('failures for one account from many addresses slow its sign-ins down but never refuse a right password from a clean address', async () => {
    const failures = THROTTLE.freeFailuresPerAccount + 2;
    for (let i = 0; i < failures; i++) {
      const agent = new UserAgent(from(http, `203.0.113.${i + 1}`));
      const res = await agent.postForm('/oauth/login', { ...(await loginForm(agent)), email: 'spread@throttle.test', password: `wrong-${i}` });
      assert.equal(res.status, 401, `attempt ${i + 1} from its own address`);
    }
    const owner = new UserAgent(from(http, '198.51.100.20'));
    const fields = await loginForm(owner);
    const started = performance.now();
    const res = await owner.postForm('/oauth/login', { ...fields, email: 'spread@throttle.test', password: 'spread-password-1' });
    const waited = performance.now() - started;
    assert.equal(res.status, 303, res.body);
    assert.ok(waited >= accountDelayMs(failures) - 50, `slowed down by the delay (${Math.round(waited)} ms)`);
  });

  test('the per-account delay: none for the first 5 failures, then 250 ms doubling up to 8 s', () => {
    assert.deepEqual([0, 5, 6, 7, 8, 10, 11, 100].map(accountDelayMs), [0, 0, 250, 500, 1000, 4000, 8000, 8000]);
  });
});

describe('the operator token', () => {
  const outbox = (address: string, token: string) =>
    t.app.inject({ url: '/_operator/outbox', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address } });

  test('wrong operator tokens are throttled per address: after 10 failures the address gets 429 with Retry-After even with the right token; another address still gets in', async () => {
    for (let i = 0; i < OPERATOR_THROTTLE.maxFailuresPerAddress; i++) {
      const res = await outbox('203.0.113.9', `wrong-operator-token-guess-${i}`);
      assert.equal(res.statusCode, 401, `guess ${i + 1}`);
    }
    const locked = await outbox('203.0.113.9', OPERATOR_TOKEN);
    assert.equal(locked.statusCode, 429);
    assert.match(String(locked.headers['content-type']), /^application\/problem\+json/);
    assert.equal(locked.json().errorCode, 'too-many-operator-attempts');
    const retryAfter = Number(locked.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= OPERATOR_THROTTLE.lockSeconds, String(retryAfter));

    assert.equal((await outbox('198.51.100.9', OPERATOR_TOKEN)).statusCode, 200, 'another address is not locked');
  });

  test('the operator token must have at least 24 characters', () => {
    assert.throws(() => loadConfig({ OPERATOR_TOKEN: 'x'.repeat(23) }), /OPERATOR_TOKEN.*24/);
  });
});

// Last: it moves the service clock forward by hours.
describe('signing-key rotation', () => {
  const tokens = async (email: string) => tokensOf(t, email);
  const jwksKids = async () =>
    ((await t.app.inject({ url: '/oauth/jwks' })).json() as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort();
  const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()).kid as string;
  const accepted = async (token: string) =>
    (await t.app.inject({ url: '/api/2/accounts', headers: { authorization: `Bearer ${token}` } })).statusCode;
  const advance = (seconds: number) =>
    t.app.inject({ method: 'POST', url: '/_operator/clock', headers: OP, payload: { advanceSeconds: seconds } });

  test('rotation adds a key to the JWKS and signs with it; tokens of the old key work until they expire; the old key leaves the JWKS after the longest access-token lifetime', async () => {
    const first = await tokens(OLIVIA.email);
    const oldKid = kidOf(first.access_token);
    assert.deepEqual(await jwksKids(), [oldKid]);

    const rotated = await t.app.inject({ method: 'POST', url: '/_operator/signing-keys/rotate', headers: OP });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const body = rotated.json() as { kid: string; retiring: { kid: string; retiresAt: string }[] };
    assert.notEqual(body.kid, oldKid);
    assert.equal(body.retiring.length, 1);
    assert.equal(body.retiring[0]!.kid, oldKid);
    const lifetime = Date.parse(body.retiring[0]!.retiresAt) - t.core.clock.nowMs();
    assert.ok(Math.abs(lifetime - (ACCESS_TOKEN_SECONDS + SIGNING_KEY_RELOAD_SECONDS) * 1000) < 5_000, String(lifetime));

    assert.deepEqual(await jwksKids(), [oldKid, body.kid].sort(), 'the JWKS lists both meanwhile');
    const afterRotation = await tokens(OLIVIA.email);
    assert.equal(kidOf(afterRotation.access_token), body.kid, 'new tokens are signed with the new key');
    assert.equal(await accepted(first.access_token), 200, 'a token of the old key still works');
    assert.equal(await accepted(afterRotation.access_token), 200);

    // Just before the old token expires: still accepted, both keys listed.
    assert.equal((await advance(ACCESS_TOKEN_SECONDS - 60)).statusCode, 200);
    assert.equal(await accepted(first.access_token), 200);
    assert.equal((await jwksKids()).length, 2);
    // Past the retirement: the old key is gone from the JWKS; the new key's tokens are refreshed as usual.
    assert.equal((await advance(60 + SIGNING_KEY_RELOAD_SECONDS + 1)).statusCode, 200);
    assert.equal(await accepted(first.access_token), 401);
    assert.deepEqual(await jwksKids(), [body.kid]);
    assert.equal(await accepted((await tokens(OLIVIA.email)).access_token), 200);
  });

  test('a second rotation deletes the keys already retired and retires the current one', async () => {
    const current = (await jwksKids())[0]!;
    const res = await t.app.inject({ method: 'POST', url: '/_operator/signing-keys/rotate', headers: OP });
    assert.equal(res.statusCode, 200);
    const body = res.json() as { kid: string; retiring: { kid: string }[] };
    assert.deepEqual(body.retiring.map((k) => k.kid), [current]);
    assert.deepEqual(await jwksKids(), [current, body.kid].sort());
  });

  test('the rotation endpoint needs the operator token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_operator/signing-keys/rotate', remoteAddress: '192.0.2.1' });
    assert.equal(res.statusCode, 401);
  });
});
