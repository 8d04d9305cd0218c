// Webhook delivery fairness (docs/webhooks.md "Fairness"): one tenant's endpoint that accepts
// connections and never answers (a tarpit) must not delay another tenant's deliveries. The
// relay runs on its own schedule here (WEBHOOKS_RELAY_INTERVAL=1), as on a real node, with a
// 2 s send timeout; the other account's delivery latency is measured from the change to the
// receiver.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, ACCOUNT_ID, OTHER_ACCOUNT_ID, caller, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { sampleValue } from '../support/metrics-text.ts';
import type { DomainEvent } from '../../src/core/events/domain-events.ts';

let t: TestApp;
let w: World;
let tarpit: WebhookReceiver;
let normal: WebhookReceiver;

before(async () => {
  t = await testApp({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1', WEBHOOKS_TARGET_PORTS: 'any', WEBHOOKS_RELAY_INTERVAL: '1', WEBHOOKS_TIMEOUT: '2' });
  w = await projectWorld(t);
  tarpit = await startWebhookReceiver();
  tarpit.answer = 'hang';
  normal = await startWebhookReceiver();
});
after(async () => {
  await tarpit.close();
  await normal.close();
  await t.close();
});

/** A project event of `accountId` about a subject of its own, published as a change would. */
const publishProjectEvent = (accountId: string) =>
  t.core.store.transaction(async (repos) => {
    const projectId = crypto.randomUUID();
    await repos.events.publish(
      { type: 'project.updated', accountId, subject: `project:${projectId}`, data: { accountId, projectId, projectApi1Id: 'x', fields: ['name'] } } as DomainEvent,
      t.core.clock.now(),
    );
    return `urn:svc:project:${projectId}`;
  });

test("webhook fairness: a tarpit endpoint in one account does not delay another account's deliveries (latency bounded, not growing with the tarpit's queue)", async () => {
  const hung = await w.as.administrator!('POST', `${A2}/webhooks`, { url: tarpit.url, events: ['project.updated'] });
  assert.equal(hung.status, 201, JSON.stringify(hung.body));
  const otherOwner = caller(t, (await t.tokens(emailOf('other-owner'))).access_token);
  const fine = await otherOwner('POST', `/api/2/accounts/${OTHER_ACCOUNT_ID}/webhooks`, { url: normal.url, events: ['project.updated'] });
  assert.equal(fine.status, 201, JSON.stringify(fine.body));

  // The tarpit's account queues 12 deliveries of 12 subjects (each would hold a sender for 2 s).
  for (let i = 0; i < 12; i++) await publishProjectEvent(ACCOUNT_ID);
  await tarpit.waitFor('project.updated', 1);

  // The other account's changes, one after the other, each delivered within a few seconds.
  const latencies: number[] = [];
  for (let i = 0; i < 4; i++) {
    const started = Date.now();
    const projectId = await publishProjectEvent(OTHER_ACCOUNT_ID);
    for (;;) {
      if (normal.received.some((r) => r.json.data.projectId === projectId)) break;
      assert.ok(Date.now() - started < 15_000, `delivery ${i} not received within 15 s`);
      await new Promise((r) => setTimeout(r, 25));
    }
    latencies.push(Date.now() - started);
  }
  // A pass every second, a send in milliseconds: well under the tarpit's 12 × 2 s.
  for (const ms of latencies) assert.ok(ms < 4000, `latencies ${latencies.join(', ')} ms`);

  // The tarpit was tried once and paused as a whole (the circuit breaker), not once per subject.
  assert.equal(tarpit.received.length, 1, 'one attempt at the tarpit, then its endpoint backs off');
  const pending = (await w.as.administrator!('GET', `${A2}/webhooks/${uuidOf(hung.body.id)}/deliveries?state=pending`)).body;
  assert.equal(pending.length, 12);
  assert.deepEqual(
    pending.filter((d: { attempts: number }) => d.attempts > 0).map((d: { lastError: string }) => d.lastError),
    ['timeout'],
  );

  // Per-account delivery lag: the tarpit's account waits, the other's does not.
  // (The relay records a delivery once the receiver's answer is back: the last one of the
  // other account may still be in hand for a moment after the receiver saw it.)
  let metrics = await t.core.metrics.text();
  for (let i = 0; i < 50 && sampleValue(metrics, 'scanbase_webhook_delivery_lag_seconds', { account: OTHER_ACCOUNT_ID }) !== undefined; i++) {
    await new Promise((r) => setTimeout(r, 100));
    metrics = await t.core.metrics.text();
  }
  assert.ok(sampleValue(metrics, 'scanbase_webhook_delivery_lag_seconds', { account: ACCOUNT_ID })! > 0, 'the waiting account shows its lag');
  assert.equal(sampleValue(metrics, 'scanbase_webhook_delivery_lag_seconds', { account: OTHER_ACCOUNT_ID }), undefined, 'nothing waits in the other');
});
