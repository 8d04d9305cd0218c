// API 1 errors stay in API 1's format (docs/security.md "Request fidelity"): whatever stage
// refuses a request on an API 1 path (/api/… but not /api/2/…) — Node's HTTP parser (bad
// bytes in the path or a header, oversized headers, malformed framing), URL decoding, a
// missing Host, an Expect header, the body parser, authentication, validation — the answer
// is {code, message}, never problem+json, never 5xx. Raw requests over a socket to a
// listening app, since app.inject() skips Node's parser. Property-based, ~300 runs
// (test/fuzz/settings.ts).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fc from 'fast-check';
import { testApp, BASIC_SEED, type TestApp } from '../support/app.ts';
import { exchange, type RawResponse } from './raw-http.ts';
import { FUZZ_SEED, runs } from './settings.ts';

const RUNS = runs(300);

let t: TestApp;
let port: number;
let token: string;
let accountId: string;

before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
  token = (await t.tokens('mark@acme.test')).access_token;
  accountId = (await t.core.store.repos.accounts.byName('Acme'))!.id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
after(() => t?.close());

/** Sends bytes, waits for the server to close (every request says Connection: close). */
async function raw(bytes: Buffer): Promise<RawResponse[]> {
  const responses = await exchange(port, [bytes], { closeAfterMs: 10_000 });
  if (!responses.length) throw new Error('no response');
  return responses;
}

/** Asserts the answer to a refused API 1 request: {code, message} JSON, < 500, version header. */
function assertApi1Format(res: RawResponse, what: string) {
  assert.ok(res.status >= 200 && res.status < 500, `${what}: ${res.status} ${res.body.slice(0, 300)}`);
  assert.equal(res.headers['x-scanbase-version'], t.core.version, `${what}: version header`);
  if (res.status < 400) return;
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, `${what}: ${res.status} ${res.headers['content-type']} ${res.body.slice(0, 300)}`);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], `${what}: ${res.body.slice(0, 300)}`);
  assert.equal(typeof body.code, 'string');
  assert.equal(typeof body.message, 'string');
}

// ---- arbitraries --------------------------------------------------------------

const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** A path segment where an id goes: valid-looking, encoded oddly, raw bytes, too long. */
const segment = fc.oneof(
  fc.constantFrom('00000000-0000-4000-8000-000000000000', 'abc', '%zz', '%', '%C0%AF', '%00', '%E0%A4%A', '%2F', '..', '%FF%FE', 'a%20b'),
  fc.constant('x'.repeat(1500)),
  fc.constantFrom('\xff\xfe', 'a b', 'a\tb', '\x00', '\x7f', 'é'),
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 }).map((s) => s.replace(/[/?#]/g, '')),
);

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?%', '?a=%zz', '?%=1', '?since=%E0%A4%A', '?since=\xff', '?since[]=1', '?__proto__[x]=1', `?${'a=1&'.repeat(2000)}`, '?since=2020-13-45'),
);

/** Header lines that some stage refuses (Node's parser, Fastify, authentication, the body parser). */
const hostileHeader = fc.constantFrom(
  '', 'X-A: a\x01b', 'X-A: a\x7fb', `X-Big: ${'a'.repeat(17_000)}`, 'Bad Header: x', ' folded: x', 'X-A: \xff\xfe',
  'Expect: 200-ok', 'Expect: 100-continue', 'Accept: text/html', 'Accept-Version: 9', 'Content-Encoding: gzip', 'Cookie: \x01',
);

const authorization = fc.constantFrom('valid', 'none', 'Authorization: Bearer %%%', 'Authorization: Basic Og==', 'Authorization: Bearer a.b.c', 'Authorization: Bearer \x01');

const framing = fc.constantFrom('ok', 'two-lengths', 'te-and-length', 'bad-chunk', 'no-host', 'http10');

const bodies = fc.constantFrom('', '{}', '{x', '[', '{"parentId":1}', '\xff\xfe', 'a=b', '{"__proto__":{"x":1}}', '{"parentId":"x","data":{"name":"n"},"unknown":1}');
const contentTypes = fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-16', '', 'none', '\x01');

const target = fc.record({
  route: fc.constantFrom('group', 'tag-lists', 'accounts'),
  a: fc.oneof({ arbitrary: fc.constant('ACCOUNT'), weight: 2 }, { arbitrary: segment, weight: 3 }),
  b: segment,
  query,
  absolute: fc.boolean(),
});

const hostileRequest = fc.record({ target, hostile: hostileHeader, authorization, framing, body: bodies, contentType: contentTypes });

type HostileRequest = typeof hostileRequest extends fc.Arbitrary<infer T> ? T : never;

function build(r: HostileRequest): { bytes: Buffer; what: string } {
  const a = r.target.a === 'ACCOUNT' ? accountId : r.target.a;
  const path =
    r.target.route === 'group' ? `/api/accounts/${a}/groups/${r.target.b}` :
    r.target.route === 'tag-lists' ? `/api/accounts/${a}/projects/${r.target.b}/tag-lists` : `/api/accounts/${a}`;
  const method = r.target.route === 'tag-lists' ? 'POST' : 'GET';
  const url = `${r.target.absolute ? 'http://scanbase.test' : ''}${path}${r.target.query}`;
  const lines = [`${method} ${url} ${r.framing === 'http10' ? 'HTTP/1.0' : 'HTTP/1.1'}`, 'Connection: close'];
  if (r.framing !== 'no-host') lines.push('Host: scanbase.test');
  if (r.authorization === 'valid') lines.push(`Authorization: Bearer ${token}`);
  else if (r.authorization !== 'none') lines.push(r.authorization);
  if (r.hostile) lines.push(r.hostile);
  let body: string = method === 'POST' ? r.body : '';
  if (method === 'POST' && r.contentType !== 'none') lines.push(`Content-Type: ${r.contentType}`);
  if (r.framing === 'bad-chunk') {
    lines.push('Transfer-Encoding: chunked');
    body = 'zz\r\n{}\r\n0\r\n\r\n';
  } else if (r.framing === 'te-and-length') {
    lines.push('Transfer-Encoding: chunked', `Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
    body = `${Buffer.byteLength(body, 'latin1').toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  } else {
    lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
    if (r.framing === 'two-lengths') lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1') + 1}`);
  }
  const text = `${lines.join('\r\n')}\r\n\r\n${body}`;
  return { bytes: latin1(text), what: JSON.stringify(text.slice(0, 300)) };
}

describe('API 1 errors stay in API 1 format', () => {
  test('the cases seen in the field: odd path bytes, header bytes, absolute-form targets, no Host, Expect', async () => {
    const G = `/api/accounts/${accountId}/groups/x`;
    const T = `/api/accounts/${accountId}/projects/x/tag-lists`;
    const auth = `Authorization: Bearer ${token}\r\n`;
    for (const [what, text] of [
      ['raw bytes in the path', `GET /api/accounts/\xff\xfe/groups/x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}\r\n`],
      ['a control byte in a header', `GET ${G} HTTP/1.1\r\nHost: a\r\nX-A: a\x01b\r\nConnection: close\r\n${auth}\r\n`],
      ['headers over 16 KB', `GET ${G} HTTP/1.1\r\nHost: a\r\nX-A: ${'a'.repeat(20_000)}\r\nConnection: close\r\n${auth}\r\n`],
      ['a space in the path', `POST /api/accounts/a b/projects/x/tag-lists HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}\r\n`],
      ['an absolute-form target', `GET http://a${G} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}\r\n`],
      ['an absolute-form target, no token', `POST http://a${T} HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`],
      ['no Host header', `GET ${G} HTTP/1.1\r\nConnection: close\r\n${auth}\r\n`],
      ['an unmet Expect', `POST ${T} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}Expect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`],
      ['two Content-Lengths', `POST ${T} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
      ['a bad chunk', `POST ${T} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`],
      ['bad URL encoding', `GET /api/accounts/%zz/groups/%C0%AF HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${auth}\r\n`],
    ] as const) {
      const [res, ...more] = await raw(latin1(text));
      assert.ok(res!.status >= 400, `${what}: ${res!.status}`);
      for (const r of [res!, ...more]) assertApi1Format(r, what);
    }
  });

  test('API 2 and the rest keep problem+json for the same refusals', async () => {
    for (const path of ['/api/2/accounts', '/nowhere']) {
      const [res] = await raw(latin1(`GET ${path} HTTP/1.1\r\nHost: a\r\nX-A: a\x01b\r\nConnection: close\r\n\r\n`));
      assert.equal(res!.status, 400);
      assert.match(res!.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(JSON.parse(res!.body).errorCode, 'invalid-input');
    }
  });

  test('random hostile requests on API 1 paths answer {code, message}, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (r) => {
        const { bytes, what } = build(r);
        for (const res of await raw(bytes)) assertApi1Format(res, what);
      }),
      { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
    );
  });
});
