// Two nodes on one PostgreSQL database (docs/webhooks.md "Delivery"): both relay passes run
// at once, over and over, against one endpoint; the receiver never has two requests of it in
// progress (one node at a time per endpoint), gets each delivery once, and each project's
// events in the order they were written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import { TEST_DATABASE_URL, migratedDatabase, type TestDatabase } from '../support/database.ts';
import { A2, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.ts';

const skip = TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (two nodes share a PostgreSQL database)';
let db: TestDatabase;
const nodes: { core: Core; app: App }[] = [];
let receiver: WebhookReceiver;

before(async () => {
  if (skip) return;
  db = await migratedDatabase('postgres');
  for (let i = 0; i < 2; i++) {
    const config = loadConfig({
      DATABASE_URL: db.url!, OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL, WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1', WEBHOOKS_TARGET_PORTS: 'any', WEBHOOKS_RELAY_INTERVAL: '3600',
    });
    const core = await compose(config);
    nodes.push({ core, app: await buildApp(core) });
  }
  receiver = await startWebhookReceiver();
  receiver.delayMs = 5;
});
after(async () => {
  if (skip) return;
  await receiver.close();
  for (const n of nodes) {
    await n.app.close();
    await n.core.close();
  }
  await db.drop();
});

test('two nodes relaying at once: one request at a time per endpoint, each delivery once, per-project order kept', { skip }, async () => {
  const [a] = nodes as [{ core: Core; app: App }];
  const inject = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload: object | undefined, token: string) => {
    const res = await a.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, body: res.json() };
  };
  const op = async (url: string, payload: object) =>
    (await a.app.inject({ method: 'POST', url: `/_operator${url}`, payload, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json();
  await op('/seed', PROJECT_SEED);
  const owner = (await op('/tokens', { email: emailOf('owner') })).access_token as string;
  const manager = (await op('/tokens', { email: emailOf('projectOwner') })).access_token as string;
  const hook = await inject('POST', `${A2}/webhooks`, { url: receiver.url, events: ['project.created', 'project.updated'] }, owner);
  assert.equal(hook.status, 201, JSON.stringify(hook.body));

  const projects: string[] = [];
  for (let i = 0; i < 4; i++) {
    const p = await inject('POST', `${A2}/projects`, { name: `Cluster ${i}`, subscriptionId: SUB_A }, manager);
    assert.equal(p.status, 201, JSON.stringify(p.body));
    projects.push(p.body.id);
  }
  for (let round = 1; round <= 5; round++) {
    for (const id of projects) {
      assert.equal((await inject('PATCH', `${A2}/projects/${id.slice(id.lastIndexOf(':') + 1)}`, { name: `Round ${round}` }, manager)).status, 200);
    }
  }
  const expected = projects.length * 6;
  const deadline = Date.now() + 30_000;
  while (receiver.received.length < expected && Date.now() < deadline) {
    await Promise.all(nodes.map((n) => n.core.webhookRelay.run()));
  }
  assert.equal(receiver.received.length, expected);
  assert.equal(receiver.maxInFlight, 1, 'never two requests of one endpoint at once');
  const ids = receiver.received.map((r) => r.headers['webhook-id']);
  assert.equal(new Set(ids).size, ids.length, 'each delivery once');
  for (const r of receiver.received) verifyDelivery(hook.body.secret, r);
  for (const id of projects) {
    const timestamps = receiver.received.filter((r) => r.json.data.projectId === id).map((r) => r.json.timestamp);
    assert.deepEqual(timestamps, [...timestamps].sort(), `the events of ${id} in order`);
    assert.equal(timestamps.length, 6);
  }
});
