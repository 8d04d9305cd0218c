// The console's request time limit covers the whole answer (console/src/api.ts): a body that
// stops coming, or a connection dropped mid-body, is the same NetworkError a missing head is,
// which every screen shows as "did not answer in time" / "cannot be reached" with Try again.
// A bare AbortError out of res.json() was shown as "The request took too long" instead (CI
// caught it: the account's head had come when the test moved the page's clock).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// console/src/auth.ts (under api.ts) opens the browser's tab channel, a BroadcastChannel, when
// it is loaded; Node has that global too, and an open channel holds this process after its
// tests (TEST_LINGER_SECONDS named it). These tests use no channel: loaded without the global.
const tabChannel = Object.getOwnPropertyDescriptor(globalThis, 'BroadcastChannel')!;
Reflect.deleteProperty(globalThis, 'BroadcastChannel');
const { fetchWithTimeout, NetworkError } = await import('../../console/src/api.ts');
Object.defineProperty(globalThis, 'BroadcastChannel', tabChannel);

let server: Server;
let base = '';
const open = new Set<ServerResponse>();

before(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    if (req.url === '/whole') return void res.end(JSON.stringify({ ok: true }).padEnd(1000, ' '));
    res.write('{"half":');
    // /dropped: the connection ends with the body short; /stalled: the rest never comes.
    if (req.url === '/dropped') setTimeout(() => res.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const res of open) res.socket?.destroy();
  await new Promise((resolve) => server.close(resolve));
});

test('a body that stops coming past the limit is a NetworkError that says it timed out', async () => {
  const res = await fetchWithTimeout(`${base}/stalled`, {}, 300);
  assert.equal(res.status, 200);
  assert.equal(res.url, `${base}/stalled`, 'the answer keeps its address');
  const e = await res.json().then(
    () => null,
    (err: unknown) => err,
  );
  assert.ok(e instanceof NetworkError, `a NetworkError, not ${String(e)}`);
  assert.equal(e.timedOut, true);
  assert.match(e.message, /did not answer in time \(GET http:\/\/127\.0\.0\.1:\d+\/stalled\)/);
});

test('a connection dropped mid-body is a NetworkError that says the service cannot be reached', async () => {
  const res = await fetchWithTimeout(`${base}/dropped`, {}, 10_000);
  const e = await res.arrayBuffer().then(
    () => null,
    (err: unknown) => err,
  );
  assert.ok(e instanceof NetworkError, `a NetworkError, not ${String(e)}`);
  assert.equal(e.timedOut, false);
});

test("the caller's own cancel mid-body stays the caller's abort, not a failure of the service", async () => {
  const cancel = new AbortController();
  const res = await fetchWithTimeout(`${base}/stalled`, { signal: cancel.signal }, 10_000);
  const reading = res.text();
  cancel.abort();
  const e = await reading.then(
    () => null,
    (err: unknown) => err,
  );
  assert.ok(!(e instanceof NetworkError), `the caller's abort, not ${String(e)}`);
  assert.equal((e as Error).name, 'AbortError');
});

test('a whole answer within the limit reads as it came', async () => {
  const res = await fetchWithTimeout(`${base}/whole`, {}, 10_000);
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.deepEqual(await res.json(), { ok: true });
});

test('a null-body status (204) with an empty body stream, as Chromium answers it, comes back as it came, not as a Response that cannot be made', async (t) => {
  // Node's fetch gives a 204 no body at all; Chromium's gives an empty stream, and
  // new Response(stream, { status: 204 }) throws.
  const chromium204 = { status: 204, statusText: 'No Content', headers: new Headers(), body: new ReadableStream(), url: '/api/2/x', ok: true };
  t.mock.method(globalThis, 'fetch', async () => chromium204 as unknown as Response);
  const res = await fetchWithTimeout('/api/2/x', { method: 'DELETE' }, 10_000);
  assert.equal(res, chromium204 as unknown as Response);
});
