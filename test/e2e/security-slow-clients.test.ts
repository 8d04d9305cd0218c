// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// Slow clients against a started server (docs/security.md "Slow clients"), with raw
// sockets and short limits set through the environment: a body trickled one byte at a
// time is cut with 408 at BODY_TIMEOUT, headers that never end at HEADERS_TIMEOUT,
// connections past MAX_CONNECTIONS are closed at once, a connection idle both ways is
// closed at IDLE_TIMEOUT, and a signed /_blobs upload slower than BODY_TIMEOUT still
// completes (it keeps its own idle rule).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { startServer, type RunningServer } from '../support/server.ts';
import { E2E_OPERATOR_TOKEN } from '../support/oauth-client.ts';
import { bearerCall, operatorCall, uploadHeaders } from '../support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';

const MAX_CONNECTIONS = 6;
let server: RunningServer;

before(async () => {
  server = await startServer({
    OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
    SANDBOX: '1',
    BODY_TIMEOUT: '2',
    HEADERS_TIMEOUT: '2',
    IDLE_TIMEOUT: '2',
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
});
after(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

interface Outcome {
  /** What the server wrote before closing. */
  text: string;
  /** Milliseconds from connect to the server closing the connection. */
  closedAfterMs: number;
}

/** Connects, writes `head`, then one byte of `trickle` every `everyMs` until the server closes. */
function slowClient(head: string, trickle: string, everyMs: number, giveUpMs = 15_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(server.port, '127.0.0.1');
    let text = '';
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms; got: ${text}`));
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => {}); // a reset after the answer is expected; 'close' reports it
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.destroyed || socket.writableEnded) return;
        socket.write(trickle[i++ % trickle.length]!);
      }, everyMs);
    });
  });
}

test('slow body: POST /oauth/token trickling its body one byte at a time is cut with 408 at BODY_TIMEOUT', async () => {
  const head =
    'POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n';
  const out = await slowClient(head, 'a', 300);
  assert.match(out.text, /^HTTP\/1\.1 408 /, out.text);
  // In the token endpoint's own format (RFC 6749 §5.2), as every answer on that path.
  assert.match(out.text, /\{"error":"invalid_request","error_description":"The request body did not arrive in time"\}/);
  assert.match(out.text, /x-content-type-options: nosniff/i);
  assert.ok(out.closedAfterMs >= 1900 && out.closedAfterMs < 8000, `closed after ${out.closedAfterMs} ms`);
});

test('slow headers: a request whose headers never end is cut with 408 at HEADERS_TIMEOUT', async () => {
  const out = await slowClient('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n', 300);
  assert.match(out.text, /^HTTP\/1\.1 408 /, out.text);
  assert.ok(out.closedAfterMs >= 1900 && out.closedAfterMs < 8000, `closed after ${out.closedAfterMs} ms`);
});

test('idle: a kept-alive connection with no traffic either way is closed at IDLE_TIMEOUT (the one idle rule: no keep-alive timer, no Keep-Alive header)', async () => {
  const { text, quietForMs } = await new Promise<{ text: string; quietForMs: number }>((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let text = '';
    let lastByteAt = Date.now();
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the idle connection was kept for 10 s; got: ${text}`));
    }, 10_000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      lastByteAt = Date.now();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ text, quietForMs: Date.now() - lastByteAt });
    });
    socket.on('connect', () => socket.write('GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
  });
  assert.match(text, /^HTTP\/1\.1 200 /, text);
  assert.match(text, /\r\nconnection: keep-alive\r\n/i, 'the answer kept the connection');
  assert.doesNotMatch(text, /\r\nkeep-alive:/i, 'no Keep-Alive header: HTTP/1.1 persists without it, and it cost every answer a header line');
  // Swept every quarter of the limit: cut between 2 s and 2.5 s after the last byte (slack for a busy machine).
  assert.ok(quietForMs >= 1900 && quietForMs < 5000, `closed ${quietForMs} ms after the last byte`);
});

test('MAX_CONNECTIONS: connections past the cap are closed at once; the node answers again once they go', async () => {
  const open: net.Socket[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const s = net.connect(server.port, '127.0.0.1');
      s.on('error', () => {});
      await new Promise((r) => s.once('connect', r));
      open.push(s);
    }
    await new Promise((r) => setTimeout(r, 200)); // the server has accepted them all
    const extra = await slowClient('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '', 1000, 5000);
    assert.equal(extra.text, '', 'no answer: closed at once');
    assert.ok(extra.closedAfterMs < 1000, `closed after ${extra.closedAfterMs} ms`);
  } finally {
    for (const s of open) s.destroy();
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
});

test('uploads: a signed /_blobs PUT slower than BODY_TIMEOUT completes (uploads keep their own idle rule)', async (t) => {
  // A server of its own with the default idle rule: fetch keeps connections for 4 s, and the
  // 2 s IDLE_TIMEOUT of the other server would close them under its feet between calls.
  const server = await startServer({ OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, SANDBOX: '1', BODY_TIMEOUT: '2', HEADERS_TIMEOUT: '2' });
  t.after(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
  const operator = (method: string, p: string, body?: unknown) => operatorCall(server.url, E2E_OPERATOR_TOKEN, method, p, body);
  await operator('POST', '/seed', PROJECT_SEED);
  const token = (await operator('POST', '/tokens', { email: emailOf('projectOwner') })).access_token as string;
  const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
  const project = await bearerCall(server.url, token, 'POST', `${A2}/projects`, { name: 'Slow upload', subscriptionId: SUB_A });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const content = crypto.randomBytes(64);
  const md5 = crypto.createHash('md5').update(content).digest('hex');
  const signed = await bearerCall(server.url, token, 'POST', `${A2}/projects/${project.body.id}/workzones/${project.body.rootWorkzoneId}/bulk-files`, [
    { name: 'Slow', extension: 'e57', size: content.length, md5 },
  ]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  const url = new URL(signed.body.files[0].url as string);
  const headers = Object.entries({ ...uploadHeaders(content), 'content-length': String(content.length), host: url.host })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  // 64 bytes in 8 chunks, one every 400 ms: ~3.2 s, past BODY_TIMEOUT (2 s).
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.on('connect', async () => {
      socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\n${headers}\r\n`);
      for (let i = 0; i < 8; i++) {
        await new Promise((r) => setTimeout(r, 400));
        socket.write(content.subarray(i * 8, i * 8 + 8));
      }
    });
  });
  assert.match(answer, /^HTTP\/1\.1 201 /, answer);
});
