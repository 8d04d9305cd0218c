// @engine-independent: no database.
// Retries with back-off against a fake server: 429 after Retry-After, 502–504 and
// connection resets for idempotent requests only; 401 refreshes once (single flight).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScanbaseClient, MemoryTokenStore, ScanbaseError, TokenManager, backoffMs, DEFAULT_RETRY } from '../src/index.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;
const routes = new Map<string, { handler: Handler; hits: number; auth: string[] }>();
let server: http.Server;
let base: string;

const route = (path: string, handler: Handler) => {
  const r = { handler, hits: 0, auth: [] as string[] };
  routes.set(path, r);
  return r;
};
const problem = (res: http.ServerResponse, status: number, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/problem+json', ...headers })
    .end(JSON.stringify({ type: 'about:blank', status, title: 'x', detail: `status ${status}`, errorCode: `e${status}` }));

before(async () => {
  server = http.createServer((req, res) => {
    const r = routes.get(new URL(req.url!, 'http://x').pathname);
    if (!r) return void res.writeHead(404).end();
    r.hits++;
    r.auth.push(String(req.headers.authorization));
    req.resume();
    req.on('end', () => r.handler(req, res, r.hits));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const fast = { baseDelayMs: 5, maxDelayMs: 20 };

test('retry: a GET answered 503, 502, 504 is sent again until it succeeds', async () => {
  const r = route('/flaky', (_q, res, n) => (n <= 3 ? problem(res, [503, 502, 504][n - 1]!) : res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
  const c = createScanbaseClient({ baseUrl: base, accessToken: 't', retry: fast });
  const res = await c.fetch('/flaky');
  assert.deepEqual(await res.json(), { ok: true });
  assert.equal(r.hits, 4);
});

test('retry: a POST answered 503 is not sent again, and throws the typed error', async () => {
  const r = route('/post503', (_q, res) => problem(res, 503));
  const c = createScanbaseClient({ baseUrl: base, accessToken: 't', retry: fast });
  await assert.rejects(c.fetch('/post503', { method: 'POST', body: '{}' }), (e: unknown) => e instanceof ScanbaseError && e.status === 503 && e.errorCode === 'e503');
  assert.equal(r.hits, 1);
});

test('retry: 429 waits for Retry-After (any method), then succeeds', async () => {
  const r = route('/limited', (_q, res, n) => (n === 1 ? problem(res, 429, { 'retry-after': '1' }) : res.writeHead(204).end()));
  const c = createScanbaseClient({ baseUrl: base, accessToken: 't', retry: fast });
  const t0 = Date.now();
  const res = await c.fetch('/limited', { method: 'POST', body: '{"a":1}' });
  assert.equal(res.status, 204);
  assert.ok(Date.now() - t0 >= 950, `waited ${Date.now() - t0} ms`);
  assert.equal(r.hits, 2);
});

test('retry: a connection reset is retried for GET, not for POST (status 0, connection-failed)', async () => {
  const get = route('/reset-get', (q, res, n) => (n === 1 ? q.socket.destroy() : res.writeHead(200).end('fine')));
  const c = createScanbaseClient({ baseUrl: base, accessToken: 't', retry: fast });
  assert.equal(await (await c.fetch('/reset-get')).text(), 'fine');
  assert.equal(get.hits, 2);
  const post = route('/reset-post', (q) => q.socket.destroy());
  await assert.rejects(c.fetch('/reset-post', { method: 'POST', body: 'x' }), (e: unknown) => e instanceof ScanbaseError && e.status === 0 && e.errorCode === 'connection-failed');
  assert.equal(post.hits, 1);
});

test('retry: the attempts are bounded; the last answer is thrown', async () => {
  const r = route('/down', (_q, res) => problem(res, 503));
  const c = createScanbaseClient({ baseUrl: base, accessToken: 't', retry: { ...fast, attempts: 3 } });
  await assert.rejects(c.fetch('/down'), (e: unknown) => e instanceof ScanbaseError && e.status === 503);
  assert.equal(r.hits, 3);
});

test('back-off: full jitter under a doubling cap', () => {
  assert.equal(backoffMs(DEFAULT_RETRY, 1, () => 1), 250);
  assert.equal(backoffMs(DEFAULT_RETRY, 3, () => 1), 1000);
  assert.equal(backoffMs(DEFAULT_RETRY, 10, () => 1), DEFAULT_RETRY.maxDelayMs);
  assert.equal(backoffMs(DEFAULT_RETRY, 3, () => 0), 0);
});

test('401: ten concurrent calls with an expired token refresh once, then all succeed with the new token', async () => {
  let issued = 0;
  const token = route('/oauth/token', (_q, res) => {
    issued++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      access_token: `fresh${issued}`, refresh_token: `r${issued}`, token_type: 'Bearer', expires_in: 10800, user_id: 'urn:svc:user:1',
    })), 50);
  });
  const api = route('/api/2/me', (q, res) => (q.headers.authorization === 'Bearer fresh1' ? res.writeHead(200).end('{}') : problem(res, 401)));
  const store = new MemoryTokenStore({ accessToken: 'old', refreshToken: 'r0', expiresAt: Date.now() + 3_600_000, userId: 'u', server: base });
  const tokens = new TokenManager(base, store);
  const c = createScanbaseClient({ baseUrl: base, tokens, retry: fast });
  const answers = await Promise.all(Array.from({ length: 10 }, () => c.fetch('/api/2/me')));
  assert.ok(answers.every((a) => a.status === 200));
  assert.equal(token.hits, 1);
  assert.equal(tokens.refreshCount, 1);
  assert.equal((await store.read())!.refreshToken, 'r1');
  assert.equal(api.auth.filter((a) => a === 'Bearer old').length, 10);
});
