// The pure rules of webhooks (src/modules/webhooks/core/): which events go out and what their body
// holds, Standard Webhooks signatures (checked against the standardwebhooks library), the
// retry schedule and the disabling rule, and which addresses are public.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { DELIVERABLE_EVENT_TYPES, endpointWants, isDeliverable, webhookPayload } from '../../src/modules/webhooks/core/webhook-events.ts';
import { formatSecret, signatureOf, signedHeaders } from '../../src/modules/webhooks/core/signature.ts';
import { nextAttemptAt, pausesEndpoint, retryDelaySeconds, RETRY, shouldDisable } from '../../src/modules/webhooks/core/retry-schedule.ts';
import { checkWebhookUrl, nonPublicReason, portAllowed } from '../../src/modules/webhooks/core/target-addresses.ts';
import { checkEvents } from '../../src/modules/webhooks/core/webhooks.ts';
import { api1IdOf } from '../../src/core/ids/api1-id.ts';
import { DomainError } from '../../src/core/errors.ts';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const PROJECT = '22222222-2222-4222-8222-222222222222';

test('an endpoint wants a type it names, or any deliverable type with "*", never an undeliverable one', () => {
  assert.ok(endpointWants(['project.created'], 'project.created'));
  assert.ok(!endpointWants(['project.created'], 'project.updated'));
  assert.ok(endpointWants(['*'], 'project.deleted'));
  assert.ok(!endpointWants(['*'], 'service.reset'), 'system events never go out');
  assert.ok(!endpointWants(['*'], 'file.registered'), 'a type an administrator cannot read never goes out');
  assert.ok(!isDeliverable('signing-keys.rotated'));
  assert.ok(DELIVERABLE_EVENT_TYPES.includes('webhook.disabled'));
});

test('events are "*" or deliverable names, at least one, without duplicates', () => {
  assert.deepEqual(checkEvents(['project.created', 'project.created', '*']), ['project.created', '*']);
  for (const bad of [[], ['nope'], ['service.reset']]) {
    assert.throws(() => checkEvents(bad), (e: unknown) => e instanceof DomainError && e.code === 'invalid-webhook-events');
  }
});

test('a payload is the envelope {type, timestamp, data} with only the listed ids, each as URN and API 1 id', () => {
  const occurredAt = new Date('2026-01-02T03:04:05.678Z');
  const data = { accountId: ACCOUNT, projectId: PROJECT, projectApi1Id: 'ignored', name: 'Not sent', email: 'a@b.c' };
  assert.deepEqual(webhookPayload({ type: 'project.updated', data: data as never, occurredAt }, 'acme'), {
    type: 'project.updated',
    timestamp: '2026-01-02T03:04:05.678Z',
    data: {
      accountId: `urn:acme:account:${ACCOUNT}`, accountApi1Id: api1IdOf(ACCOUNT),
      projectId: `urn:acme:project:${PROJECT}`, projectApi1Id: api1IdOf(PROJECT),
    },
  });
  assert.equal(webhookPayload({ type: 'service.reset', data: {}, occurredAt }, 'acme'), null);
});

test('signatures are v1 HMAC-SHA256 over id.timestamp.body with the secret\'s bytes, accepted by the standardwebhooks library', () => {
  const secret = formatSecret(Buffer.alloc(24, 7));
  assert.match(secret, /^whsec_/);
  const body = '{"type":"project.created","timestamp":"2026-01-01T00:00:00.000Z","data":{}}';
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = signedHeaders([secret], 'msg-1', timestamp, body);
  assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  // The specification's own example (standardwebhooks.com): a fixed secret, id, timestamp and body.
  assert.equal(
    signatureOf('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
  // Two secrets: two space-separated signatures, each verifying alone.
  const other = formatSecret(Buffer.alloc(24, 9));
  const both = signedHeaders([secret, other], 'msg-2', timestamp, body);
  assert.equal(both['webhook-signature']!.split(' ').length, 2);
  new Webhook(other).verify(body, both);
  assert.throws(() => new Webhook(formatSecret(Buffer.alloc(24, 1))).verify(body, both));
});

test('retries back off exponentially from the first wait, capped at 6 hours, and stop a day after the first attempt', () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 30)), [30, 60, 120, 240]);
  assert.equal(retryDelaySeconds(20, 30), RETRY.maxDelaySeconds);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const until = new Date(start + RETRY.windowSeconds * 1000);
  assert.equal(nextAttemptAt(1, start, until, 30)?.getTime(), start + 30_000);
  assert.equal(nextAttemptAt(8, until.getTime() - 1000, until, 30), null, 'past the day: failed for good');
  // With the default first wait, a delivery gets attempts spread over the whole day.
  let attempts = 1;
  for (let t = start, n = 1; ; n++) {
    const next = nextAttemptAt(n, t, until, 30);
    if (!next) break;
    t = next.getTime();
    attempts++;
  }
  assert.ok(attempts >= 12 && attempts <= 20, `${attempts} attempts`);
});

test('an endpoint is disabled once every attempt failed for a day, not before', () => {
  const since = new Date('2026-01-01T00:00:00Z');
  assert.equal(shouldDisable(null, Date.now()), false);
  assert.equal(shouldDisable(since, since.getTime() + 23 * 3600 * 1000), false);
  assert.equal(shouldDisable(since, since.getTime() + 24 * 3600 * 1000), true);
});

test('loopback, private, link-local, unspecified, multicast, CGNAT, ULA and IPv4-mapped addresses are not public', () => {
  const refused = {
    '127.0.0.1': 'loopback', '127.8.9.10': 'loopback', '::1': 'loopback',
    '10.0.0.1': 'private', '172.16.5.4': 'private', '192.168.1.1': 'private',
    '169.254.169.254': 'link-local', 'fe80::1': 'link-local',
    '0.0.0.0': 'unspecified ("this network")', '::': 'unspecified',
    '224.0.0.1': 'multicast', 'ff02::1': 'multicast',
    '100.64.0.1': 'shared (CGNAT)', 'fd12:3456::1': 'unique local (ULA)',
    '::ffff:127.0.0.1': 'IPv4-mapped', '::ffff:8.8.8.8': 'IPv4-mapped',
    '255.255.255.255': 'reserved (and broadcast)',
  };
  for (const [address, reason] of Object.entries(refused)) assert.equal(nonPublicReason(address), reason, address);
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::1']) assert.equal(nonPublicReason(address), null, address);
});

test('a webhook URL is absolute http(s) without credentials; an address literal outside the public range is refused unless allowed', () => {
  const publicOnly = { allowPrivateTargets: false, extraPorts: 'any' } as const;
  const privateToo = { allowPrivateTargets: true, extraPorts: 'any' } as const;
  assert.equal(checkWebhookUrl('https://hooks.example.com/in?x=1', publicOnly).href, 'https://hooks.example.com/in?x=1');
  for (const url of ['http://127.0.0.1/', 'http://10.1.2.3:8080/', 'http://[::1]/', 'http://169.254.169.254/latest', 'http://[::ffff:7f00:1]/']) {
    assert.throws(() => checkWebhookUrl(url, publicOnly), (e: unknown) => e instanceof DomainError && e.code === 'invalid-webhook-url', url);
    assert.ok(checkWebhookUrl(url, privateToo));
  }
  for (const url of ['ftp://x.example/', '/relative', 'https://u:p@x.example/', 'https://x.example/#frag', `https://x.example/${'a'.repeat(2000)}`]) {
    assert.throws(() => checkWebhookUrl(url, privateToo), (e: unknown) => e instanceof DomainError && e.code === 'invalid-webhook-url', url);
  }
});

test('webhook port rule: only ports 80 and 443 (default or named) and those WEBHOOKS_TARGET_PORTS adds', () => {
  const standard = { allowPrivateTargets: false, extraPorts: [] } as const;
  for (const url of ['https://hooks.example/', 'http://hooks.example/', 'https://hooks.example:443/', 'http://hooks.example:80/', 'https://hooks.example:80/']) {
    assert.ok(checkWebhookUrl(url, standard), url);
  }
  for (const url of ['https://hooks.example:8443/', 'http://hooks.example:22/', 'http://hooks.example:6379/', 'https://hooks.example:1/']) {
    assert.throws(
      () => checkWebhookUrl(url, standard),
      (e: unknown) => e instanceof DomainError && e.code === 'invalid-webhook-url' && /port 80, 443/.test(e.message),
      url,
    );
  }
  const extra = { allowPrivateTargets: false, extraPorts: [8443] } as const;
  assert.ok(checkWebhookUrl('https://hooks.example:8443/', extra));
  assert.throws(() => checkWebhookUrl('https://hooks.example:9443/', extra), /port 80, 443, 8443/);
  assert.equal(portAllowed(new URL('https://hooks.example:6379/'), { extraPorts: 'any' }), true);
});

test('webhook circuit breaker rule: 5xx, 408 and 429 pause the endpoint as a whole; other answers concern the delivery', () => {
  for (const status of [500, 502, 503, 504, 408, 429]) assert.equal(pausesEndpoint(status), true, String(status));
  for (const status of [400, 401, 403, 404, 410, 422, 301, 302]) assert.equal(pausesEndpoint(status), false, String(status));
});
