// @engine-independent: the administration socket is the embedded database's; the rest does not touch the engine.
// Mail without SMTP is no dead end (README "Mail without SMTP"): the start-up warns that no
// e-mail is sent and says how to read the links; those who invite users get a notice the
// console shows as a banner; `npm run admin -- outbox` works while the service runs on the
// embedded database (over its administration socket) and shows the links whole, since the
// outbox is then the only way they reach anyone; MAIL_TO_LOG prints each mail's links to the
// log instead (loopback HOST only).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServerToExit, startServer, stopAndRemove, type RunningServer } from '../support/server.ts';
import { runAdmin } from '../support/admin.ts';
import { bearerCall } from '../support/e2e-http.ts';
import { fetchTransport, obtainTokens } from '../support/oauth-client.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEED = path.join(ROOT, 'docs/seed.example.json');
const PASSWORD = 'correct horse battery';

const servers: RunningServer[] = [];
after(async () => {
  for (const s of servers) await stopAndRemove(s);
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const s = await startServer({ SEED_FILE: SEED, LOG_LEVEL: 'info', MAIL_RELAY_INTERVAL: '1', ...env });
  servers.push(s);
  return s;
}

const tokenOf = async (s: RunningServer, email: string) => (await obtainTokens(fetchTransport(s.url), email, PASSWORD)).access_token;

async function acmeOf(s: RunningServer, token: string): Promise<string> {
  const accounts = (await bearerCall(s.url, token, 'GET', '/api/2/accounts')).body as { id: string; name: string }[];
  return accounts.find((a) => a.name === 'Acme')!.id;
}

const invite = async (s: RunningServer, token: string, account: string, email: string) => {
  const r = await bearerCall(s.url, token, 'POST', `/api/2/accounts/${account}/users/bulk-invite`, [{ email }]);
  assert.equal(r.status, 201, JSON.stringify(r.body));
};

/** Waits (a few relay passes at most) until the log holds a line matching `re`. */
async function logLine(s: RunningServer, re: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const line = s.logs().split('\n').find((l) => re.test(l));
    if (line) return line;
    assert.ok(Date.now() < deadline, `no log line ${re}:\n${s.logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('without SMTP: a start-up warning, a notice for those who invite, and `admin outbox` over the running service shows the whole link', async () => {
  const s = await start({});
  const warning = await logLine(s, /NO e-mail is sent/);
  assert.equal(JSON.parse(warning).level, 40, 'logged as a warning');
  assert.match(warning, /npm run admin -- outbox/);

  const owner = await tokenOf(s, 'olivia@acme.test');
  const account = await acmeOf(s, owner);
  const notices = await bearerCall(s.url, owner, 'GET', `/api/2/accounts/${account}/notices`);
  assert.equal(notices.status, 200);
  assert.deepEqual(notices.body.map((n: { code: string; severity: string }) => [n.code, n.severity]), [['mail-not-sent', 'warning']]);
  assert.match(notices.body[0].message, /npm run admin -- outbox/);
  // A plain member invites nobody: nothing to tell him.
  const member = await tokenOf(s, 'mia@acme.test');
  assert.deepEqual((await bearerCall(s.url, member, 'GET', `/api/2/accounts/${account}/notices`)).body, []);

  await invite(s, owner, account, 'newcomer@acme.test');
  // The service holds the embedded database: the command asks it over DATA_DIR/admin/admin.sock.
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: s.dataDir, PUBLIC_URL: s.url };
  const r = await runAdmin(env, ['outbox', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const mail = (JSON.parse(r.stdout) as { to: string; links: string[]; relay: { state: string } }[]).find((m) => m.to === 'newcomer@acme.test')!;
  assert.equal(mail.relay.state, 'stored');
  const link = mail.links.find((l) => l.includes('/invitations/'))!;
  assert.doesNotMatch(link, /redacted/, 'the outbox is the mailbox: the link is whole until used');
  assert.equal((await fetch(link)).status, 200, 'and it opens the set-password page');
  const text = await runAdmin(env, ['outbox', '--limit', '1']);
  assert.match(text.stdout, /to newcomer@acme\.test/);
  assert.match(s.logs(), /admin: outbox \(over the administration socket\)/);
});

test('MAIL_TO_LOG prints each mail with its links to the log (and says so at start and in the notice)', async () => {
  const s = await start({ MAIL_TO_LOG: '1' });
  await logLine(s, /MAIL_TO_LOG on: every mail/);
  const owner = await tokenOf(s, 'olivia@acme.test');
  const account = await acmeOf(s, owner);
  assert.deepEqual((await bearerCall(s.url, owner, 'GET', `/api/2/accounts/${account}/notices`)).body.map((n: { code: string }) => n.code), ['mail-to-log']);
  await invite(s, owner, account, 'printed@acme.test');
  const line = JSON.parse(await logLine(s, /MAIL_TO_LOG, not sent\) to printed@acme\.test/)) as { msg: string; mail: { links: string[] } };
  const link = line.mail.links.find((l) => l.includes('/invitations/'))!;
  assert.ok(line.msg.includes(link), 'the link is in the message a person reads');
  assert.equal((await fetch(link)).status, 200);
});

test('MAIL_TO_LOG on an address other machines reach is refused at start, naming the setting', async () => {
  const r = await runServerToExit({ HOST: '0.0.0.0', MAIL_TO_LOG: '1' });
  assert.equal(r.code, 1);
  assert.match(r.output, /^scanbase: MAIL_TO_LOG prints one-time links to the log: it is refused unless HOST is a loopback address/);
});
