// Real e-mail end to end (docs/operations.md "Mail relay", docs/security.md "Forgot password"):
// a real SMTP server (smtp-server, with AUTH) on an ephemeral port, one started service with
// SMTP_URL and the operator API off, headless Chromium. The invitation and the reset mail
// arrive over SMTP with a working link, followed in the browser to a successful sign-in; an
// unknown address gets the same page and no mail; the forgot-password form is throttled; a
// recipient the SMTP server refuses is retried with back-off, then failed, which shows in
// GET /metrics and in `npm run admin -- outbox`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowser, launchBrowser } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { runAdmin } from '../support/admin.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';
import {
  UserAgent, authorizePath, bearerGet, csrfOf, exchangeCode, fetchTransport, header, hiddenFieldsOf, obtainTokens, pkcePair, randomState,
  type Transport,
} from '../support/oauth-client.ts';

const OWNER = { email: 'olivia@mail-relay.test', password: 'olivia-password-1' };
const INVITEE = 'ivan@mail-relay.test';
const BOUNCING = 'bounce@mail-relay.test';
const ACCOUNT_ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const SMTP_USER = 'relay';
const SMTP_PASSWORD = 'smtp-secret-password-42';
const METRICS_TOKEN = 'mail-relay-metrics-token-0123456789';

interface Received {
  to: string;
  subject: string;
  text: string;
  messageId: string;
}

const received: Received[] = [];
const refusedAttempts: string[] = [];
let smtp: SMTPServer;
let smtpPort: number;
let server: RunningServer;
let http: Transport;
let browser: Browser;
const contexts: BrowserContext[] = [];
let dataDir: string;
let db: { url: string; drop: () => Promise<void> } | undefined;

before(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (address.address === BOUNCING) {
        refusedAttempts.push(address.address);
        cb(Object.assign(new Error('Mailbox unavailable, try again later'), { responseCode: 451 }));
      } else cb();
    },
    onData(stream, _session, cb) {
      simpleParser(stream).then(
        (m) => {
          const to = Array.isArray(m.to) ? m.to[0] : m.to;
          received.push({ to: to?.value[0]?.address ?? '', subject: m.subject ?? '', text: m.text ?? '', messageId: m.messageId ?? '' });
          cb();
        },
        (e: Error) => cb(e),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-mail-'));
  const seedFile = path.join(dataDir, 'seed.json');
  fs.writeFileSync(
    seedFile,
    JSON.stringify({
      users: [{ ...OWNER, firstName: 'Olivia', lastName: 'Owner' }],
      accounts: [{ id: ACCOUNT_ID, name: 'Relay Co', owner: OWNER.email, subscriptions: [{ name: 'Pro' }] }],
    }),
  );
  db = TEST_DATABASE_URL ? await freshPostgresUrl(TEST_DATABASE_URL) : undefined;
  const env: Record<string, string> = {
    // No OPERATOR_TOKEN: mail reaches people only through SMTP.
    SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Scanbase Test <noreply@mail-relay.test>',
    MAIL_RELAY_INTERVAL: '1',
    MAIL_RETRY_SECONDS: '1',
    MAIL_MAX_ATTEMPTS: '3',
    METRICS_TOKEN,
    SEED_FILE: seedFile,
    LOG_LEVEL: 'info',
  };
  if (db) env.DATABASE_URL = db.url;
  const [s, b] = await Promise.allSettled([startServer(env, { dataDir }), launchBrowser()]);
  if (s.status === 'fulfilled') server = s.value;
  if (b.status === 'fulfilled') browser = b.value;
  if (s.status === 'rejected') throw s.reason;
  if (b.status === 'rejected') throw b.reason;
  http = fetchTransport(server.url);
});

after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await closeBrowser(browser);
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const withLogs = (message: string) => `${message}\n--- server log ---\n${server.logs().slice(-6000)}`;

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

/** The mails received for `to`, once `count` of them are there (the relay passes every second). */
async function mailsFor(to: string, count = 1, timeoutMs = 20_000): Promise<Received[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = received.filter((m) => m.to === to);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) assert.fail(withLogs(`no ${count} mail(s) for ${to} within ${timeoutMs} ms (got ${mails.length})`));
    await new Promise((r) => setTimeout(r, 100));
  }
}

const linkIn = (text: string, prefix: string) => {
  const m = new RegExp(`${prefix.replace(/[/.]/g, '\\$&')}/[A-Za-z0-9_-]+`).exec(text);
  assert.ok(m, `a link under ${prefix} in:\n${text}`);
  return m[0];
};

/** Sets a password on a one-time link's page in the browser. */
async function setPasswordInBrowser(link: string, password: string): Promise<void> {
  const page = await newPage();
  assert.equal((await page.goto(link))?.status(), 200);
  await page.fill('#password', password);
  await page.fill('#confirm', password);
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
  assert.equal(answer.status(), 200, withLogs('setting the password'));
  await page.waitForLoadState();
  assert.ok(await page.locator('#done').isVisible());
}

/** Signs in through /oauth/authorize in the browser, presses Allow, exchanges the code: the user's API 2 accounts. */
async function signInInBrowser(email: string, password: string): Promise<{ id: string }[]> {
  const page = await newPage();
  const state = randomState();
  const { verifier, challenge } = pkcePair();
  await page.goto(`${server.url}${authorizePath({ redirectUri: '/', state, codeChallenge: challenge })}`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
  await Promise.all([page.waitForURL(`${server.url}/?**`), page.getByRole('button', { name: 'Allow' }).click()]);
  const code = (await page.textContent('#code'))!.trim();
  const exchanged = await exchangeCode(http, code, '/', verifier);
  assert.equal(exchanged.status, 200, withLogs(exchanged.body));
  const accounts = await bearerGet(http, '/api/2/accounts', (JSON.parse(exchanged.body) as { access_token: string }).access_token);
  assert.equal(accounts.status, 200);
  return JSON.parse(accounts.body);
}

/** The owner (signed in with `ownerPassword`) invites `email` to the account (API 2 bulk-invite). */
async function invite(email: string, ownerPassword: string): Promise<void> {
  const owner = await obtainTokens(http, OWNER.email, ownerPassword);
  const res = await http({
    method: 'POST',
    path: `/api/2/accounts/${ACCOUNT_ID}/users/bulk-invite`,
    headers: { authorization: `Bearer ${owner.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ email }]),
  });
  assert.equal(res.status, 201, withLogs(res.body));
}

/** POST /forgot-password from a fresh user agent (its own cookie and form token). */
async function askReset(email: string) {
  const agent = new UserAgent(http);
  const form = await agent.get('/forgot-password');
  assert.equal(form.status, 200);
  return agent.postForm('/forgot-password', { csrf: csrfOf(form.body), email });
}

test('mail relay start-up rule: the start-up log says SMTP on, with host and port, never the SMTP password', () => {
  const logs = server.logs();
  assert.match(logs, new RegExp(`"msg":"mail: SMTP on, 127\\.0\\.0\\.1:${smtpPort} from Scanbase Test <noreply@mail-relay\\.test>"`));
  assert.ok(!logs.includes(SMTP_PASSWORD), 'no SMTP password in the logs');
});

test('mail relay invitation rule: an invitation arrives over SMTP with a working link, followed in Chromium to a successful sign-in', async () => {
  await invite(INVITEE, OWNER.password);

  const [mail] = await mailsFor(INVITEE);
  assert.match(mail!.text, /the account “Relay Co”/, 'the account\'s name, quoted, in the text (the subject holds nothing of the inviting side)');
  assert.match(mail!.messageId, /^<[0-9a-f-]{36}@127\.0\.0\.1>$/, 'a stable Message-ID receivers can de-duplicate on');
  const link = linkIn(mail!.text, `${server.url}/invitations`);
  await setPasswordInBrowser(link, 'ivan-password-12');
  const accounts = await signInInBrowser(INVITEE, 'ivan-password-12');
  assert.deepEqual(accounts.map((a) => a.id), [`urn:svc:account:${ACCOUNT_ID}`]);
  assert.ok(!server.logs().includes(link.split('/').pop()!), 'the token is never logged');
});

test('mail relay forgot-password rule: "Forgot password?" on the sign-in page mails a one-time link; the new password signs in in Chromium, the old one no more', async () => {
  const page = await newPage();
  await page.goto(`${server.url}${authorizePath({ redirectUri: '/', state: randomState() })}`);
  await Promise.all([page.waitForURL(/\/forgot-password$/), page.click('#forgot')]);
  await page.fill('#email', OWNER.email);
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[type=submit]')]);
  assert.equal(answer.status(), 200, withLogs('POST /forgot-password'));
  await page.waitForLoadState();
  assert.ok(await page.locator('#sent').isVisible());

  const [mail] = await mailsFor(OWNER.email);
  const link = linkIn(mail!.text, `${server.url}/password-reset`);
  await setPasswordInBrowser(link, 'olivia-new-password-2');
  const accounts = await signInInBrowser(OWNER.email, 'olivia-new-password-2');
  assert.deepEqual(accounts.map((a) => a.id), [`urn:svc:account:${ACCOUNT_ID}`]);

  // One-time: the link is spent; the old password is gone.
  assert.equal((await fetch(link)).status, 404);
  const agent = new UserAgent(http);
  const signInForm = await agent.get(authorizePath({ redirectUri: '/', state: 'old' }));
  const old = await agent.postForm('/oauth/login', { ...hiddenFieldsOf(signInForm.body), email: OWNER.email, password: OWNER.password });
  assert.equal(old.status, 401);
});

test('mail relay enumeration rule: an unknown address gets the same answer as a known one, and no mail', async () => {
  const before = received.length;
  const known = await askReset(INVITEE);
  const unknown = await askReset('nobody@mail-relay.test');
  assert.equal(known.status, 200);
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body, known.body, 'the same page, byte for byte');
  // A post without the form's token (another site's form) does nothing.
  const forged = await new UserAgent(http).postForm('/forgot-password', { csrf: 'forged', email: INVITEE });
  assert.equal(forged.status, 403);
  await mailsFor(INVITEE, 2);
  // Three more relay passes: still nothing for the unknown address.
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(received.filter((m) => m.to === 'nobody@mail-relay.test').length, 0);
  assert.equal(received.length, before + 1);
});

test('mail relay throttle rule: a fourth request for one address within 15 minutes gets 429 with Retry-After, known or not', async () => {
  for (const email of ['ghost@mail-relay.test', INVITEE]) {
    const already = email === INVITEE ? 1 : 0; // the enumeration test asked once for the invitee
    for (let i = already; i < 3; i++) assert.equal((await askReset(email)).status, 200, `${email} request ${i + 1}`);
    const refused = await askReset(email);
    assert.equal(refused.status, 429, email);
    assert.ok(Number(header(refused, 'retry-after')) > 0);
    assert.match(refused.body, /Too many password reset requests/);
  }
  await mailsFor(INVITEE, 4); // the invitee's three reset mails (after the invitation), not a fourth
  assert.equal(received.filter((m) => m.to === INVITEE).length, 4);
});

test('mail relay failure rule: a recipient the SMTP server refuses is retried with back-off, then failed: GET /metrics and admin outbox show it', async () => {
  await invite(BOUNCING, 'olivia-new-password-2');

  // Attempts at 0, +1 s, +2 s (MAIL_RETRY_SECONDS=1, doubling), then failed for good (MAIL_MAX_ATTEMPTS=3).
  const deadline = Date.now() + 30_000;
  let text = '';
  for (;;) {
    const m = await bearerGet(http, '/metrics', METRICS_TOKEN);
    text = m.body;
    if (/^scanbase_mail_relay_failures_total\{final="true"\} 1$/m.test(text)) break;
    if (Date.now() > deadline) assert.fail(withLogs(`no final relay failure in /metrics:\n${text}`));
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.match(text, /^scanbase_mail_relay_failures_total\{final="false"\} 2$/m);
  assert.match(text, /^scanbase_mail_relay_messages\{state="failed"\} 1$/m);
  assert.match(text, /^scanbase_mail_relay_messages\{state="pending"\} 0$/m);
  assert.equal(refusedAttempts.length, 3, 'three attempts, no more');
  assert.match(server.logs(), /mail relay: failed for good/);

  // The embedded database belongs to one process: stop the service before the admin command.
  await server.stop();
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: dataDir, PUBLIC_URL: server.url, ...(db ? { DATABASE_URL: db.url } : {}) };
  const run = (args: string[]) => runAdmin(env, args);
  const json = await run(['outbox', '--state', 'failed', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const failed = JSON.parse(json.stdout) as { to: string; text: string; relay: { state: string; attempts: number; lastError: string } }[];
  assert.deepEqual(failed.map((m) => [m.to, m.relay.state, m.relay.attempts]), [[BOUNCING, 'failed', 3]]);
  assert.match(failed[0]!.relay.lastError, /451/);
  assert.match(failed[0]!.text, /\/invitations\/\[redacted\]/, 'the relay is done with it: the stored copy has lost the token');
  const listing = await run(['outbox', '--limit', '50']);
  assert.equal(listing.code, 0, listing.stderr);
  assert.match(listing.stdout, new RegExp(`to ${BOUNCING.replace('.', '\\.')}.*\\nrelay: FAILED after 3 attempt\\(s\\); last error: .*451`));
  assert.match(listing.stdout, /relay: sent at /);
  assert.doesNotMatch(listing.stdout, /\/(invitations|password-reset)\/(?!\[redacted\])[A-Za-z0-9_-]+/, 'no live token is left in the outbox');
});
