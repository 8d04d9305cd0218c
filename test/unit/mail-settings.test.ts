// The mail settings (SMTP_URL, MAIL_*), the relay's retry schedule and the start-up line
// about SMTP: pure rules, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { RELAY, describeFailure, retryDelaySeconds } from '../../src/modules/mail/core/relay.ts';
import { describeMail, startupLines } from '../../src/startup-report.ts';

const base = { PUBLIC_URL: 'https://scan.example.com', DATA_DIR: '/tmp/x' };
const report = { version: '1', nodeVersion: 'v24', migrationsApplied: 0, migrationsTotal: 16, seed: null };
const mailLine = (env: Record<string, string>) => startupLines(loadConfig({ ...base, ...env }), report).find(([f]) => 'mail' in f)!;

test('mail settings rule: SMTP off by default, From from the public host, retry defaults', () => {
  const c = loadConfig(base);
  assert.deepEqual(c.mail, {
    smtpUrl: undefined, toLog: false, delivery: 'outbox', from: 'Scanbase <no-reply@scan.example.com>', maxAttempts: 8, firstRetrySeconds: 60, relayIntervalSeconds: 5,
  });
});

test('mail start-up line rule: without SMTP it warns that no e-mail is sent and says how to read or print the links', () => {
  const [fields, message, level] = mailLine({});
  assert.deepEqual(fields, { mail: { smtp: 'off', delivery: 'outbox' } });
  assert.equal(level, 'warn');
  assert.match(message, /NO e-mail is sent/);
  assert.match(message, /npm run admin -- outbox/);
  assert.match(message, /SMTP_URL/);
  assert.match(message, /MAIL_TO_LOG=1/);
  const [logFields, logMessage, logLevel] = mailLine({ MAIL_TO_LOG: '1' });
  assert.deepEqual(logFields, { mail: { smtp: 'off', delivery: 'log' } });
  assert.equal(logLevel, undefined);
  assert.match(logMessage, /printed to this log, none is sent/);
});

test('MAIL_TO_LOG rule: on a loopback HOST only (never a public or every-interface address), and not with SMTP_URL', () => {
  for (const host of ['127.0.0.1', '127.0.1.1', '::1', 'localhost']) assert.equal(loadConfig({ ...base, HOST: host, MAIL_TO_LOG: 'yes' }).mail.delivery, 'log', host);
  for (const host of ['0.0.0.0', '::', '192.168.1.10', 'scan.example.com']) {
    assert.throws(() => loadConfig({ ...base, HOST: host, MAIL_TO_LOG: '1' }), (e: unknown) => e instanceof ConfigError && /^MAIL_TO_LOG .*loopback/.test(e.message), host);
  }
  assert.throws(() => loadConfig({ ...base, MAIL_TO_LOG: '1', SMTP_URL: 'smtp://mail.example.com' }), /MAIL_TO_LOG .*unset SMTP_URL/);
  assert.throws(() => loadConfig({ ...base, MAIL_TO_LOG: 'maybe' }), /MAIL_TO_LOG=/);
});

test('mail settings rule: a bad SMTP_URL stops the start with the variable named and the password hidden', () => {
  for (const bad of ['http://u:hunter2-secret@mail.example.com', 'mail.example.com:587', 'smtp://u:hunter2-secret@']) {
    assert.throws(
      () => loadConfig({ ...base, SMTP_URL: bad }),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith('SMTP_URL=') && !e.message.includes('hunter2-secret'),
      bad,
    );
  }
  assert.throws(() => loadConfig({ ...base, MAIL_FROM: 'not an address' }), /MAIL_FROM/);
  assert.throws(() => loadConfig({ ...base, MAIL_MAX_ATTEMPTS: '0' }), /MAIL_MAX_ATTEMPTS/);
});

test('mail settings rule: the start-up line says SMTP on with host, port and From, never the user or password', () => {
  const [fields, message] = mailLine({ SMTP_URL: 'smtp://relay-user:hunter2-secret@mail.example.com', MAIL_FROM: 'Ops <ops@example.com>' });
  assert.equal(message, 'mail: SMTP on, mail.example.com:587 from Ops <ops@example.com>');
  assert.ok(!JSON.stringify(fields).includes('hunter2') && !JSON.stringify(fields).includes('relay-user'));
  assert.deepEqual(describeMail(loadConfig({ ...base, SMTP_URL: 'smtps://mail.example.com' })), {
    smtp: 'on', host: 'mail.example.com', port: 465, secure: true, from: 'Scanbase <no-reply@scan.example.com>',
  });
});

test('mail relay retry rule: the wait doubles from MAIL_RETRY_SECONDS and is capped', () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 60)), [60, 120, 240, 480]);
  assert.equal(retryDelaySeconds(40, 60), RELAY.maxRetrySeconds);
  assert.ok(RELAY.leaseSeconds > 30 + 30 + 60, 'the lease outlasts the SMTP timeouts');
});

test('mail relay failure text rule: one bounded line, the server answer kept', () => {
  const e = new Error('Can\'t send mail - all recipients were rejected:\r\n451 Mailbox unavailable');
  assert.equal(describeFailure(e), "Can't send mail - all recipients were rejected: 451 Mailbox unavailable");
  assert.equal(describeFailure(new Error('x'.repeat(2000))).length, RELAY.maxErrorChars);
});
