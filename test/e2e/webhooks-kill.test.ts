// At least once across a crash (docs/webhooks.md "Delivery"): a started server sends a
// webhook delivery to a real receiver that holds the request unanswered; the server is killed
// with SIGKILL mid-delivery and started again on the same data; once the dead node's lease on
// the endpoint ends, the restarted one sends the delivery again (same webhook-id) and the
// receiver, answering now, gets it, verified with the standardwebhooks library.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, type RunningServer } from '../support/server.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';
import { bearerCall, operatorCall } from '../support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.ts';

const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
// A 2 s send timeout makes the endpoint lease 9 s (src/modules/webhooks/core/relay.ts leaseSecondsFor).
const ENV: Record<string, string> = {
  OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, LOG_LEVEL: 'info', WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1', WEBHOOKS_TARGET_PORTS: 'any', WEBHOOKS_RELAY_INTERVAL: '1', WEBHOOKS_TIMEOUT: '2', WEBHOOKS_RETRY_SECONDS: '1',
};
let server: RunningServer | undefined;
let receiver: WebhookReceiver | undefined;
let db: { url: string; drop: () => Promise<void> } | undefined;

after(async () => {
  await server?.stop();
  await receiver?.close();
  await db?.drop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

test('no delivery is lost across a kill -9 of the sending node: after restart the delivery arrives, same webhook-id', async () => {
  db = TEST_DATABASE_URL ? await freshPostgresUrl(TEST_DATABASE_URL) : undefined;
  const env = db ? { ...ENV, DATABASE_URL: db.url } : ENV;
  receiver = await startWebhookReceiver();
  receiver.answer = 'hang';
  server = await startServer(env);
  const operator = (method: string, p: string, body?: unknown) => operatorCall(server!.url, E2E_OPERATOR_TOKEN, method, p, body);
  await operator('POST', '/seed', PROJECT_SEED);
  let token = (await operator('POST', '/tokens', { email: emailOf('owner') })).access_token as string;
  const api = (method: string, p: string, body?: unknown) => bearerCall(server!.url, token, method, p, body, 'manual');
  // Projects are created by a project manager (the account owner lacks account:projects:create).
  const managerToken = (await operator('POST', '/tokens', { email: emailOf('projectOwner') })).access_token as string;

  const hook = await api('POST', `${A2}/webhooks`, { url: receiver.url, events: ['project.created'] });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const project = await bearerCall(server.url, managerToken, 'POST', `${A2}/projects`, { name: 'Crash', subscriptionId: SUB_A }, 'manual');
  assert.equal(project.status, 201, JSON.stringify(project.body));

  // The delivery is in flight: the receiver holds it. Kill the node now.
  const [inFlight] = await receiver.waitFor('project.created', 1);
  await server.kill();
  receiver.answer = 204;

  server = await startServer({ ...env, PORT: String(server.port) }, { dataDir: server.dataDir });
  token = (await operator('POST', '/tokens', { email: emailOf('owner') })).access_token;
  const started = Date.now();
  const [, again] = await receiver.waitFor('project.created', 2, 30_000);
  assert.equal(again!.headers['webhook-id'], inFlight!.headers['webhook-id']);
  assert.equal(again!.body, inFlight!.body);
  const payload = verifyDelivery(hook.body.secret, again!) as { data: { projectId: string } };
  assert.equal(payload.data.projectId, project.body.id);
  const deliveries = await api('GET', `${A2}/webhooks/${hook.body.id}/deliveries`);
  assert.equal(deliveries.status, 200);
  const [d] = deliveries.body;
  assert.equal(d.state, 'delivered');
  assert.equal(d.id, again!.headers['webhook-id']);
  assert.ok(Date.now() - started < 30_000);
  assert.match(server.logs(), /webhooks: private targets ALLOWED/);
  assert.ok(!server.logs().includes(hook.body.secret.slice('whsec_'.length)), 'the secret is never logged');
});
