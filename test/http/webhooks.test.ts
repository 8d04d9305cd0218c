// Webhooks (docs/webhooks.md): registration and its permission, deliveries received by a real
// HTTP receiver and verified with the standardwebhooks library, retries after a 500 and
// after the receiver was down, per-subject order, secret rotation, payload visibility, and
// the disabling of an endpoint that fails for a day. The relay is driven by hand
// (core.webhookRelay.run()) and the clock by the sandbox control, so nothing sleeps long.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, ACCOUNT_ID, OTHER_ACCOUNT_ID, advanceClock, caller, createProject, emailOf, outbox, projectWorld, urn, uuidOf, type World,
} from '../support/projects.ts';
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { api1IdOf } from '../../src/core/ids/api1-id.ts';
import { sampleValue } from '../support/metrics-text.ts';

let t: TestApp;
let w: World;
let receiver: WebhookReceiver;
/**
 * WEBHOOKS_RETRY_SECONDS: the first wait after a failed attempt, doubling after each. Ten
 * seconds of real time between two calls is slack enough; the clock moves of the tests below
 * add up to 83 s, under the receivers' 5-minute timestamp tolerance (standardwebhooks), which
 * the later tests' signatures must still pass.
 */
const RETRY_SECONDS = 10;

before(async () => {
  // The first retry waits RETRY_SECONDS of the service's clock, which the tests move: with 1 s,
  // the real time between two calls on a loaded machine made a held-back retry due on its own
  // (CI saw the project.updated behind a failed project.created delivered early).
  t = await testApp({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1', WEBHOOKS_TARGET_PORTS: 'any', WEBHOOKS_RETRY_SECONDS: String(RETRY_SECONDS), WEBHOOKS_RELAY_INTERVAL: '3600' });
  w = await projectWorld(t);
  receiver = await startWebhookReceiver();
});
after(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(async () => {
  // Each test starts with no endpoint, an empty receiver answering 204.
  const list = await w.as.owner!('GET', `${A2}/webhooks`);
  for (const e of list.body) await w.as.owner!('DELETE', `${A2}/webhooks/${e.id}`);
  receiver.received.length = 0;
  receiver.answer = 204;
  receiver.beforeAnswer = undefined;
});

const relay = () => t.core.webhookRelay.run();

async function register(fields: Record<string, unknown> = {}) {
  const res = await w.as.administrator!('POST', `${A2}/webhooks`, { url: receiver.url, events: ['*'], description: 'test', ...fields });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

test('registering answers 201 with the endpoint and a whsec_ secret that no other answer shows', async () => {
  const created = await register({ events: ['project.created', 'project.updated'] });
  assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.match(created.id, /^urn:svc:webhook:[0-9a-f-]{36}$/);
  const one = await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(created.id)}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.events, ['project.created', 'project.updated']);
  assert.equal(one.body.enabled, true);
  const list = await w.as.owner!('GET', `${A2}/webhooks`);
  for (const body of [one.body, ...list.body]) assert.ok(!JSON.stringify(body).includes(created.secret.slice(6)), 'no secret');
  assert.ok(!('secret' in one.body));
});

test('webhooks are read and managed only with account:integrations (owner, administrator): others get 403, another tenant 404', async () => {
  for (const who of ['projectManager', 'projectLister', 'member', 'viewer'] as const) {
    const read = await w.as[who]!('GET', `${A2}/webhooks`);
    assert.equal(read.status, 403, who);
    assert.equal(read.body.errorCode, 'read-webhooks-forbidden');
    const write = await w.as[who]!('POST', `${A2}/webhooks`, { url: receiver.url, events: ['*'] });
    assert.equal(write.status, 403, who);
    assert.equal(write.body.errorCode, 'manage-webhooks-forbidden');
    assert.deepEqual(write.body.errorValues.requiredPermissions, ['account:integrations:write']);
  }
  const outsider = await w.as.outsider!('GET', `${A2}/webhooks`);
  assert.equal(outsider.status, 404, 'another tenant: as an unknown account');
  assert.equal(outsider.body.errorCode, 'account-not-found');
});

test('registration refuses bad input with 400 in RFC 9457 form, never 5xx', async () => {
  const cases: [unknown, string][] = [
    [{ url: 'ftp://example.com/x', events: ['*'] }, 'invalid-webhook-url'],
    [{ url: 'not a url', events: ['*'] }, 'invalid-webhook-url'],
    [{ url: 'https://user:pw@example.com/', events: ['*'] }, 'invalid-webhook-url'],
    [{ url: 'https://example.com/', events: ['no.such-event'] }, 'invalid-webhook-events'],
    [{ url: 'https://example.com/', events: ['signing-keys.rotated'] }, 'invalid-webhook-events'],
    [{ url: 'https://example.com/', events: [] }, 'invalid-input'],
    [{ url: 'https://example.com/', events: ['*'], secret: 'mine' }, 'invalid-input'],
    [{ url: 'https://example.com/', events: ['*'], description: 'x'.repeat(501) }, 'invalid-input'],
  ];
  for (const [body, code] of cases) {
    const res = await w.as.owner!('POST', `${A2}/webhooks`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.errorCode, code, JSON.stringify(res.body));
    assert.match(String(res.headers['content-type']), /application\/problem\+json/);
  }
  assert.equal((await w.as.owner!('GET', `${A2}/webhooks/not-a-ref!`)).status, 400);
  assert.equal((await w.as.owner!('GET', `${A2}/webhooks/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).status, 404);
  const replay = await w.as.owner!('POST', `${A2}/webhooks/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/deliveries/nope/replay`);
  assert.equal(replay.status, 404);
});

test('nothing is sent until an endpoint is registered; then a project change arrives signed per Standard Webhooks', async () => {
  await createProject(w.as.projectOwner!);
  await relay();
  assert.equal(receiver.received.length, 0, 'no endpoint, nothing sent');

  const hook = await register();
  const project = await createProject(w.as.projectOwner!);
  await relay();
  const [d] = await receiver.waitFor('project.created');
  const payload = verifyDelivery(hook.secret, d!) as { type: string; timestamp: string; data: Record<string, string> };
  assert.equal(payload.type, 'project.created');
  assert.ok(!Number.isNaN(Date.parse(payload.timestamp)));
  const projectUuid = uuidOf(project.id);
  assert.deepEqual(payload.data, {
    accountId: `urn:svc:account:${ACCOUNT_ID}`, accountApi1Id: api1IdOf(ACCOUNT_ID),
    projectId: `urn:svc:project:${projectUuid}`, projectApi1Id: api1IdOf(projectUuid),
  });
  assert.equal(d!.headers['content-type'], 'application/json');
  assert.match(d!.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/=]+$/);

  const deliveries = await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries`);
  assert.equal(deliveries.status, 200);
  const sent = deliveries.body.find((x: { id: string }) => x.id === d!.headers['webhook-id']);
  assert.equal(sent.state, 'delivered');
  assert.equal(sent.lastStatus, 204);
  assert.equal(sent.attempts, 1);
});

test('a receiver answering 500 gets the same delivery again (same webhook-id) after the back-off, until it answers 2xx', async () => {
  const hook = await register({ events: ['project.updated'] });
  const project = await createProject(w.as.projectOwner!);
  receiver.answer = 500;
  assert.equal((await w.as.projectOwner!('PATCH', `${A2}/projects/${uuidOf(project.id)}`, { name: 'Renamed once' })).status, 200);
  await relay();
  await receiver.waitFor('project.updated', 1);
  const [pending] = (await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries?state=pending`)).body;
  assert.equal(pending.lastStatus, 500);
  assert.equal(pending.lastError, 'HTTP 500');
  assert.ok(pending.nextAttemptAt);

  await relay();
  assert.equal(receiver.received.length, 1, 'not before the back-off');
  receiver.answer = 200;
  await advanceClock(t, RETRY_SECONDS + 1);
  await relay();
  const both = await receiver.waitFor('project.updated', 2);
  assert.equal(both[0]!.headers['webhook-id'], both[1]!.headers['webhook-id']);
  verifyDelivery(hook.secret, both[1]!);
  const [done] = (await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries`)).body;
  assert.equal(done.state, 'delivered');
  assert.equal(done.attempts, 2);
  const metrics = await t.core.metrics.registry.metrics();
  assert.ok(sampleValue(metrics, 'scanbase_webhook_deliveries_total', { outcome: 'failed' })! >= 1);
  assert.ok(sampleValue(metrics, 'scanbase_webhook_deliveries_total', { outcome: 'delivered' })! >= 1);
});

test('a receiver that is down gets the delivery once it is back', async () => {
  const down = await startWebhookReceiver();
  const port = down.port;
  await down.close();
  const hook = await register({ url: `http://127.0.0.1:${port}/hooks`, events: ['project.created'] });
  await createProject(w.as.projectOwner!);
  await relay();
  const [failed] = (await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries`)).body;
  assert.equal(failed.state, 'pending');
  assert.equal(failed.lastStatus, null);
  assert.equal(failed.lastError, 'connection-failed');

  const back = await startWebhookReceiver(port);
  try {
    await advanceClock(t, RETRY_SECONDS + 1);
    await relay();
    const [d] = await back.waitFor('project.created');
    verifyDelivery(hook.secret, d!);
    assert.equal(d!.headers['webhook-id'], failed.id);
  } finally {
    await back.close();
  }
});

test('deliveries of one subject keep their order: a later change waits while an earlier one is being retried (a 4xx refuses the delivery, not the endpoint)', async () => {
  await register({ events: ['project.created', 'project.updated'] });
  const p1 = await createProject(w.as.projectOwner!);
  await createProject(w.as.projectOwner!); // another subject
  receiver.answer = 422;
  await relay(); // both project.created fail: a 4xx holds back its subject only
  receiver.answer = 204;
  await w.as.projectOwner!('PATCH', `${A2}/projects/${uuidOf(p1.id)}`, { name: 'First rename' });
  await w.as.projectOwner!('PATCH', `${A2}/projects/${uuidOf(p1.id)}`, { name: 'Second rename' });
  await relay();
  assert.equal(receiver.received.filter((r) => r.json.type === 'project.updated').length, 0, 'held back behind the failed project.created');
  await advanceClock(t, RETRY_SECONDS + 1);
  await relay();
  const order = receiver.received.slice(2).map((r) => `${r.json.type} ${r.json.data.projectId === p1.id ? 'p1' : 'p2'}`);
  assert.deepEqual(order.filter((x) => x.endsWith('p1')), ['project.created p1', 'project.updated p1', 'project.updated p1']);
  assert.ok(order.includes('project.created p2'));
});

test('circuit breaker: an endpoint answering 5xx backs off as a whole (no other subject tried until its pause ends), the pauses double, a 2xx closes it', async () => {
  const hook = await register({ events: ['project.created'] });
  receiver.answer = 503;
  for (let i = 0; i < 3; i++) await createProject(w.as.projectOwner!); // three subjects
  await relay();
  assert.equal(receiver.received.length, 1, 'one attempt, then the endpoint is paused: the other subjects are not tried');
  await relay();
  assert.equal(receiver.received.length, 1, 'paused: not claimed');
  await advanceClock(t, 2 * RETRY_SECONDS); // the first pause is RETRY_SECONDS
  await relay();
  assert.equal(receiver.received.length, 2, 'after the pause, one probe, failing again');
  await advanceClock(t, RETRY_SECONDS);
  await relay();
  assert.equal(receiver.received.length, 2, 'the second pause is twice the first');
  receiver.answer = 204;
  await advanceClock(t, 2 * RETRY_SECONDS);
  await relay();
  await receiver.waitFor('project.created', 5);
  const deliveries = (await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries?state=delivered`)).body;
  assert.equal(deliveries.length, 3, 'the probe succeeded: the breaker closed and every subject went');
});

test('after a rotation, deliveries carry signatures with the new and the previous secret (each verifies)', async () => {
  const hook = await register({ events: ['project.created'] });
  const rotated = await w.as.owner!('POST', `${A2}/webhooks/${uuidOf(hook.id)}/rotate-secret`);
  assert.equal(rotated.status, 200);
  assert.match(rotated.body.secret, /^whsec_/);
  assert.notEqual(rotated.body.secret, hook.secret);
  await createProject(w.as.projectOwner!);
  await relay();
  const [d] = await receiver.waitFor('project.created');
  assert.equal(d!.headers['webhook-signature']!.split(' ').length, 2);
  verifyDelivery(rotated.body.secret, d!);
  verifyDelivery(hook.secret, d!);
});

test('a rotation during a relay pass: the deliveries sent after it carry the new secret\'s signature, and a changed URL is used at once', async () => {
  const hook = await register({ events: ['project.created'] });
  const other = await startWebhookReceiver();
  try {
    await createProject(w.as.projectOwner!);
    await createProject(w.as.projectOwner!);
    await createProject(w.as.projectOwner!);
    let rotated: { secret: string } | undefined;
    // While the pass holds the endpoint, the first delivery's receipt rotates the secret; the second's moves the endpoint.
    receiver.beforeAnswer = async () => {
      if (!rotated) {
        const res = await w.as.owner!('POST', `${A2}/webhooks/${uuidOf(hook.id)}/rotate-secret`);
        assert.equal(res.status, 200);
        rotated = res.body;
      } else {
        const res = await w.as.owner!('PATCH', `${A2}/webhooks/${uuidOf(hook.id)}`, { url: other.url });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
    };
    await relay();
    assert.equal(receiver.received.length, 2, 'the third delivery goes to the new URL');
    const [first, second] = receiver.received;
    verifyDelivery(hook.secret, first!);
    verifyDelivery(rotated!.secret, second!);
    verifyDelivery(hook.secret, second!);
    const [third] = await other.waitFor('project.created');
    verifyDelivery(rotated!.secret, third!);
  } finally {
    await other.close();
  }
});

test('a rotation is delivered as webhook.secret-rotated with the ids only, never a secret; a replay is not an event an endpoint can name', async () => {
  const watcher = await register({ events: ['webhook.secret-rotated'] });
  const rotatedHook = await register({ events: ['project.created'] });
  const rotated = await w.as.owner!('POST', `${A2}/webhooks/${uuidOf(rotatedHook.id)}/rotate-secret`);
  assert.equal(rotated.status, 200);
  await relay();
  const [d] = await receiver.waitFor('webhook.secret-rotated');
  const payload = verifyDelivery(watcher.secret, d!) as { data: Record<string, string> };
  assert.deepEqual(payload.data, {
    accountId: `urn:svc:account:${ACCOUNT_ID}`, accountApi1Id: api1IdOf(ACCOUNT_ID),
    webhookId: `urn:svc:webhook:${uuidOf(rotatedHook.id)}`, webhookApi1Id: api1IdOf(uuidOf(rotatedHook.id)),
  });
  for (const secret of [rotated.body.secret, rotatedHook.secret, watcher.secret]) {
    assert.ok(!d!.body.includes(secret.slice('whsec_'.length)), 'no secret in the body');
  }
  const refused = await w.as.owner!('POST', `${A2}/webhooks`, { url: receiver.url, events: ['webhook.delivery-replayed'] });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
});

test('a payload never carries what the owner could not read: other accounts, system events and unreadable types are not delivered, extra fields stay behind', async () => {
  const hook = await register({ events: ['*'] });
  const now = new Date();
  await t.core.store.transaction(async (repos) => {
    // Another account's project event.
    await repos.events.publish({ type: 'project.created', accountId: OTHER_ACCOUNT_ID, subject: 'project:x', data: { accountId: OTHER_ACCOUNT_ID, projectId: OTHER_ACCOUNT_ID, projectApi1Id: 'x' } } as never, now);
    // An event about content an administrator reads only as a project member (a file), in this account.
    await repos.events.publish({ type: 'file.registered', accountId: ACCOUNT_ID, subject: 'file:y', data: { accountId: ACCOUNT_ID, fileId: ACCOUNT_ID } } as never, now);
    // A system event.
    await repos.events.publish({ type: 'service.reset', accountId: null, subject: 'service', data: {} }, now);
    // A deliverable event whose data holds more than the ids: the rest stays behind.
    await repos.events.publish({ type: 'project.updated', accountId: ACCOUNT_ID, subject: 'project:z', data: { accountId: ACCOUNT_ID, projectId: ACCOUNT_ID, projectApi1Id: 'x', name: 'Secret name', ownerEmail: 'o@x' } as never }, now);
  });
  await relay();
  const [d] = await receiver.waitFor('project.updated');
  // The endpoint's own webhook.created aside, only the readable event of this account arrived.
  const notAboutWebhooks = (type: string) => !type.startsWith('webhook.');
  assert.deepEqual(receiver.received.map((r) => r.json.type).filter(notAboutWebhooks), ['project.updated']);
  assert.ok(!d!.body.includes('Secret name') && !d!.body.includes('o@x'), d!.body);
  assert.deepEqual(Object.keys(d!.json.data).sort(), ['accountApi1Id', 'accountId', 'projectApi1Id', 'projectId']);
  verifyDelivery(hook.secret, d!);
  const deliveries = (await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries`)).body;
  assert.deepEqual(deliveries.map((x: { type: string }) => x.type).filter(notAboutWebhooks), ['project.updated']);
});

test("the account's user events reach an administrator's endpoint with the user's ids only (roles and inviter stay behind); a user's own credential events never do", async () => {
  const hook = await register({ events: ['*'] });
  const email = `hooked-${Date.now()}@acme.test`;
  const invited = await w.as.owner!('POST', `${A2}/users/bulk-invite`, [{ email, roles: ['projectLister'] }]);
  assert.equal(invited.status, 201, JSON.stringify(invited.body));
  await relay();
  const [d] = await receiver.waitFor('user.invited');
  const payload = verifyDelivery(hook.secret, d!) as { data: Record<string, string> };
  const userUuid = payload.data.userId!.split(':').pop()!;
  assert.deepEqual(payload.data, {
    accountId: `urn:svc:account:${ACCOUNT_ID}`, accountApi1Id: api1IdOf(ACCOUNT_ID),
    userId: `urn:svc:user:${userUuid}`, userApi1Id: api1IdOf(userUuid),
  });
  assert.ok(!d!.body.includes('projectLister') && !d!.body.includes(email), d!.body);
  // Credentials are the user's own business: not deliverable, not even to '*'.
  const refused = await w.as.owner!('POST', `${A2}/webhooks`, { url: receiver.url, events: ['user.password-set'] });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
});

test('a disabled endpoint receives nothing; PATCH enabled:true brings its pending deliveries', async () => {
  const hook = await register({ events: ['project.created'] });
  const off = await w.as.owner!('PATCH', `${A2}/webhooks/${uuidOf(hook.id)}`, { enabled: false });
  assert.equal(off.status, 200);
  assert.equal(off.body.enabled, false);
  await createProject(w.as.projectOwner!);
  await relay();
  assert.equal(receiver.received.length, 0);
  await w.as.owner!('PATCH', `${A2}/webhooks/${uuidOf(hook.id)}`, { enabled: true });
  await createProject(w.as.projectOwner!);
  await relay();
  await receiver.waitFor('project.created', 1);
  assert.equal(receiver.received.length, 1, 'an event published while disabled is not fanned out');
});

test('replay sends a delivered delivery again with the same webhook-id', async () => {
  const hook = await register({ events: ['project.created'] });
  await createProject(w.as.projectOwner!);
  await relay();
  const [first] = await receiver.waitFor('project.created');
  const replay = await w.as.owner!('POST', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries/${first!.headers['webhook-id']}/replay`);
  assert.equal(replay.status, 202, JSON.stringify(replay.body));
  assert.equal(replay.body.state, 'pending');
  await relay();
  const both = await receiver.waitFor('project.created', 2);
  assert.equal(both[1]!.headers['webhook-id'], first!.headers['webhook-id']);
  assert.equal((await w.as.projectManager!('POST', `${A2}/webhooks/${uuidOf(hook.id)}/deliveries/${first!.headers['webhook-id']}/replay`)).status, 403);
});

test('an endpoint whose creator loses the right to manage webhooks (a role change, a removal) is disabled at once, announced, and the owner mailed', async () => {
  const watcher = await w.as.owner!('POST', `${A2}/webhooks`, { url: receiver.url, events: ['webhook.disabled'] });
  assert.equal(watcher.status, 201);
  const registeredBy = async (name: string) => {
    const user = (await t.core.store.repos.users.byEmail(emailOf(name)))!;
    assert.equal((await w.as.owner!('PUT', `${A2}/members/${user.id}/roles`, ['administrator'])).status, 204);
    const as = caller(t, (await t.tokens(emailOf(name))).access_token);
    const res = await as('POST', `${A2}/webhooks`, { url: receiver.url, events: ['project.created'], description: `by ${name}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { userId: user.id, hook: uuidOf(res.body.id as string) };
  };
  const demoted = await registeredBy('dave');
  const removed = await registeredBy('erin');
  const kept = await registeredBy('frank');

  // dave becomes a project lister; erin leaves the account; frank stays an administrator.
  assert.equal((await w.as.owner!('PUT', `${A2}/members/${demoted.userId}/roles`, ['projectLister'])).status, 204);
  assert.equal((await w.as.owner!('DELETE', `${A2}/members`, [removed.userId])).status, 204);
  for (const { hook } of [demoted, removed]) {
    const after = (await w.as.owner!('GET', `${A2}/webhooks/${hook}`)).body;
    assert.equal(after.enabled, false, hook);
    assert.equal(after.disabledReason, 'creator-lost-access');
  }
  assert.equal((await w.as.owner!('GET', `${A2}/webhooks/${kept.hook}`)).body.enabled, true, 'an administrator keeps hers');

  // Nothing more reaches the disabled endpoints; the kept one gets the change.
  receiver.received.length = 0;
  await createProject(w.as.projectOwner!);
  await relay();
  const disabledEvents = await receiver.waitFor('webhook.disabled', 2);
  assert.deepEqual(disabledEvents.map((d) => uuidOf(d.json.data.webhookId!)).sort(), [demoted.hook, removed.hook].sort());
  await receiver.waitFor('project.created', 1);
  assert.equal(receiver.received.filter((r) => r.json.type === 'project.created').length, 1, 'only the kept endpoint');

  // The owner is told, once, by the notice pass.
  assert.equal(await t.core.webhookOwnerNotices.run(), 2);
  assert.equal(await t.core.webhookOwnerNotices.run(), 0);
  const mails = (await outbox(t)).filter((m) => m.subject === 'Webhook disabled in Proj: its creator lost access');
  assert.deepEqual(mails.map((m) => m.to), ['owner@proj.test', 'owner@proj.test']);
  assert.ok(mails.some((m) => m.text.includes(emailOf('dave'))) && mails.some((m) => m.text.includes(emailOf('erin'))));

  // Enabled again by the owner, it is the owner's to answer for: dave's next change leaves it alone.
  const enabled = await w.as.owner!('PATCH', `${A2}/webhooks/${demoted.hook}`, { enabled: true });
  assert.equal(enabled.status, 200);
  assert.equal(enabled.body.createdBy, urn('user', (await t.core.store.repos.users.byEmail(emailOf('owner')))!.id));
  assert.equal((await w.as.owner!('PUT', `${A2}/members/${demoted.userId}/roles`, [])).status, 204);
  assert.equal((await w.as.owner!('GET', `${A2}/webhooks/${demoted.hook}`)).body.enabled, true);
  assert.equal((await w.as.owner!('PUT', `${A2}/members/${kept.userId}/roles`, [])).status, 204); // as the other tests expect
});

// Last: it moves the sandbox clock by a day, past the receivers' timestamp tolerance.
test('an endpoint failing for a day is disabled, with a webhook.disabled event and a mail to the owner and administrators', async () => {
  const watcher = await register({ events: ['webhook.disabled'] });
  const failing = await startWebhookReceiver();
  failing.answer = 503;
  try {
    const hook = await register({ url: failing.url, events: ['project.created'] });
    await createProject(w.as.projectOwner!);
    await relay();
    await failing.waitFor('project.created', 1);
    assert.equal((await w.as.owner!('GET', `${A2}/webhooks/${uuidOf(hook.id)}`)).body.enabled, true);
    for (const hours of [6, 6, 6, 7]) {
      await advanceClock(t, hours * 3600);
      await relay();
    }
    // A day later the morning's access tokens have expired.
    const owner = caller(t, (await t.tokens('owner@proj.test')).access_token);
    const after = (await owner('GET', `${A2}/webhooks/${uuidOf(hook.id)}`)).body;
    assert.equal(after.enabled, false);
    assert.equal(after.disabledReason, 'failing');
    await relay();
    const [event] = await receiver.waitFor('webhook.disabled');
    assert.equal(event!.json.data.webhookId, hook.id);
    assert.ok(watcher.id);
    const mails = (await outbox(t)).filter((m) => m.subject === 'Webhook disabled in Proj');
    assert.deepEqual(mails.map((m) => m.to).sort(), ['administrator@proj.test', 'owner@proj.test']);
    assert.ok(mails.every((m) => m.text.includes(failing.url)));
  } finally {
    await failing.close();
  }
});

