// Fault rules (docs/sandbox.md "Fault rules"): only with SANDBOX=1 (404 otherwise), behind the
// operator token; a bad rule answers 400 naming the field; each effect as a client meets it
// (a status in the surface's error format, a throttled 429 with Retry-After, a delay, a
// dropped connection, a cut body), matched on method, path pattern, operationId and user,
// limited by a count, drawn with a seed (the same seed, the same faults), journaled and counted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let t: TestApp;
let olivia: string;
let mark: string;
let markId: string;

before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
  olivia = (await t.tokens('olivia@acme.test')).access_token;
  const m = await t.tokens('mark@acme.test');
  mark = m.access_token;
  markId = m.user_id.slice(m.user_id.lastIndexOf(':') + 1);
});
after(() => t.close());

const op = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: OP, ...(payload === undefined ? {} : { payload: payload as object }) });
const rules = async (list: unknown[]) => {
  const res = await op('PUT', '/_operator/faults', { rules: list });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().rules as any[];
};
const isLogged = (token = olivia) => t.app.inject({ method: 'GET', url: '/api/isLogged', headers: { authorization: `Bearer ${token}` } });
const accounts = (token = olivia) => t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: { authorization: `Bearer ${token}` } });

test('the fault routes need the operator token (401) and SANDBOX=1 (404 otherwise, token or not)', async () => {
  const routes = [['GET', '/_operator/faults'], ['POST', '/_operator/faults'], ['PUT', '/_operator/faults'], ['DELETE', '/_operator/faults'], ['DELETE', '/_operator/faults/x']] as const;
  // Missing and wrong in turn (10 failures from one address would lock it out: operator-auth.ts).
  for (const [i, [method, url]] of routes.entries()) {
    const headers = i % 2 ? {} : { authorization: 'Bearer wrong-operator-token-of-24-chars' };
    assert.equal((await t.app.inject({ method, url, headers })).statusCode, 401, `${method} ${url}`);
  }
  const off = await testApp({ SANDBOX: '0' });
  try {
    for (const [method, url] of routes) {
      const res = await off.app.inject({ method, url, headers: OP, payload: method === 'GET' || method === 'DELETE' ? undefined : { rules: [] } });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().errorCode, 'route-not-found');
    }
  } finally {
    await off.close();
  }
});

test('a bad rule answers 400 invalid-input naming the field; the list is left as it was', async () => {
  await rules([{ match: { path: '/api/2/nothing' }, effect: { kind: 'delay', ms: 1 } }]);
  const cases: [unknown, string][] = [
    [{ effect: { kind: 'explode' } }, 'body.effect.kind'],
    [{ match: { path: 'api/2/accounts' }, effect: { kind: 'drop' } }, 'body.match.path'],
    [{ match: { method: 'GET', verb: 'x' }, effect: { kind: 'drop' } }, 'body.match.verb'],
    [{ effect: { kind: 'status', status: 418 } }, 'body.effect.status'],
    [{ effect: { kind: 'delay' } }, 'body.effect.ms'],
    [{ effect: { kind: 'delay', ms: -5 } }, 'body.effect.ms'],
    [{ effect: { kind: 'drop' }, probability: 1.5 }, 'body.probability'],
    [{ effect: { kind: 'drop' }, count: 0 }, 'body.count'],
    [{ effect: { kind: 'drop' }, seed: 1.5 }, 'body.seed'],
    [{ match: { surface: 'api3' }, effect: { kind: 'drop' } }, 'body.match.surface'],
    [{}, 'body.effect'],
    [[], 'body'],
  ];
  for (const [rule, field] of cases) {
    const res = await op('POST', '/_operator/faults', rule);
    assert.equal(res.statusCode, 400, `${JSON.stringify(rule)}: ${res.body}`);
    assert.equal(res.json().errorCode, 'invalid-input');
    assert.equal(res.json().errorValues.field, field, JSON.stringify(rule));
  }
  const res = await op('PUT', '/_operator/faults', { rules: [{ effect: { kind: 'drop' } }, { effect: { kind: 'throttle', retryAfterSeconds: 0 } }] });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().errorValues.field, 'body.rules[1].effect.retryAfterSeconds');
  assert.equal((await op('GET', '/_operator/faults')).json().rules.length, 1, 'the list is unchanged');
  assert.equal((await op('DELETE', '/_operator/faults/no-such-rule')).json().errorCode, 'fault-rule-not-found');
  await rules([]);
});

test('a status rule answers 503 in each surface\'s error format, for the operationId it names only', async () => {
  const [rule] = await rules([{ match: { operationId: 'getAccounts' }, effect: { kind: 'status', status: 503 } }]);
  const res = await accounts();
  assert.equal(res.statusCode, 503);
  assert.match(String(res.headers['content-type']), /application\/problem\+json/);
  assert.equal(res.json().errorCode, 'injected-fault');
  assert.equal(res.json().errorValues.ruleId, rule.id);
  assert.equal((await isLogged()).statusCode, 200, 'another operation is untouched');
  await rules([{ match: { surface: 'api1' }, effect: { kind: 'status', status: 500 } }]);
  const api1 = await isLogged();
  assert.equal(api1.statusCode, 500);
  assert.deepEqual(Object.keys(api1.json()), ['code', 'message']);
  assert.equal(api1.json().code, 'injected-fault');
  await rules([]);
});

test('a throttle rule answers 429 too-many-requests with Retry-After; count limits the faults; user and path match', async () => {
  await rules([{ match: { method: 'GET', path: '/api/2/*', user: markId }, effect: { kind: 'throttle', retryAfterSeconds: 7 }, count: 2 }]);
  assert.equal((await accounts(olivia)).statusCode, 200, 'another user is untouched');
  for (let i = 0; i < 2; i++) {
    const res = await accounts(mark);
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['retry-after'], '7');
    assert.equal(res.json().errorCode, 'too-many-requests');
  }
  assert.equal((await accounts(mark)).statusCode, 200, 'the count is spent');
  const [listed] = (await op('GET', '/_operator/faults')).json().rules;
  assert.equal(listed.injected, 2);
  assert.equal(listed.matched, 3);
  await rules([]);
});

test('the same seed gives the same faults for the same sequence of requests; another seed another', async () => {
  const run = async (seed: number) => {
    await rules([{ match: { operationId: 'isLogged' }, effect: { kind: 'status', status: 502 }, probability: 0.5, seed }]);
    const seen: number[] = [];
    for (let i = 0; i < 24; i++) seen.push((await isLogged()).statusCode);
    return seen.map((s) => (s === 502 ? 'x' : '.')).join('');
  };
  const first = await run(42);
  assert.equal(await run(42), first);
  assert.ok(first.includes('x') && first.includes('.'), first);
  assert.notEqual(await run(7), first);
  await rules([]);
});

test('a delay rule holds the request, then it is answered normally; journaled with its rule', async () => {
  const [rule] = await rules([{ match: { operationId: 'isLogged' }, effect: { kind: 'delay', ms: 300 } }]);
  const { last } = (await op('GET', '/_operator/journal')).json();
  const started = Date.now();
  assert.equal((await isLogged()).statusCode, 200);
  assert.ok(Date.now() - started >= 290);
  const [entry] = (await op('GET', `/_operator/journal?after=${last}`)).json().entries;
  assert.deepEqual(entry.fault, { ruleId: rule.id, kind: 'delay', delayMs: 300 });
  assert.ok(entry.durationMs >= 290);
  await rules([]);
  assert.match(await t.core.metrics.text(), /scanbase_sandbox_faults_injected_total\{kind="delay"\} 1/);
});

/** A real HTTP request (drop and cut need a socket): the status, and the body or the error. */
function get(port: number, path: string, token: string): Promise<{ status?: number; length?: string; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get({ port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, length: res.headers['content-length'], body }));
      res.on('error', (e) => resolve({ status: res.statusCode, length: res.headers['content-length'], body, error: e.message }));
      res.on('aborted', () => resolve({ status: res.statusCode, length: res.headers['content-length'], body, error: 'aborted' }));
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
  });
}

test('a drop rule closes the connection without an answer; a truncate rule sends half the body', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  await rules([{ match: { operationId: 'isLogged' }, effect: { kind: 'drop' } }]);
  const dropped = await get(port, '/api/isLogged', olivia);
  assert.equal(dropped.status, undefined);
  assert.equal(dropped.error, 'ECONNRESET');
  await rules([{ match: { operationId: 'getAccounts' }, effect: { kind: 'truncate' } }]);
  const cut = await get(port, '/api/2/accounts', olivia);
  assert.equal(cut.status, 200);
  assert.ok(cut.error, 'the body ends early');
  assert.equal(Buffer.byteLength(cut.body!), Math.floor(Number(cut.length) / 2));
  await rules([]);
  const whole = await get(port, '/api/2/accounts', olivia);
  assert.equal(Buffer.byteLength(whole.body!), Number(whole.length));
  assert.equal(whole.error, undefined);
});

test('FAULTS_FILE loads rules at start; a bad file stops the start naming the field; it needs SANDBOX=1', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-faults-'));
  try {
    const file = path.join(dir, 'faults.json');
    fs.writeFileSync(file, JSON.stringify({ rules: [{ name: 'slow tokens', match: { path: '/oauth/**' }, effect: { kind: 'delay', ms: 10 } }] }));
    const loaded = await testApp({ FAULTS_FILE: file });
    try {
      const listed = (await loaded.app.inject({ method: 'GET', url: '/_operator/faults', headers: OP })).json().rules;
      assert.deepEqual(listed.map((r: any) => [r.name, r.match.path, r.effect.kind]), [['slow tokens', '/oauth/**', 'delay']]);
    } finally {
      await loaded.close();
    }
    fs.writeFileSync(file, JSON.stringify({ rules: [{ effect: { kind: 'delay', ms: 'slow' } }] }));
    await assert.rejects(testApp({ FAULTS_FILE: file }), /FAULTS_FILE: Invalid body\.rules\[0\]\.effect\.ms/);
    await assert.rejects(testApp({ FAULTS_FILE: file, SANDBOX: '0' }), /FAULTS_FILE needs SANDBOX=1/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
