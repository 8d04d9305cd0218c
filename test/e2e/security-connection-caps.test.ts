// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// One client must not hold every connection (docs/security.md "Slow clients"): a /_blobs
// request is exempt from BODY_TIMEOUT only once its upload signature is verified, a
// refused /_blobs request and a 404 with a body unread close their connection at once,
// and MAX_CONNECTIONS_PER_ADDRESS caps the connections of one client address (the peer's,
// or after TRUST_PROXY the one its proxy forwards). Raw sockets against started servers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { startServer, type RunningServer } from '../support/server.ts';

/** The setting: a cap of 30 connections, every one of them a slow body. */
let slowBodies: RunningServer;
/** Per-address caps: 3 connections per client address; 127.0.0.2 is a trusted proxy. */
let capped: RunningServer;
const PER_ADDRESS = 3;

before(async () => {
  [slowBodies, capped] = await Promise.all([
    startServer({ BODY_TIMEOUT: '3', HEADERS_TIMEOUT: '3', MAX_CONNECTIONS: '30', MAX_CONNECTIONS_PER_ADDRESS: '0' }),
    startServer({ MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS), TRUST_PROXY: '127.0.0.2', RATE_LIMIT_ADDRESS_RATE: '0' }),
  ]);
});
after(async () => {
  for (const s of [slowBodies, capped]) {
    await s?.stop();
    if (s) fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
});

interface Client {
  socket: net.Socket;
  /** What the server wrote so far. */
  text(): string;
  /** Resolves when the server closed the connection, with ms since connecting. */
  closed: Promise<number>;
}

/** Connects (from `from`), writes `head`, then a byte of body every `everyMs` until the server closes. */
function client(port: number, head: string, opts: { everyMs?: number; from?: string } = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: opts.from });
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => {}); // a reset while still sending is expected; 'close' reports it
    const closed = new Promise<number>((r) =>
      socket.on('close', () => {
        clearInterval(timer);
        r(Date.now() - started);
      }),
    );
    socket.once('error', reject);
    socket.on('connect', () => {
      socket.off('error', reject);
      socket.write(head);
      if (opts.everyMs) {
        timer = setInterval(() => {
          if (!socket.destroyed && !socket.writableEnded) socket.write('a');
        }, opts.everyMs);
      }
      resolve({ socket, text: () => text, closed });
    });
  });
}

/** GET /livez on a connection of its own: the status, or null when the connection closed without one. */
async function livez(port: number, from?: string, headers = ''): Promise<number | null> {
  const c = await client(port, `GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`, { from });
  await Promise.race([c.closed, new Promise((r) => setTimeout(r, 2000))]);
  c.socket.destroy();
  const m = /^HTTP\/1\.1 (\d{3}) /.exec(c.text());
  return m ? Number(m[1]) : null;
}

test('slow bodies: 30 unauthenticated POST /_blobs/x bodies trickled a byte at a time do not keep /livez down (404 and closed at once)', async () => {
  const heads = Array.from({ length: 30 }, (_, i) => {
    // With and without a content type: neither is parsed before the 404.
    const type = i % 2 ? 'Content-Type: application/json\r\n' : 'Content-Type: application/octet-stream\r\n';
    return `POST /_blobs/x${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n${type}Content-Length: 100000\r\n\r\n`;
  });
  const clients: Client[] = [];
  try {
    for (const head of heads) clients.push(await client(slowBodies.port, head, { everyMs: 200 }));
    const started = Date.now();
    let status: number | null = null;
    // BODY_TIMEOUT is 3 s: /livez must answer before it (the slow requests are closed at once), not after it.
    while (Date.now() - started < 3000 && status !== 200) {
      status = await livez(slowBodies.port);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200, `/livez answered ${status} within the body deadline`);
    const closedAfter = await Promise.all(clients.map((c) => Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(-1), 3000))])));
    for (const [i, c] of clients.entries()) {
      assert.match(c.text(), /^HTTP\/1\.1 404 /, c.text());
      assert.match(c.text(), /\r\nconnection: close\r\n/i);
      assert.ok(closedAfter[i]! >= 0 && closedAfter[i]! < 2500, `connection ${i} closed after ${closedAfter[i]} ms`);
    }
  } finally {
    for (const c of clients) c.socket.destroy();
  }
});

test('a /_blobs upload whose signature is refused is answered 403 at once and its connection closed, the body unread', async () => {
  const c = await client(
    slowBodies.port,
    'PUT /_blobs/uploads/x?expires=1&signature=nope HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n',
    { everyMs: 200 },
  );
  const closedAfter = await Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
  c.socket.destroy();
  assert.match(c.text(), /^HTTP\/1\.1 403 /, c.text());
  assert.match(c.text(), /\r\nconnection: close\r\n/i);
  assert.ok(closedAfter >= 0 && closedAfter < 2000, `closed after ${closedAfter} ms`);
});

test('a /_blobs GET trickling a body is refused and closed at once, not drained (only a verified upload outlives BODY_TIMEOUT)', async () => {
  // A GET with a body is read (Node drains it to keep the connection) after its refusal...
  // unless closed: either way the connection must not outlive BODY_TIMEOUT.
  const c = await client(slowBodies.port, 'GET /_blobs/uploads/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n', {
    everyMs: 200,
  });
  const closedAfter = await Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(-1), 8000))]);
  c.socket.destroy();
  assert.ok(closedAfter >= 0 && closedAfter < 4500, `closed after ${closedAfter} ms`);
});

test('MAX_CONNECTIONS_PER_ADDRESS: one address past its cap is closed at once, another address is still served', async () => {
  const held: Client[] = [];
  try {
    for (let i = 0; i < PER_ADDRESS; i++) held.push(await client(capped.port, '', { from: '127.0.0.1' }));
    await new Promise((r) => setTimeout(r, 200)); // accepted
    const extra = await client(capped.port, 'GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { from: '127.0.0.1' });
    const closedAfter = await Promise.race([extra.closed, new Promise<number>((r) => setTimeout(() => r(-1), 3000))]);
    extra.socket.destroy();
    assert.equal(extra.text(), '', 'no answer: closed at once');
    assert.ok(closedAfter >= 0 && closedAfter < 1000, `closed after ${closedAfter} ms`);
    assert.equal(await livez(capped.port, '127.0.0.3'), 200, 'another address is served');
  } finally {
    for (const c of held) c.socket.destroy();
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await livez(capped.port, '127.0.0.1'), 200, 'served again once its connections closed');
});

test('MAX_CONNECTIONS_PER_ADDRESS after TRUST_PROXY: behind a trusted proxy, connections count for the forwarded client address', async () => {
  const forwarded = (address: string) => `X-Forwarded-For: ${address}\r\n`;
  const held: Client[] = [];
  try {
    // The proxy (127.0.0.2) holds PER_ADDRESS kept-alive connections for one client.
    for (let i = 0; i < PER_ADDRESS; i++) {
      const c = await client(capped.port, `GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n${forwarded('198.51.100.7')}\r\n`, { from: '127.0.0.2' });
      held.push(c);
    }
    for (const c of held) {
      for (let wait = 0; !c.text().includes('\r\n\r\n') && wait < 40; wait++) await new Promise((r) => setTimeout(r, 50));
      assert.match(c.text(), /^HTTP\/1\.1 200 /, c.text());
    }
    // One more for the same client: refused, in the surface's format, and closed.
    const refused = await client(capped.port, `GET /api/2/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n${forwarded('198.51.100.7')}\r\n`, {
      from: '127.0.0.2',
    });
    await Promise.race([refused.closed, new Promise((r) => setTimeout(r, 3000))]);
    refused.socket.destroy();
    assert.match(refused.text(), /^HTTP\/1\.1 429 /, refused.text());
    assert.match(refused.text(), /too-many-connections/);
    assert.match(refused.text(), /\r\nconnection: close\r\n/i);
    // The proxy's connections for other clients are served.
    assert.equal(await livez(capped.port, '127.0.0.2', forwarded('198.51.100.8')), 200);
  } finally {
    for (const c of held) c.socket.destroy();
  }
});
