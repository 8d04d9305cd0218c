// CONTRACT §9 and the spec's "Errors": every failure is rendered in its surface's
// format (API 2 RFC 9457, API 1 {code, message}, OAuth RFC 6749), validation
// failures name the offending field, and no request, however malformed, answers
// 5xx. Every response carries x-scanbase-version.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
});
after(() => t.close());

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const JSON_CT = { 'content-type': 'application/json' };
const FORM_CT = { 'content-type': 'application/x-www-form-urlencoded' };

/** Every response: never 5xx, always x-scanbase-version. */
async function call(opts: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await t.app.inject(opts);
  assert.ok(res.statusCode < 500, `${opts.method ?? 'GET'} ${String(opts.url).slice(0, 80)} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  assert.equal(res.headers['x-scanbase-version'], t.core.version, `x-scanbase-version on ${String(opts.url).slice(0, 80)}`);
  return res;
}

function assertProblem(res: LightMyRequestResponse, status: number, errorCode: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.ok(body.title.length > 0);
  assert.equal(body.errorCode, errorCode);
  return body;
}

function assertApi1(res: LightMyRequestResponse, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  return body;
}

function assertOAuth(res: LightMyRequestResponse, status: number, error: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, 'string');
  return body;
}

// ---- unknown routes -------------------------------------------------------------

test('an unknown /api/2 route answers 404 problem+json with status, title and errorCode', async () => {
  for (const method of ['GET', 'POST', 'DELETE'] as const) {
    const body = assertProblem(await call({ method, url: '/api/2/no/such/route?x=1' }), 404, 'route-not-found');
    assert.equal(body.type, 'about:blank');
    assert.ok(!String(body.detail).includes('x=1'), 'the query string is not echoed');
  }
  assertProblem(await call({ url: '/api/2' }), 404, 'route-not-found');
});

test('an unknown /api route answers 404 {code, message}', async () => {
  assertApi1(await call({ url: '/api/no/such/route' }), 404, 'route-not-found');
  assertApi1(await call({ method: 'PUT', url: '/api/isLogged' }), 404, 'route-not-found');
});

test('an unknown /oauth route answers 404 in the RFC 6749 form {error, error_description}', async () => {
  assertOAuth(await call({ url: '/oauth/no-such-endpoint' }), 404, 'not_found');
  assertOAuth(await call({ method: 'GET', url: '/oauth/token' }), 404, 'not_found');
});

test('an undecodable URL answers 400 in its surface format, not Fastify\'s own body', async () => {
  assertProblem(await call({ url: '/api/2/values/%zz' }), 400, 'invalid-input');
  assertApi1(await call({ url: '/api/accounts/%E0%A4%A' }), 400, 'invalid-input');
  assertOAuth(await call({ url: '/oauth/%zz' }), 400, 'invalid_request');
});

// ---- validation -----------------------------------------------------------------

test('a body failing its schema answers 400 invalid-input naming the field in errorValues', async () => {
  const bad = await call({ method: 'POST', url: '/_operator/seed', headers: OP, payload: { users: [{ email: 'not-an-email' }] } });
  const body = assertProblem(bad, 400, 'invalid-input');
  assert.equal(body.errorValues.field, 'body.users.0.email');

  const extra = await call({ method: 'POST', url: '/_operator/seed', headers: OP, payload: { users: [], colour: 'red' } });
  assert.equal(assertProblem(extra, 400, 'invalid-input').errorValues.field, 'body.colour');

  const missing = await call({ method: 'POST', url: '/_operator/seed', headers: OP, payload: { accounts: [{ owner: 'olivia@acme.test' }] } });
  assert.equal(assertProblem(missing, 400, 'invalid-input').errorValues.field, 'body.accounts.0.name');

  const type = await call({
    method: 'POST',
    url: '/_operator/seed',
    headers: OP,
    payload: { accounts: [{ name: 'A', owner: 'olivia@acme.test', subscriptions: [{ name: 'S', scanCapacity: 'lots' }] }] },
  });
  assert.equal(assertProblem(type, 400, 'invalid-input').errorValues.field, 'body.accounts.0.subscriptions.0.scanCapacity');
});

test('a token request failing its schema answers 400 in the RFC 6749 form', async () => {
  const json = assertOAuth(await call({ method: 'POST', url: '/oauth/token', payload: { code: 'x' } }), 400, 'invalid_request');
  assert.match(json.error_description, /grant_type/);
  const form = assertOAuth(
    await call({ method: 'POST', url: '/oauth/token', headers: FORM_CT, payload: 'grant_type=a&grant_type=b' }),
    400,
    'invalid_request',
  );
  assert.match(form.error_description, /grant_type/);
  assertOAuth(
    await call({ method: 'POST', url: '/oauth/token', headers: FORM_CT, payload: 'grant_type=password&username=x' }),
    400,
    'unsupported_grant_type',
  );
  assertOAuth(
    await call({ method: 'POST', url: '/oauth/token', headers: FORM_CT, payload: 'grant_type=authorization_code' }),
    400,
    'invalid_request',
  );
});

// ---- malformed bodies -----------------------------------------------------------

test('malformed JSON answers 400 invalid-input', async () => {
  for (const payload of ['{"users":', '{users: []}', "{'a':1}", '{"a":1}}', '\u0000', 'NaN']) {
    assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload }), 400, 'invalid-input');
  }
  assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload: '' }), 400, 'invalid-input');
  assertOAuth(await call({ method: 'POST', url: '/oauth/token', headers: JSON_CT, payload: '{"grant_type":' }), 400, 'invalid_request');
});

test('JSON that is not an object answers 400 invalid-input', async () => {
  for (const payload of ['null', '[]', '"seed"', '42', 'true']) {
    assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload }), 400, 'invalid-input');
    assertOAuth(await call({ method: 'POST', url: '/oauth/token', headers: JSON_CT, payload }), 400, 'invalid_request');
  }
});

test('an unsupported content type answers 415', async () => {
  for (const ct of ['text/xml', 'application/octet-stream', 'multipart/form-data; boundary=x', 'image/png', ';;;']) {
    assertProblem(
      await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, 'content-type': ct }, payload: '<a/>' }),
      415,
      'unsupported-media-type',
    );
    assertOAuth(await call({ method: 'POST', url: '/oauth/token', headers: { 'content-type': ct }, payload: 'x' }), 415, 'invalid_request');
  }
});

test('a body over the limit answers 413', async () => {
  const huge = JSON.stringify({ grant_type: 'x'.repeat(1024 * 1024 + 10) });
  assertOAuth(await call({ method: 'POST', url: '/oauth/token', headers: JSON_CT, payload: huge }), 413, 'invalid_request');
  assertOAuth(
    await call({ method: 'POST', url: '/oauth/token', headers: FORM_CT, payload: `grant_type=${'x'.repeat(65 * 1024)}` }),
    413,
    'invalid_request',
  );
  assertProblem(
    await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload: JSON.stringify({ pad: 'x'.repeat(17 * 1024 * 1024) }) }),
    413,
    'payload-too-large',
  );
});

test('the seed route keeps its own 16 MB body limit (a 2 MB document is parsed, not refused as too large)', async () => {
  const res = await call({
    method: 'POST',
    url: '/_operator/seed',
    headers: { ...OP, ...JSON_CT },
    payload: JSON.stringify({ users: [], pad: 'x'.repeat(2 * 1024 * 1024) }),
  });
  assert.equal(assertProblem(res, 400, 'invalid-input').errorValues.field, 'body.pad');
});

test('a Content-Length that does not match the body answers 400', async () => {
  const res = await call({ method: 'POST', url: '/oauth/token', headers: { ...JSON_CT, 'content-length': '5' }, payload: '{"grant_type":"x"}' });
  assert.equal(res.statusCode, 400);
});

test('JSON bytes that are not UTF-8 answer 400 invalid-input, nothing is stored', async () => {
  // {"users":[{"email":"<FF FE>@b.test"}]}
  const payload = Buffer.concat([Buffer.from('{"users":[{"email":"'), Buffer.from([0xff, 0xfe]), Buffer.from('@b.test"}]}')]);
  const res = await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload });
  assertProblem(res, 400, 'invalid-input');
  const overlong = Buffer.concat([Buffer.from('{"grant_type":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]);
  assertOAuth(await call({ method: 'POST', url: '/oauth/token', headers: JSON_CT, payload: overlong }), 400, 'invalid_request');
  const rows = await t.core.store.repos.users.byEmail('\ufffd\ufffd@b.test');
  assert.equal(rows, null);
});

test('a NUL character in a string answers 400 invalid-input (PostgreSQL text cannot hold it)', async () => {
  const seed = await call({ method: 'POST', url: '/_operator/seed', headers: OP, payload: { users: [{ email: 'nul\u0000@b.test' }] } });
  assertProblem(seed, 400, 'invalid-input');
  const tokens = await call({ method: 'POST', url: '/_operator/tokens', headers: OP, payload: { email: 'nul\u0000@b.test' } });
  assertProblem(tokens, 400, 'invalid-input');
  const form = await call({ method: 'POST', url: '/oauth/token', headers: FORM_CT, payload: 'grant_type=refresh_token&refresh_token=%00' });
  assert.ok(form.statusCode === 400 || form.statusCode === 401);
});

test('__proto__ and constructor.prototype keys are refused with 400, and nothing is polluted', async () => {
  for (const payload of [
    '{"__proto__":{"polluted":1}}',
    '{"users":[{"email":"p@b.test","__proto__":{"polluted":1}}]}',
    '{"constructor":{"prototype":{"polluted":1}}}',
  ]) {
    assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload }), 400, 'invalid-input');
  }
  assertOAuth(
    await call({ method: 'POST', url: '/oauth/token', headers: JSON_CT, payload: '{"grant_type":"refresh_token","__proto__":{"refresh_token":"x"}}' }),
    400,
    'invalid_request',
  );
  const form = await call({ method: 'POST', url: '/oauth/token', headers: FORM_CT, payload: '__proto__[polluted]=1&grant_type=nope' });
  assert.equal(form.statusCode, 400);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
});

test('absurd numbers (1e400, -0, huge integers) answer 4xx, never 5xx', async () => {
  const sub = (n: string) =>
    `{"accounts":[{"name":"Numbers","owner":"olivia@acme.test","subscriptions":[{"name":"N","scanCapacity":${n}}]}]}`;
  for (const n of ['1e400', '-1e400', '123456789012345678901234567890', '1.5', '-1', '9007199254740993']) {
    assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload: sub(n) }), 400, 'invalid-input');
  }
  // -0 is a valid zero.
  const zero = await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload: sub('-0') });
  assert.equal(zero.statusCode, 200);

  const clock = (n: string) => call({ method: 'POST', url: '/_operator/clock', headers: { ...OP, ...JSON_CT }, payload: `{"advanceSeconds":${n}}` });
  for (const n of ['1e400', '-1e400', '1e300', '-1e300', '123456789012345678901234567890']) assert.equal((await clock(n)).statusCode, 400, n);
  assert.equal((await clock('-0')).statusCode, 200);
  // The sandbox clock moves back as well as forward (issue 32): a small negative number is a real move.
  assert.equal((await clock('-1')).statusCode, 200);

  for (const n of ['1e400', '-0', '123456789012345678901234567890']) {
    const res = await call({ method: 'POST', url: '/oauth/token', headers: JSON_CT, payload: `{"grant_type":${n}}` });
    assert.equal(res.statusCode, 400);
  }
});

test('dates PostgreSQL or JavaScript cannot hold answer 400 invalid-input', async () => {
  for (const start of ['2016-12-31T23:59:60Z', '0000-01-01T00:00:00Z']) {
    const res = await call({
      method: 'POST',
      url: '/_operator/seed',
      headers: OP,
      payload: { accounts: [{ name: 'Dates', owner: 'olivia@acme.test', subscriptions: [{ name: 'D', start }] }] },
    });
    assertProblem(res, 400, 'invalid-input');
  }
  assert.equal(await t.core.store.repos.accounts.byName('Dates'), null, 'nothing written');
});

test('deeply nested JSON answers 4xx', async () => {
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload: deep }), 400, 'invalid-input');
  const deepProto = '{"a":'.repeat(50_000) + '{"__proto__":1}' + '}'.repeat(50_000);
  assertProblem(await call({ method: 'POST', url: '/_operator/seed', headers: { ...OP, ...JSON_CT }, payload: deepProto }), 400, 'invalid-input');
});

// ---- authentication failures per surface ------------------------------------------

test('a missing or garbage bearer token answers 401 unauthorized in each API format', async () => {
  for (const authorization of [undefined, 'Bearer', 'Bearer x.y.z', `Bearer ${'a'.repeat(20_000)}`, 'Basic dXNlcjpwYXNz', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.']) {
    const headers = authorization ? { authorization } : {};
    assertApi1(await call({ url: '/api/isLogged', headers }), 401, 'unauthorized');
    assertProblem(await call({ url: '/api/2/values/permissions', headers }), 401, 'unauthorized');
  }
});

test('every response carries x-scanbase-version, successes included', async () => {
  const { access_token } = await t.tokens('olivia@acme.test');
  for (const url of ['/healthz', '/api/2/openapi.json', '/api/openapi.json', '/oauth/jwks', '/api/2/docs']) {
    const res = await call({ url });
    assert.equal(res.statusCode, 200, url);
  }
  const ok = await call({ url: '/api/isLogged', headers: { authorization: `Bearer ${access_token}` } });
  assert.equal(ok.statusCode, 200);
  const head = await call({ method: 'HEAD', url: '/healthz' });
  assert.equal(head.statusCode, 200);
});

// ---- below Fastify: the HTTP parser ---------------------------------------------------

/** Sends raw bytes to a listening app; answers the raw response text. */
function raw(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('error', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('connect', () => socket.write(request));
    socket.setTimeout(10_000, () => reject(new Error(`no answer: ${out}`)));
  });
}

test('requests the HTTP parser refuses answer 4xx problem+json with x-scanbase-version', async () => {
  const server = await testApp();
  const { app, core } = server;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const cases: [string | Buffer, number][] = [
      ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 400],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['NOT-HTTP\r\n\r\n', 400],
      [Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00]), 400], // a TLS ClientHello on the plain port
    ];
    for (const [request, status] of cases) {
      const res = await raw(port, request);
      assert.match(res, new RegExp(`^HTTP/1\\.1 ${status} `), res.slice(0, 200));
      assert.match(res, new RegExp(`\\r\\nx-scanbase-version: ${core.version.replace(/\./g, '\\.')}\\r\\n`, 'i'));
      assert.match(res, /\r\nContent-Type: application\/problem\+json/i);
      const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
      assert.equal(body.status, status);
    }
    // The server still serves.
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(ok.status, 200);
  } finally {
    await server.close();
  }
});
