// Fault rules' later kinds (docs/sandbox.md "Fault rules"), as a client meets them: a delay
// drawn from a distribution with the rule's seed (the same seed, the same delays, journaled),
// a 503 during a window on the sandbox clock (moved, the rule follows it), a slow body
// streamed at its rate with the whole answer, and a token endpoint refusing refresh with
// RFC 6749 invalid_grant (seen by the SDK). Each injected fault journaled and counted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { refreshTokens } from '../../packages/sdk/src/auth.ts';
import { ScanbaseError } from '../../packages/sdk/src/errors.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let t: TestApp;
let olivia: string;
let base: string;

before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
  olivia = (await t.tokens('olivia@acme.test')).access_token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(() => t.close());

const op = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: OP, ...(payload === undefined ? {} : { payload: payload as object }) });
const rules = async (list: unknown[]) => {
  const res = await op('PUT', '/_operator/faults', { rules: list });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().rules as any[];
};
const journalAfter = async (after: number) => (await op('GET', `/_operator/journal?after=${after}`)).json().entries as any[];
const lastSeq = async () => (await op('GET', '/_operator/journal?limit=1')).json().last as number;
const isLogged = () => t.app.inject({ method: 'GET', url: '/api/isLogged', headers: { authorization: `Bearer ${olivia}` } });

test('a delay drawn from a uniform distribution: the same seed gives the same delays, each journaled and held', async () => {
  const run = async (seed: number) => {
    await rules([{ match: { operationId: 'isLogged' }, effect: { kind: 'delay', distribution: { type: 'uniform', minMs: 0, maxMs: 60 } }, seed }]);
    const after = await lastSeq();
    for (let i = 0; i < 6; i++) assert.equal((await isLogged()).statusCode, 200);
    const entries = await journalAfter(after);
    assert.equal(entries.length, 6);
    for (const e of entries) {
      assert.equal(e.fault.kind, 'delay');
      assert.ok(e.fault.delayMs >= 0 && e.fault.delayMs <= 60, JSON.stringify(e.fault));
      assert.ok(e.durationMs >= e.fault.delayMs - 1, `held ${e.durationMs} for ${e.fault.delayMs}`);
    }
    return entries.map((e) => e.fault.delayMs as number);
  };
  const first = await run(11);
  assert.deepEqual(await run(11), first);
  assert.notDeepEqual(await run(12), first);
  assert.ok(new Set(first).size > 1, `drawn: ${first.join()}`);
  await rules([]);
});

test('503 during a window: outside it nothing, inside it the fault; the window follows the sandbox clock', async () => {
  const start = (await op('GET', '/_operator/clock')).json().now as string;
  const at = (seconds: number) => new Date(Date.parse(start) + seconds * 1000).toISOString();
  try {
    const [rule] = await rules([{ match: { operationId: 'isLogged' }, effect: { kind: 'status', status: 503 }, window: { from: at(3600), until: at(7200) } }]);
    assert.equal((await isLogged()).statusCode, 200, 'before the window');
    assert.equal((await op('POST', '/_operator/clock', { to: at(3700) })).statusCode, 200);
    const after = await lastSeq();
    const inside = await isLogged();
    assert.equal(inside.statusCode, 503);
    assert.equal(inside.json().code, 'injected-fault');
    const [entry] = await journalAfter(after);
    assert.deepEqual(entry.fault, { ruleId: rule.id, kind: 'status' });
    assert.deepEqual(entry.refusal, { rule: 'injected-fault', ruleId: rule.id });
    assert.equal((await op('POST', '/_operator/clock', { to: at(7300) })).statusCode, 200);
    assert.equal((await isLogged()).statusCode, 200, 'after the window');
    const [listed] = (await op('GET', '/_operator/faults')).json().rules;
    assert.deepEqual([listed.matched, listed.injected], [1, 1], 'outside the window the rule matches nothing');
  } finally {
    await op('POST', '/_operator/clock', { to: new Date().toISOString() });
    await rules([]);
  }
});

/** A real GET: the status, Content-Length, body, the number of chunks and how long the body took. */
function get(path: string, token: string): Promise<{ status: number; length: string | undefined; body: string; chunks: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http.get(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({
        status: res.statusCode!, length: res.headers['content-length'], body: Buffer.concat(parts).toString('utf8'), chunks: parts.length, ms: performance.now() - started,
      }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

test('a slow body streams the whole answer at its rate, with its Content-Length', async () => {
  const whole = await get('/api/2/accounts', olivia);
  const size = Buffer.byteLength(whole.body);
  assert.ok(size > 100, `a body to pace (${size} bytes)`);
  const rate = Math.ceil(size / 1.5); // about 1.5 s
  await rules([{ match: { operationId: 'getAccounts' }, effect: { kind: 'slow-body', bytesPerSecond: rate } }]);
  const after = await lastSeq();
  const slow = await get('/api/2/accounts', olivia);
  assert.equal(slow.status, 200);
  assert.equal(slow.body, whole.body, 'the real answer, whole');
  assert.equal(slow.length, String(size));
  const slice = Math.ceil(rate / 10);
  assert.ok(slow.ms >= ((size - slice) / rate) * 1000 * 0.95, `paced: ${slow.ms} ms for ${size} bytes at ${rate}/s`);
  assert.ok(slow.chunks >= 5, `in slices (${slow.chunks})`);
  await rules([]);
  const [entry] = await journalAfter(after);
  assert.equal(entry.fault.kind, 'slow-body');
  assert.match(await t.core.metrics.text(), /scanbase_sandbox_faults_injected_total\{kind="slow-body"\} 1/);
});

test('refuse-refresh answers 400 invalid_grant (RFC 6749) to a refresh only; the token is not spent; a client match narrows it', async () => {
  const pair = await t.tokens('olivia@acme.test');
  const [rule] = await rules([{ effect: { kind: 'refuse-refresh' } }]);
  const after = await lastSeq();
  const refused = await refreshTokens(base, pair.refresh_token).then(() => assert.fail('refreshed'), (e: unknown) => e);
  assert.ok(refused instanceof ScanbaseError);
  assert.equal(refused.status, 400);
  assert.equal(refused.errorCode, 'invalid_grant');
  const raw = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&refresh_token=${pair.refresh_token}` });
  assert.equal(raw.status, 400);
  const body = await raw.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
  assert.equal(body.error, 'invalid_grant');
  assert.equal((await isLogged()).statusCode, 200, 'other requests are untouched');
  const entries = (await journalAfter(after)).filter((e) => e.path === '/oauth/token');
  assert.equal(entries.length, 2);
  assert.deepEqual(entries[0].fault, { ruleId: rule.id, kind: 'refuse-refresh' });
  assert.equal(entries[0].status, 400);
  assert.equal(entries[0].errorCode, 'invalid_grant');
  assert.deepEqual(entries[0].refusal, { rule: 'injected-fault', ruleId: rule.id });
  assert.match(await t.core.metrics.text(), /scanbase_sandbox_faults_injected_total\{kind="refuse-refresh"\} 2/);
  await rules([{ match: { client: 'another-app' }, effect: { kind: 'refuse-refresh' } }]);
  const renewed = await refreshTokens(base, pair.refresh_token);
  assert.ok(renewed.access_token, 'the refused token was not spent; a rule for another client passes it');
  await rules([]);
});
