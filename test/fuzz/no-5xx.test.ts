// CONTRACT §9: "No request, however malformed, answers 5xx." Property-based: random
// bodies (strings, JSON values, bytes), content types, headers and paths/query strings
// at the public entry points; every response is < 500 and carries x-scanbase-version.
// Bounded: ~200 runs per target, fixed seed (test/fuzz/settings.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { UserAgent, injectTransport, hiddenFieldsOf, signIn, authorizePath, pkcePair } from '../support/oauth-client.ts';
import { FUZZ_SEED, runs } from './settings.ts';

const RUNS = runs(200);

let t: TestApp;
let accessToken: string;
let refreshToken: string;
let sessionCookie: string;
let csrf: string;
before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
  ({ access_token: accessToken, refresh_token: refreshToken } = await t.tokens('mark@acme.test'));
  // A signed-in browser session, so POST /oauth/authorize gets past the CSRF check.
  const agent = new UserAgent(injectTransport(t.app));
  const approve = await signIn(agent, authorizePath({ redirectUri: '/', state: 'fuzz' }), 'olivia@acme.test', 'olivia-password-1');
  csrf = hiddenFieldsOf(approve.body).csrf!;
  sessionCookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
});
after(() => t.close());

// ---- arbitraries --------------------------------------------------------------

const printable = (maxLength = 200) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });
const anyString = (maxLength = 200) => fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'grapheme', maxLength }), fc.string({ unit: 'binary', maxLength }));

/** Mostly a value the endpoint accepts (so the property reaches deeper), sometimes garbage. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: other, weight: 1 });

/** Field names the endpoints read, plus prototype-poisoning keys and random ones. */
const fieldName = fc.oneof(
  fc.constantFrom(
    'grant_type', 'code', 'refresh_token', 'code_verifier', 'authorization_code', 'redirect_uri', 'client_id', 'state',
    'code_challenge', 'code_challenge_method', 'response_type', 'decision', 'csrf', 'email', 'password', 'users',
    'accounts', '__proto__', 'constructor', 'prototype', 'toString',
  ),
  anyString(20),
);

/** Values that tend to break things: huge, empty, odd numbers, nested. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  anyString(),
  fc.constantFrom('authorization_code', 'refresh_token', 'S256', 'plain', '/', 'http://localhost/cb', 'allow', 'deny', 'abc', ''),
  fc.constant('x'.repeat(5000)),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 1e308, Number.MAX_SAFE_INTEGER + 2, true, false, null),
  fc.jsonValue({ maxDepth: 3 }),
);

const formOrJson = fc.dictionary(fieldName, fieldValue, { maxKeys: 8 });

/** Random bodies: strings, JSON texts, JSON values of the right shape, raw bytes. */
const body: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
  fc.constant(undefined),
  anyString(500),
  fc.json({ maxDepth: 4 }),
  formOrJson.map((o) => JSON.stringify(o)),
  // Objects (some with a null prototype) have no String(): encode them as JSON text.
  formOrJson.map((o) =>
    new URLSearchParams(Object.entries(o).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)])).toString(),
  ),
  fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)),
  fc.constantFrom('{"__proto__":{"x":1}}', '{"a":1e400}', '[' .repeat(5000), '\u0000', '{"grant_type":"refresh_token","refresh_token":"\\u0000"}'),
);

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded',
      'text/plain', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/problem+json', '*/*', '',
      'application/JSON', ' application/json ',
    ),
    printable(60),
  ),
  { nil: undefined },
);

/** Authorization headers: none, garbage, huge, well-formed but wrong, and the real ones. */
const authorization = fc.option(
  fc.oneof(
    printable(100),
    printable(100).map((s) => `Bearer ${s}`),
    fc.constantFrom('Bearer', 'Bearer ', 'bearer x', 'Basic Og==', `Bearer ${'a'.repeat(10_000)}`, `Bearer ${OPERATOR_TOKEN}`),
    fc.constant('').map(() => `Bearer ${accessToken}`),
    fc.constant('').map(() => `Bearer ${accessToken}x`),
    fc.constant('').map(() => `Bearer ${accessToken.split('.').slice(0, 2).join('.')}.`),
  ),
  { nil: undefined },
);

const extraHeaders = fc.dictionary(
  fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
  printable(300),
  { maxKeys: 3 },
);

const cookie = fc.option(
  fc.oneof(printable(200), fc.constant('').map(() => sessionCookie), printable(50).map((s) => `sb_session=${s}`)),
  { nil: undefined },
);

/** Query strings: known and random keys, encoded or raw (stray %), repeated keys. */
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fieldName, fc.oneof(anyString(100), fc.constantFrom('/', 'S256', 'abc', 'http://localhost:1/x'))), { maxLength: 8 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`),
  printable(200).map((s) => `?${s.replace(/#/g, '')}`),
  fc.constantFrom('?%', '?%zz=1', '?a=%E0%A4%A', '?state[]=a', '?__proto__[x]=1', `?${'a=1&'.repeat(2000)}`),
);

const request = (method: 'GET' | 'POST', path: string) =>
  fc.record({ query, contentType, body, authorization, cookie, extra: extraHeaders }).map(
    (r): InjectOptions => {
      const headers: Record<string, string> = { ...r.extra };
      if (r.authorization !== undefined) headers.authorization = r.authorization;
      if (r.cookie !== undefined) headers.cookie = r.cookie;
      if (method === 'POST' && r.contentType !== undefined) headers['content-type'] = r.contentType;
      return { method, url: `${path}${r.query}`, headers, ...(method === 'POST' && r.body !== undefined ? { payload: r.body } : {}) };
    },
  );

async function neverFiveHundred(arb: fc.Arbitrary<InjectOptions>, count = RUNS) {
  await fc.assert(
    fc.asyncProperty(arb, async (opts) => {
      const res = await t.app.inject(opts);
      assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body.slice(0, 300)}`);
      assert.equal(res.headers['x-scanbase-version'], t.core.version);
    }),
    { numRuns: count, seed: FUZZ_SEED, endOnFailure: true },
  );
}

// ---- targets ------------------------------------------------------------------

test('POST /oauth/token never answers 5xx', () => neverFiveHundred(request('POST', '/oauth/token')));

test('POST /oauth/token with well-formed grants and random values never answers 5xx', () =>
  neverFiveHundred(
    fc
      .record({
        grant_type: fc.constantFrom('authorization_code', 'refresh_token'),
        code: fc.option(anyString(600), { nil: undefined }),
        refresh_token: fc.option(fc.oneof(anyString(600), fc.constant('').map(() => refreshToken)), { nil: undefined }),
        code_verifier: fc.option(anyString(300), { nil: undefined }),
        authorization_code: fc.option(anyString(300), { nil: undefined }),
        json: fc.boolean(),
      })
      .map(({ json, ...fields }): InjectOptions => {
        const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
        return json
          ? { method: 'POST', url: '/oauth/token', payload: defined }
          : {
              method: 'POST',
              url: '/oauth/token',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams(defined).toString(),
            };
      }),
  ));

test('GET /oauth/authorize never answers 5xx', () => neverFiveHundred(request('GET', '/oauth/authorize')));

test('GET /oauth/authorize with near-valid parameters never answers 5xx', () =>
  neverFiveHundred(
    fc
      .record({
        redirect_uri: mostly(fc.constantFrom('/', 'http://localhost/cb', 'https://127.0.0.1:1/x?a=1'), fc.oneof(fc.constant('http://evil.test/'), anyString(100))),
        state: mostly(fc.stringMatching(/^[a-z0-9]{1,20}$/), anyString(30)),
        code_challenge: fc.option(mostly(fc.constant(pkcePair().challenge), anyString(60)), { nil: undefined }),
        code_challenge_method: fc.option(mostly(fc.constantFrom('S256', 'SHA256', 'SHA-256'), fc.constantFrom('plain', '', 's256')), { nil: undefined }),
        cookie,
      })
      .map(({ cookie: c, ...q }): InjectOptions => {
        const qs = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));
        return { method: 'GET', url: `/oauth/authorize?${qs}`, headers: c === undefined ? {} : { cookie: c } };
      }),
  ));

test('POST /oauth/authorize never answers 5xx', () => neverFiveHundred(request('POST', '/oauth/authorize')));

test('POST /oauth/authorize from a signed-in session with random fields never answers 5xx', () =>
  neverFiveHundred(
    fc
      .record({
        redirect_uri: mostly(fc.constantFrom('/', 'http://localhost/cb'), anyString(100)),
        state: mostly(fc.stringMatching(/^[a-z0-9]{1,20}$/), anyString(30)),
        code_challenge: fc.option(mostly(fc.constant(pkcePair().challenge), anyString(60)), { nil: undefined }),
        code_challenge_method: fc.option(mostly(fc.constant('S256'), fc.constantFrom('plain', '')), { nil: undefined }),
        decision: fc.option(mostly(fc.constantFrom('allow', 'deny'), anyString(10)), { nil: undefined }),
        csrf: mostly(fc.constant('').map(() => csrf), anyString(50)),
      })
      .map((fields): InjectOptions => ({
        method: 'POST',
        url: '/oauth/authorize',
        headers: { cookie: sessionCookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString(),
      })),
  ));

test('GET /api/isLogged never answers 5xx', () => neverFiveHundred(request('GET', '/api/isLogged')));

test('GET /api/2/values/permissions never answers 5xx', () => neverFiveHundred(request('GET', '/api/2/values/permissions')));

test('POST /_operator/seed never answers 5xx', () => neverFiveHundred(request('POST', '/_operator/seed')));

test('POST /_operator/seed with seed-shaped documents never answers 5xx', () => {
  const email = fc.oneof(
    fc.constantFrom('olivia@acme.test', 'OLIVIA@ACME.TEST', 'mark@acme.test', 'new@fuzz.test', 'other@fuzz.test', 'a@b'),
    fc.tuple(printable(10), printable(10)).map(([a, b]) => `${a.replace(/[\s@]/g, '') || 'x'}@${b.replace(/[\s@]/g, '') || 'y'}`),
    anyString(40),
  );
  const uuid = fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.constantFrom('urn:uuid:0b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d01', ''), anyString(40));
  const date = fc.oneof(
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.constantFrom('2016-12-31T23:59:60Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-02-30T00:00:00Z', null),
    anyString(30),
  );
  const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 1e9, 1e10, -1));
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
  const user = fc.record(
    {
      id: opt(uuid),
      email,
      firstName: opt(anyString(300)),
      lastName: opt(anyString(50)),
      company: opt(anyString(50)),
      title: opt(anyString(50)),
      // Rare: each password costs an argon2 hash.
      password: fc.option(fc.constant('fuzz-password-1'), { nil: undefined, freq: 20 }),
    },
    { requiredKeys: ['email'] },
  );
  const subscription = fc.record(
    {
      id: opt(uuid),
      name: anyString(30),
      isTrial: opt(fc.boolean()),
      isActive: opt(fc.boolean()),
      scanCapacity: opt(number),
      tagCapacity: opt(number),
      start: opt(date),
      end: opt(date),
    },
    { requiredKeys: ['name'] },
  );
  const account = fc.record(
    {
      id: opt(uuid),
      name: fc.oneof(fc.constantFrom('Acme', 'ACME', 'Fuzz Co'), anyString(30)),
      owner: email,
      administrators: opt(fc.array(email, { maxLength: 3 })),
      members: opt(fc.array(email, { maxLength: 3 })),
      subscriptions: opt(fc.array(subscription, { maxLength: 3 })),
      roles: opt(fc.array(fc.dictionary(fieldName, fieldValue, { maxKeys: 4 }), { maxLength: 2 })),
      groups: opt(fc.array(fc.dictionary(fieldName, fieldValue, { maxKeys: 4 }), { maxLength: 2 })),
    },
    { requiredKeys: ['name', 'owner'] },
  );
  const doc = fc.record({ users: opt(fc.array(user, { maxLength: 3 })), accounts: opt(fc.array(account, { maxLength: 2 })) });
  return neverFiveHundred(
    doc.map((d): InjectOptions => ({
      method: 'POST',
      url: '/_operator/seed',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: JSON.parse(JSON.stringify(d)),
    })),
  );
});

test('random paths under every surface never answer 5xx', () =>
  neverFiveHundred(
    fc
      .record({
        prefix: fc.constantFrom('/api/2/', '/api/', '/oauth/', '/_operator/', '/', '/api/2/accounts/', '/.well-known/'),
        rest: fc.oneof(fc.webPath(), printable(300).map((s) => s.replace(/[?#\\]/g, '')) /* a backslash makes the test client's URL invalid before any request */, fc.constantFrom('%', '%zz', '%00', '..', '../..', 'x'.repeat(3000))),
        method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
        authorization,
      })
      .chain((r) => request('GET', `${r.prefix}${r.rest}`).map((o): InjectOptions => ({
        ...o,
        method: r.method as InjectOptions['method'],
        headers: { ...(o.headers as Record<string, string>), ...(r.authorization ? { authorization: r.authorization } : {}) },
      }))),
  ));
