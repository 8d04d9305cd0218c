// Every error answer is in the format of the surface its request's path belongs to
// (docs/security.md "Request fidelity"): API 2 (/api/2/…) problem+json, API 1 (/api/…)
// {code, message}, the OAuth endpoints (/oauth/…) RFC 6749, the rest problem+json; never
// a 5xx. Whatever refuses the request — Node's HTTP parser (however the request's bytes
// arrive: split over reads, pipelined behind other requests on a kept-alive connection),
// URL decoding, content-type parsing, authentication, validation, the route — and for
// every route of both served OpenAPI documents. First the cases issue 34 reported, then
// two properties (fast-check, fixed seed and bounded counts: test/fuzz/settings.ts; longer
// runs with `npm run fuzz -- --seed S --count N`): hostile requests through app.inject()
// for every operation, and sequences of them over raw sockets.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { testApp, BASIC_SEED, type TestApp } from '../support/app.ts';
import { surfaceOf } from '../../src/http/errors.ts';
import { exchange, type RawResponse } from './raw-http.ts';
import { FUZZ_SEED, runs } from './settings.ts';

let t: TestApp;
let port: number;
/** Tokens: a member's, the account owner's, and a forged one (a valid shape, a wrong signature). */
let member: string;
let owner: string;
let forged: string;
let accountId: string;
/** Every operation of the two served documents: method and path template. */
let operations: { method: string; path: string }[];

before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
  member = (await t.tokens('mark@acme.test')).access_token;
  owner = (await t.tokens('olivia@acme.test')).access_token;
  const [head, payload, signature] = member.split('.');
  forged = `${head}.${payload}.${signature!.slice(0, -4)}${signature!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
  accountId = (await t.core.store.repos.accounts.byName('Acme'))!.id;
  operations = [];
  for (const doc of ['/api/2/openapi.json', '/api/openapi.json']) {
    const paths = (await t.app.inject({ url: doc })).json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    for (const [path, ops] of Object.entries(paths)) for (const method of Object.keys(ops)) operations.push({ method: method.toUpperCase(), path });
  }
  assert.ok(operations.length > 100, `${operations.length} operations`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
after(() => t?.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Asserts an answer to a request on `path`: never 5xx; an error in the format of the path's surface. */
function assertSurfaceFormat(res: Answer, path: string, what: string) {
  assert.ok(res.status < 500, `${what}: ${res.status} ${res.body.slice(0, 300)}`);
  if (res.status < 400 || res.body === '') return; // HEAD answers have no body
  const type = String(res.headers['content-type'] ?? '');
  const surface = surfaceOf(path);
  const context = `${what}: ${res.status} ${type} ${res.body.slice(0, 300)}`;
  const body = JSON.parse(res.body) as Record<string, unknown>;
  if (surface === 'api1') {
    assert.match(type, /^application\/json/, context);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], context);
    assert.ok(typeof body.code === 'string' && typeof body.message === 'string', context);
  } else if (surface === 'oauth') {
    assert.match(type, /^application\/json/, context);
    assert.equal(typeof body.error, 'string', context);
    assert.ok(!('code' in body) && !('type' in body), context);
  } else {
    assert.match(type, /^application\/problem\+json/, context);
    assert.equal(body.status, res.status, context);
    assert.ok(typeof body.errorCode === 'string' && typeof body.detail === 'string' && typeof body.title === 'string', context);
  }
}

/** A raw HTTP/1.1 request: its head lines and body, before any hostile change. */
function requestText(method: string, target: string, headers: string[], body = ''): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: scanbase.test', ...headers];
  if (body || ['POST', 'PUT', 'PATCH'].includes(method)) lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

const P = '00000000-0000-4000-8000-000000000001';

describe('the cases of issue 34', () => {
  /** The reported requests (ids filled in), and the surface each answer must be in. */
  const cases = () => [
    { method: 'GET', path: '/api/2/values/permissions', headers: [`Authorization: Bearer ${member}`, `Content-Type: ${'a'.repeat(40)}`] },
    { method: 'GET', path: '/api/2/accounts/-1/users', headers: [`Authorization: Bearer ${member}`] },
    { method: 'GET', path: `/api/2/accounts/%/projects/${P}`, headers: [`Authorization: Bearer ${member}`] },
    { method: 'GET', path: `/api/2/accounts/${accountId}/roles/constructor`, headers: [`Authorization: Bearer ${forged}`] },
    { method: 'DELETE', path: `/api/2/accounts/${accountId}/projects/${P}/members/users/${P}/${'a'.repeat(40)}`, headers: [] },
    { method: 'PUT', path: `/api/accounts/%E2%80%AE/projects/${P}/tag-lists/${P}`, headers: [`Authorization: Bearer ${member}`] },
    { method: 'GET', path: `/api/accounts/$/projects/${P}/tag-lists`, headers: [`Authorization: Bearer ${member}`] },
  ];

  test('each, sent alone, answers in its path\'s format', async () => {
    for (const c of cases()) {
      const [res, ...more] = await exchange(port, [requestText(c.method, c.path, [...c.headers, 'Connection: close'])]);
      assert.equal(more.length, 0);
      assertSurfaceFormat(res!, c.path, `${c.method} ${c.path}`);
      // The first is a good request (a GET's Content-Type does not matter): 200; the others are refused.
      assert.ok(c.path === '/api/2/values/permissions' ? res!.status === 200 : res!.status >= 400, `${c.method} ${c.path}: ${res!.status} ${res!.body}`);
    }
  });

  test('each, refused by the parser in a later read of its head, after a request of another surface on the same connection, answers in its own path\'s format', async () => {
    for (const c of cases()) {
      for (const previous of ['GET /api/isLogged', 'POST /oauth/token', 'GET /api/2/values/permissions', 'GET /nowhere']) {
        const [prevMethod, prevPath] = previous.split(' ') as [string, string];
        if (surfaceOf(prevPath) === surfaceOf(c.path)) continue;
        const first = requestText(prevMethod, prevPath, [`Authorization: Bearer ${member}`]);
        const head = requestText(c.method, c.path, c.headers);
        const cut = head.indexOf('\r\n') + 2; // the request line in one read, the rest (with a refused byte) in the next
        const [before, refused, ...more] = await exchange(port, [first, head.slice(0, cut), `X-Junk: a\x01b\r\n${head.slice(cut)}`]);
        const what = `${c.method} ${c.path} after ${previous}`;
        assert.equal(more.length, 0, what);
        assertSurfaceFormat(before!, prevPath, previous);
        assert.ok(refused, `${what}: no answer`);
        assert.equal(refused.status, 400, `${what}: ${refused.status} ${refused.body}`);
        assertSurfaceFormat(refused, c.path, what);
      }
    }
  });

  test('each, pipelined behind a request of another surface in the same write, answers in its own path\'s format, after that request\'s answer', async () => {
    for (const c of cases()) {
      const prevPath = surfaceOf(c.path) === 'api1' ? '/api/2/values/permissions' : '/api/isLogged';
      // A request the connection survives (a 404 with a body closes its connection: docs/security.md).
      const first = requestText('GET', prevPath, [`Authorization: Bearer ${member}`]);
      const refused = requestText(c.method, c.path, [...c.headers, 'X-Junk: a\x01b']);
      const [answer, refusal] = await exchange(port, [first + refused]);
      assertSurfaceFormat(answer!, prevPath, 'the first request');
      assert.ok(refusal, `${c.method} ${c.path}: no answer`);
      assertSurfaceFormat(refusal, c.path, `${c.method} ${c.path} pipelined`);
    }
  });

  test('prototype-like names where an id goes are a plain 404 about the id, never a parse failure', async () => {
    for (const name of ['constructor', '__proto__', 'prototype', 'hasOwnProperty', 'toString']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/2/accounts/${accountId}/roles/${name}`, headers: { authorization: `Bearer ${owner}` } });
      assert.equal(res.statusCode, 404, `${name}: ${res.body}`);
      assert.equal(res.json().errorCode, 'role-not-found', name);
      assertSurfaceFormat({ status: res.statusCode, headers: res.headers, body: res.body }, '/api/2/', name);
    }
  });
});

// ---- the properties ----------------------------------------------------------------------

/** Where an id goes: real ids, and what breaks parsers, decoders and lookups. */
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('ACCOUNT', P, `urn:svc:account:${P}`, '1', '0') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '-1', '%', '%25', '%zz', '%00', '%2F', '%E2%80%AE', '%C0%AF', '%FF', '$', '..', '.', 'constructor', '__proto__', 'prototype',
      'hasOwnProperty', 'toString', 'valueOf', 'a'.repeat(40), 'a'.repeat(1500), 'null', 'undefined', 'NaN', '1e999', '[]', '{}',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~!$&\'()*+,;=:@%'.split('')), maxLength: 30 }) },
);

const query = fc.constantFrom('', '', '?%', '?a=%zz', '?__proto__[x]=1', '?limit=-1', '?offset=abc', '?since=2020-13-45', '?constructor=1', `?${'a=1&'.repeat(300)}`);

const contentType = fc.option(
  fc.constantFrom(
    'a'.repeat(40), 'application/json', 'application/json; charset=utf-16', 'text/plain', 'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded', '', ';', '*/*', 'application/json; charset="', 'application/octet-stream',
  ),
  { nil: undefined },
);

const authorization = fc.constantFrom('member', 'owner', 'forged', 'none', 'Bearer', 'Basic Og==', 'Bearer a.b.c', `Bearer ${'x'.repeat(3000)}`);

const otherHeaders = fc.dictionary(
  fc.constantFrom('accept', 'accept-encoding', 'if-none-match', 'content-encoding', 'x-forwarded-for', 'cookie', 'origin', 'range'),
  fc.constantFrom('*/*', 'text/html', 'application/xml', 'gzip', 'br;q=abc', '"x"', 'W/', '999.1.1.1', 'a=b', 'null', 'bytes=9-1', ''),
  { maxKeys: 3 },
);

const body = fc.option(
  fc.oneof(
    fc.constantFrom('', '{', '[]', '{}', 'null', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{"name":"\u0000"}', 'a=b&c', 'x'.repeat(5000)),
    fc.json({ maxDepth: 3 }),
  ),
  { nil: undefined },
);

const hostileRequest = fc.record({
  op: fc.nat(),
  method: fc.oneof({ weight: 6, arbitrary: fc.constant('OP') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }),
  segments: fc.array(segment, { minLength: 6, maxLength: 6 }),
  query,
  contentType,
  authorization,
  headers: otherHeaders,
  body,
});
type HostileRequest = typeof hostileRequest extends fc.Arbitrary<infer R> ? R : never;

/** The request's method and path: the operation's, with each path parameter replaced by a generated segment. */
function target(r: HostileRequest): { method: string; path: string } {
  const op = operations[r.op % operations.length]!;
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => {
    const s = r.segments[i++ % r.segments.length]!;
    return s === 'ACCOUNT' ? accountId : s;
  });
  return { method: r.method === 'OP' ? op.method : r.method, path };
}

const bearer = (a: string) => (a === 'member' ? `Bearer ${member}` : a === 'owner' ? `Bearer ${owner}` : a === 'forged' ? `Bearer ${forged}` : a);

test('hostile requests to every operation of both documents answer in their path\'s format, never 5xx (app.inject)', async () => {
  await fc.assert(
    fc.asyncProperty(hostileRequest, async (r) => {
      const { method, path } = target(r);
      const headers: Record<string, string> = { ...r.headers };
      if (r.authorization !== 'none') headers.authorization = bearer(r.authorization);
      if (r.contentType !== undefined) headers['content-type'] = r.contentType;
      const opts: InjectOptions = { method: method as InjectOptions['method'], url: `${path}${r.query}`, headers, ...(r.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { payload: r.body } : {}) };
      const res = await t.app.inject(opts);
      assertSurfaceFormat({ status: res.statusCode, headers: res.headers, body: res.body }, path, `${method} ${opts.url} ${JSON.stringify(headers).slice(0, 200)}`);
    }),
    { numRuns: runs(600), seed: FUZZ_SEED, endOnFailure: true },
  );
});

/** What makes Node's parser refuse a request, if anything. */
const parserHostility = fc.constantFrom('none', 'none', 'bad-header-byte', 'header-overflow', 'bad-method', 'bad-version', 'bad-chunk', 'space-in-target', 'byte-in-target');

function rawRequest(r: HostileRequest, hostility: string, last: boolean): { path: string; text: string } {
  // A HEAD answer's Content-Length announces no body: the raw reader cannot tell, so GET instead (inject covers HEAD).
  const { method: asked, path } = target(r);
  const method = asked === 'HEAD' ? 'GET' : asked;
  let head = [`${hostility === 'bad-method' ? 'GEX' : method} ${hostility === 'space-in-target' ? `${path} x` : hostility === 'byte-in-target' ? `${path}\xff` : path}${r.query} ${hostility === 'bad-version' ? 'HTTP/1.Z' : 'HTTP/1.1'}`, 'Host: scanbase.test'];
  if (r.authorization !== 'none') head.push(`Authorization: ${bearer(r.authorization)}`);
  if (r.contentType !== undefined) head.push(`Content-Type: ${r.contentType}`);
  for (const [k, v] of Object.entries(r.headers)) head.push(`${k}: ${v}`);
  if (hostility === 'bad-header-byte') head.push('X-Junk: a\x01b');
  if (hostility === 'header-overflow') head.push(`X-Big: ${'a'.repeat(17_000)}`);
  if (last) head.push('Connection: close');
  let payload = r.body ?? '';
  if (hostility === 'bad-chunk') {
    head.push('Transfer-Encoding: chunked');
    payload = 'zz\r\n{}\r\n0\r\n\r\n';
  } else {
    head = [...head, `Content-Length: ${Buffer.byteLength(payload, 'latin1')}`];
  }
  return { path, text: `${head.join('\r\n')}\r\n\r\n${payload}` };
}

/**
 * Cuts `text` at the given fractions (sorted, deduplicated) into the pieces written one by
 * one, never inside a `kept` range: a request refused at its method is answered as soon as
 * the method arrives, and its path only counts if it arrived in the same read (docs/decisions.md).
 */
function cutAt(text: string, fractions: number[], kept: [number, number][] = []): string[] {
  const points = [...new Set(fractions.map((f) => Math.floor(f * text.length)))]
    .filter((p) => p > 0 && p < text.length && !kept.some(([from, to]) => p > from && p <= to))
    .sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(text.slice(from, p));
    from = p;
  }
  pieces.push(text.slice(from));
  return pieces;
}

test('sequences of hostile requests on one connection, split over reads or pipelined, each answered in its own path\'s format, never 5xx (raw sockets)', async () => {
  const sequence = fc.record({
    requests: fc.array(fc.tuple(hostileRequest, parserHostility), { minLength: 1, maxLength: 3 }),
    writes: fc.constantFrom('whole', 'split', 'pipelined', 'pipelined-split'),
    cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
  });
  await fc.assert(
    fc.asyncProperty(sequence, async ({ requests, writes, cuts }) => {
      const built = requests.map(([r, hostility], i) => rawRequest(r, hostility, i === requests.length - 1));
      const texts = built.map((b) => b.text);
      // The first line of a request with a bad method stays in one read.
      const firstLine = (i: number, offset: number): [number, number][] =>
        requests[i]![1] === 'bad-method' ? [[offset, offset + texts[i]!.indexOf('\r\n')]] : [];
      const offsets = texts.map((_, i) => texts.slice(0, i).join('').length);
      const pieces =
        writes === 'whole'
          ? texts
          : writes === 'split'
            ? texts.flatMap((x, i) => cutAt(x, cuts, firstLine(i, 0)))
            : writes === 'pipelined'
              ? [texts.join('')]
              : cutAt(texts.join(''), cuts, texts.flatMap((_, i) => firstLine(i, offsets[i]!)));
      const answers: RawResponse[] = await exchange(port, pieces, { gapMs: 15, closeAfterMs: 5_000 });
      // Answers come in the order of the requests. A request refused in its body (a bad
      // chunk) may be answered twice, its head and then the refusal, and is the last answered.
      const bodyRefused = requests.findIndex(([, hostility]) => hostility === 'bad-chunk');
      const lastAnswered = bodyRefused < 0 ? built.length - 1 : bodyRefused;
      assert.ok(answers.length > 0, 'no answer');
      assert.ok(answers.length <= lastAnswered + 2, `${answers.length} answers to ${built.length} requests`);
      for (const [j, answer] of answers.entries()) {
        const i = Math.min(j, lastAnswered);
        assertSurfaceFormat(answer, built[i]!.path, `answer ${j + 1}, to request ${i + 1} of ${built.length} (${writes}): ${JSON.stringify(texts[i]!.slice(0, 200))}`);
      }
    }),
    { numRuns: runs(150), seed: FUZZ_SEED, endOnFailure: true },
  );
});
