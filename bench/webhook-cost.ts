// The cost of an event (webhooks issue): the same write, a project rename, in an account
// with no webhook and in one with two endpoints subscribed to project.updated. The bench
// process receives the deliveries itself (a node:http server answering 204), so the "with"
// figure includes the fan-out in the event's own statement and the relay's sending on the
// server; the ratio of the two is reported in the same run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScanbaseServer } from './servers.ts';
import type { BenchRequest } from './scenarios.ts';
import { BENCH_USER } from './servers.ts';
import { call } from './bench-account.ts';

export const WEBHOOK_ENDPOINTS = 2;

/** Counts what arrives; never kept alive past the bench (unref'd). */
let receiver: Promise<{ url: string; received: () => number }> | undefined;
function startReceiver() {
  receiver ??= new Promise((resolve) => {
    let received = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(204).end();
      });
    });
    // How many deliveries the servers sent during the run (they keep sending after a scenario's rounds).
    process.once('exit', () => console.log(`bench: the webhook receiver got ${received} deliveries`));
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received: () => received });
    });
  });
  return receiver;
}

/** PATCH of a project's name in a fresh account of its own, with `endpoints` webhooks registered on it. */
export const projectRename = (endpoints: number) => async (server: ScanbaseServer): Promise<BenchRequest> => {
  const name = `Bench events ${endpoints}`;
  const seeded = await server.operator<{ accounts: { name: string; id: string }[] }>('POST', '/seed', {
    accounts: [{ name, owner: BENCH_USER.email, projectManagers: [BENCH_USER.email], subscriptions: [{ name: 'Events' }] }],
  });
  const accountId = seeded.accounts.find((a) => a.name === name)!.id;
  const token = await server.accessTokenFor(BENCH_USER.email);
  const base = `/api/2/accounts/${accountId}`;
  const [subscription] = await call<{ id: string }[]>(server, token, 'GET', `${base}/subscriptions`);
  const project = await call<{ id: string }>(server, token, 'POST', `${base}/projects`, { name: 'Renamed', subscriptionId: subscription!.id });
  const { url } = await startReceiver();
  for (let i = 0; i < endpoints; i++) await call(server, token, 'POST', `${base}/webhooks`, { url, events: ['project.updated'] });
  return {
    method: 'PATCH',
    path: `${base}/projects/${project.id}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Renamed' }),
  };
};
