// The LISTEN connection's heartbeat (docs/operations.md "Cross-node invalidation"): a
// connection that goes silent (no FIN, no RST: a NAT or firewall forgetting it) is noticed
// within the heartbeat's deadline, replaced, '*' delivered so every cache drops, and its
// state shows while it is being replaced. The silence is made by a loopback TCP relay in
// front of PostgreSQL that stops forwarding the bytes of the connections it holds. Needs
// TEST_DATABASE_URL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import pg from 'pg';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';
import { listen } from '../../src/adapters/postgres/node-postgres.ts';
import { silentLogger } from '../../src/core/ports/telemetry.ts';

/** A TCP relay to `target` whose current connections can be frozen: their bytes stop flowing both ways, nothing is closed. */
async function freezableRelay(target: { host: string; port: number }) {
  const pairs: { client: net.Socket; server: net.Socket; frozen: boolean }[] = [];
  const relay = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    const pair = { client, server, frozen: false };
    pairs.push(pair);
    client.on('data', (d) => {
      if (!pair.frozen) server.write(d);
    });
    server.on('data', (d) => {
      if (!pair.frozen) client.write(d);
    });
    const end = () => {
      client.destroy();
      server.destroy();
    };
    client.on('close', end);
    server.on('close', end);
    client.on('error', end);
    server.on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as net.AddressInfo).port,
    /** Silences every connection open now. */
    freeze: () => pairs.forEach((p) => (p.frozen = true)),
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.server.destroy();
      }
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

const until = async (what: string, check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('LISTEN heartbeat (PostgreSQL)', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
  let db: Awaited<ReturnType<typeof freshPostgresUrl>>;
  let relay: Awaited<ReturnType<typeof freezableRelay>>;
  let notifier: pg.Client;

  before(async () => {
    db = await freshPostgresUrl(TEST_DATABASE_URL!);
    const direct = new URL(db.url);
    relay = await freezableRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    notifier = new pg.Client({ connectionString: db.url });
    await notifier.connect();
  });
  after(async () => {
    await notifier?.end();
    await relay?.close();
    await db?.drop();
  });

  test('LISTEN heartbeat rule: a connection gone silent is replaced within the deadline, "*" is delivered, and its state shows meanwhile', async () => {
    const viaRelay = new URL(db.url);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const got: string[] = [];
    const unlisten = await listen(viaRelay.toString(), 'heartbeat_test', (m) => got.push(m), silentLogger, { everyMs: 200, deadlineMs: 300 });
    try {
      assert.equal(typeof unlisten.state, 'function', 'the LISTEN answers its state');
      assert.equal(unlisten.state!().state, 'listening');
      await notifier.query(`SELECT pg_notify('heartbeat_test', 'one')`);
      await until('the first notification', () => got.includes('one'));
      await until('a heartbeat back', () => unlisten.state!().lastHeartbeatAt !== null);

      relay.freeze(); // the connection stays open, and silent
      await notifier.query(`SELECT pg_notify('heartbeat_test', 'lost')`);
      const states = new Set<string>();
      const watch = setInterval(() => states.add(unlisten.state!().state), 10);
      try {
        // Replaced: '*' says messages may have been missed (every cache drops), and it listens again.
        await until('"*" after the replacement', () => got.includes('*'), 3000);
      } finally {
        clearInterval(watch);
      }
      assert.ok(states.has('reconnecting'), `the state showed the replacement: ${[...states].join(', ')}`);
      assert.equal(unlisten.state!().state, 'listening');
      assert.equal(unlisten.state!().reconnects, 1);
      assert.ok(!got.includes('lost'), 'the frozen connection delivered nothing');
      await notifier.query(`SELECT pg_notify('heartbeat_test', 'two')`);
      await until('notifications after the replacement', () => got.includes('two'));
    } finally {
      await unlisten();
    }
    assert.equal(unlisten.state!().state, 'closed');
  });
});
