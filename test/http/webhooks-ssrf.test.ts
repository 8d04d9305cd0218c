// Webhooks never reach non-public addresses unless WEBHOOKS_ALLOW_PRIVATE_TARGETS=1 (docs/webhooks.md
// "Targets"): registration refuses address literals; the sender checks the address it resolved,
// at send time, and connects to exactly that address (a name resolving to 127.0.0.1 is
// refused; a resolver's answer is pinned, with the URL's host in the Host header). Only ports
// 80, 443 and WEBHOOKS_TARGET_PORTS are used, and a failure shows its owner a class, never
// the addresses or the DNS answer.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, createProject, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender.ts';
import { WebhookSendError } from '../../src/core/ports/webhooks.ts';

let t: TestApp;
let w: World;
let receiver: WebhookReceiver;

before(async () => {
  // Private targets refused (the default); any port, so that the loopback receiver can be named.
  t = await testApp({ WEBHOOKS_RELAY_INTERVAL: '3600', WEBHOOKS_TARGET_PORTS: 'any' });
  w = await projectWorld(t);
  receiver = await startWebhookReceiver();
});
after(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.received.length = 0;
});

const refusal = (pattern: RegExp) => (e: unknown) => e instanceof WebhookSendError && e.reason === 'address-refused' && pattern.test(e.message);
const request = (url: string) => ({ url, headers: { 'content-type': 'application/json' }, body: '{}' });

test('registration refuses loopback, private and link-local address literals with 400 invalid-webhook-url', async () => {
  for (const url of [`http://127.0.0.1:${receiver.port}/`, 'http://10.0.0.8/', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://[fd00::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/']) {
    const res = await w.as.owner!('POST', `${A2}/webhooks`, { url, events: ['*'] });
    assert.equal(res.status, 400, url);
    assert.equal(res.body.errorCode, 'invalid-webhook-url', url);
  }
});

test('a name resolving to 127.0.0.1 is refused at send time: the delivery records the class of the failure (never the address) and the receiver gets nothing', async () => {
  const created = await w.as.owner!('POST', `${A2}/webhooks`, { url: `http://localhost:${receiver.port}/hooks`, events: ['project.created'] });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await createProject(w.as.projectOwner!);
  await t.core.webhookRelay.run();
  const [d] = (await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(created.body.id)}/deliveries`)).body;
  assert.equal(d.state, 'pending');
  assert.equal(d.lastStatus, null);
  assert.equal(d.lastError, 'address-refused', 'the class only: no DNS answer, no address');
  assert.ok(!JSON.stringify(d).includes('127.0.0.1') && !JSON.stringify(d).includes('::1'), JSON.stringify(d));
  assert.equal(receiver.received.length, 0);
});

test('the sender refuses loopback, private, link-local and IPv4-mapped targets without connecting', async () => {
  const sender = httpWebhookSender({ allowPrivateTargets: false, extraPorts: 'any', timeoutMs: 2000 });
  await assert.rejects(sender.send(request(`http://127.0.0.1:${receiver.port}/`)), refusal(/127\.0\.0\.1, a loopback address/));
  await assert.rejects(sender.send(request(`http://localhost:${receiver.port}/`)), refusal(/loopback/));
  await assert.rejects(sender.send(request('http://10.20.30.40/')), refusal(/private/));
  await assert.rejects(sender.send(request('http://169.254.169.254/latest/meta-data')), refusal(/link-local/));
  await assert.rejects(sender.send(request(`http://[::ffff:127.0.0.1]:${receiver.port}/`)), refusal(/IPv4-mapped/));
  await assert.rejects(sender.send(request('http://[::1]/')), refusal(/loopback/));
  assert.equal(receiver.received.length, 0);
});

test('a name whose answers include a private address is refused, whichever answer comes first', async () => {
  const sender = httpWebhookSender({
    allowPrivateTargets: false, extraPorts: 'any', timeoutMs: 2000,
    resolve: async () => [{ address: '93.184.215.14', family: 4 }, { address: '127.0.0.1', family: 4 }],
  });
  await assert.rejects(sender.send(request('http://mixed.example/')), refusal(/mixed\.example resolves to 127\.0\.0\.1/));
});

test('the connection goes to the address resolved and checked once (no second lookup), with the URL\'s host in the Host header', async () => {
  let lookups = 0;
  const sender = httpWebhookSender({
    allowPrivateTargets: true, extraPorts: 'any', timeoutMs: 2000,
    resolve: async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
  const res = await sender.send(request(`http://hooks.rebind.example:${receiver.port}/in`));
  assert.equal(res.status, 204);
  assert.equal(lookups, 1);
  assert.equal(receiver.received[0]!.headers.host, `hooks.rebind.example:${receiver.port}`);
});

test('an endpoint that does not answer in time is a timeout, not a hang', async () => {
  const slow = await startWebhookReceiver();
  slow.answer = 'hang';
  try {
    const sender = httpWebhookSender({ allowPrivateTargets: true, extraPorts: 'any', timeoutMs: 300 });
    await assert.rejects(sender.send(request(slow.url)), (e: unknown) => e instanceof WebhookSendError && e.reason === 'timeout');
  } finally {
    await slow.close();
  }
});

test('webhook port rule: the sender refuses a port outside 80, 443 and WEBHOOKS_TARGET_PORTS without connecting (a URL registered before the rule)', async () => {
  const sender = httpWebhookSender({ allowPrivateTargets: true, extraPorts: [], timeoutMs: 2000 });
  await assert.rejects(sender.send(request(`http://127.0.0.1:${receiver.port}/`)), (e: unknown) => e instanceof WebhookSendError && e.reason === 'port-refused');
  assert.equal(receiver.received.length, 0);
  const allowed = httpWebhookSender({ allowPrivateTargets: true, extraPorts: [receiver.port], timeoutMs: 2000 });
  assert.equal((await allowed.send(request(`http://127.0.0.1:${receiver.port}/`))).status, 204);
});

test('webhook port rule: registration refuses a URL on another port than 80 and 443 by default, with 400 invalid-webhook-url', async () => {
  const strict = await testApp({ WEBHOOKS_RELAY_INTERVAL: '3600' });
  try {
    const world = await projectWorld(strict);
    for (const url of ['https://hooks.example.com:8443/in', 'http://hooks.example.com:6379/', 'https://hooks.example.com:22/']) {
      const res = await world.as.owner!('POST', `${A2}/webhooks`, { url, events: ['*'] });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.errorCode, 'invalid-webhook-url', url);
    }
    const ok = await world.as.owner!('POST', `${A2}/webhooks`, { url: 'https://hooks.example.com/in', events: ['*'], enabled: false });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  } finally {
    await strict.close();
  }
});

test('a send failure shows its owner a class only: an unresolvable name is dns-failed, a closed port connection-failed', async () => {
  const dnsFail = httpWebhookSender({
    allowPrivateTargets: true, extraPorts: 'any', timeoutMs: 2000,
    resolve: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND internal.corp'), { code: 'ENOTFOUND' });
    },
  });
  await assert.rejects(dnsFail.send(request('http://internal.corp/')), (e: unknown) => e instanceof WebhookSendError && e.reason === 'dns-failed');
  const closed = await startWebhookReceiver();
  const port = closed.port;
  await closed.close();
  const sender = httpWebhookSender({ allowPrivateTargets: true, extraPorts: 'any', timeoutMs: 2000 });
  await assert.rejects(sender.send(request(`http://127.0.0.1:${port}/`)), (e: unknown) => e instanceof WebhookSendError && e.reason === 'connection-failed');
});
