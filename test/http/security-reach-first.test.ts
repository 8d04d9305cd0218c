// Large bodies are not read before authorization (docs/security.md "Reach before large
// bodies"): the tag-write routes (bodies up to 96 MiB) answer 401/403/404 while the body
// is still arriving — the request below announces 64 MiB, sends 64 KiB and never ends —
// and close the connection; a caller who reaches the project is read as before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { testApp, type TestApp } from '../support/app.ts';

const ACCOUNT = 'a7777777-7777-4777-8777-777777777777';
const OTHER = 'a8888888-8888-4888-8888-888888888888';
const NO_PROJECT = 'e9999999-9999-4999-8999-999999999999';
const email = (n: string) => `${n}@reach.test`;
const SEED = {
  users: ['boss', 'owner', 'member', 'outsider'].map((n) => ({ email: email(n), password: `${n}-password-1`, firstName: n, lastName: 'Reach' })),
  accounts: [
    { id: ACCOUNT, name: 'Reach', owner: email('boss'), projectManagers: [email('owner')], members: [email('member')], subscriptions: [{ id: 'b7777777-7777-4777-8777-777777777777', name: 'A' }] },
    { id: OTHER, name: 'Other', owner: email('outsider'), subscriptions: [{ name: 'B' }] },
  ],
};

let t: TestApp;
const token: Record<string, string> = {};
let project = '';
let zone = '';
let list = '';

before(async () => {
  t = await testApp();
  await t.seed(SEED);
  for (const n of ['owner', 'member', 'outsider']) token[n] = (await t.tokens(email(n))).access_token;
  const p = await t.app.inject({
    method: 'POST', url: `/api/2/accounts/${ACCOUNT}/projects`, headers: { authorization: `Bearer ${token.owner}` },
    payload: { name: 'Reach', subscriptionId: 'b7777777-7777-4777-8777-777777777777' },
  });
  assert.equal(p.statusCode, 201, p.body);
  project = p.json().id;
  zone = p.json().rootWorkzoneId;
  const l = await t.app.inject({
    method: 'POST', url: `/api/2/accounts/${ACCOUNT}/projects/${project}/tag-lists`, headers: { authorization: `Bearer ${token.owner}` },
    payload: { workzoneId: zone, tagListType: 'assets', name: 'Reach list' },
  });
  assert.equal(l.statusCode, 201, l.body);
  list = l.json().id;
});
after(() => t?.close());

const ANNOUNCED = 64 * 1024 * 1024;

/**
 * Sends the headers with Content-Length 64 MiB and the first 64 KiB of a JSON body, and
 * never the rest; answers the response, or 'waiting' when none came within `waitMs`.
 */
async function partialBody(method: 'POST' | 'PUT', url: string, who: string | null, waitMs = 3000) {
  const body = new PassThrough();
  body.write(`{"create":[${'{"data":{"name":"x"}},'.repeat(3000)}`.slice(0, 64 * 1024));
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(ANNOUNCED) };
  if (who) headers.authorization = `Bearer ${token[who]}`;
  const answer = t.app.inject({ method, url, headers, payload: body });
  const timeout = new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), waitMs).unref());
  const res = await Promise.race([answer, timeout]);
  body.destroy();
  return { res, answer };
}

const A2 = (account: string, p: string) => `/api/2/accounts/${account}/projects/${p}/tag-lists`;
const uuid = (ref: string) => ref.split(':').pop()!;
const A1 = (account: string, p: string) => `/api/accounts/${account}/projects/${uuid(p)}/tag-lists`;

test('reach before large bodies: API 2 tags/bulk answers 401/403/404 (problem+json) before the body is read, and closes the connection', async () => {
  const cases = [
    { who: null, url: `${A2(ACCOUNT, project)}/${list}/tags/bulk`, status: 401 },
    { who: 'outsider', url: `${A2(ACCOUNT, project)}/${list}/tags/bulk`, status: 404 }, // another tenant: as an unknown account
    { who: 'member', url: `${A2(ACCOUNT, project)}/${list}/tags/bulk`, status: 403 },
    { who: 'owner', url: `${A2(ACCOUNT, NO_PROJECT)}/${list}/tags/bulk`, status: 404 },
    { who: 'member', url: `${A2(ACCOUNT, project)}/${list}/tags/bulk-move`, status: 403 },
  ];
  for (const c of cases) {
    const { res } = await partialBody('POST', c.url, c.who);
    assert.notEqual(res, 'waiting', `${c.who} ${c.url}: no answer while the body was incomplete`);
    if (res === 'waiting') continue;
    assert.equal(res.statusCode, c.status, `${c.who} ${c.url}: ${res.body}`);
    assert.match(String(res.headers['content-type']), /application\/problem\+json/);
    if (c.status !== 401) assert.equal(res.headers.connection, 'close');
  }
});

test('reach before large bodies: API 1 tag-list create and update answer 403/404 ({code,message}) before the body is read', async () => {
  const cases = [
    { method: 'POST' as const, who: 'member', url: A1(ACCOUNT, project), status: 403 },
    { method: 'PUT' as const, who: 'outsider', url: `${A1(ACCOUNT, project)}/${uuid(list)}`, status: 404 },
    { method: 'POST' as const, who: 'owner', url: A1(ACCOUNT, NO_PROJECT), status: 404 },
  ];
  for (const c of cases) {
    const { res } = await partialBody(c.method, c.url, c.who);
    assert.notEqual(res, 'waiting', `${c.who} ${c.method} ${c.url}: no answer while the body was incomplete`);
    if (res === 'waiting') continue;
    assert.equal(res.statusCode, c.status, `${c.who} ${c.url}: ${res.body}`);
    const body = res.json();
    assert.equal(typeof body.code, 'string');
    assert.equal(typeof body.message, 'string');
    assert.equal(res.headers.connection, 'close');
  }
});

test('reach before large bodies: a caller who reaches the project is read as before (the answer waits for the body)', async () => {
  const body = new PassThrough();
  const text = JSON.stringify({ create: [{ data: { id: 'kept', boundingBox: [0, 0, 0, 1, 2, 3] } }] });
  const answer = t.app.inject({
    method: 'POST', url: `${A2(ACCOUNT, project)}/${list}/tags/bulk`,
    headers: { authorization: `Bearer ${token.owner}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
    payload: body,
  });
  body.write(text.slice(0, 10));
  const early = await Promise.race([answer, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 300))]);
  assert.equal(early, 'waiting', 'nothing answered before the body ended');
  body.end(text.slice(10));
  const res = await answer;
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().created.length, 1);
});
