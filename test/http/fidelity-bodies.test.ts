// Request fidelity, bodies (docs/security.md "Request fidelity"): an empty body sent with a
// JSON content type is no body wherever the body is optional (fetch and curl samples send
// one on DELETE), connect export with no body means {}, and a JSON endpoint sent a form or
// text/plain body answers 415 unsupported-media-type naming the expected type, while the
// OAuth endpoints and HTML forms keep reading forms.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, SUB_A, addMembers, createProject, createZone, emailOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';

let t: TestApp;
let w: World;
let P: any;
let token: string;

type Inject = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; type?: string; payload?: string; auth?: boolean };
async function send({ method, url, type, payload, auth = true }: Inject) {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Bearer ${token}`;
  if (type !== undefined) headers['content-type'] = type;
  const res = await t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null, type: String(res.headers['content-type'] ?? '') };
}
const JSON_TYPE = 'application/json';

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!, { name: 'Bodies P1' });
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
  token = (await t.tokens(emailOf('projectOwner'))).access_token;
});
after(() => t?.close());

const lists = () => `${A2}/projects/${uuidOf(P.id)}/tag-lists`;
async function newList(): Promise<any> {
  const r = await w.as.projectOwner!('POST', lists(), { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: `L ${Math.random()}` });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

describe('empty bodies', () => {
  test('an empty body with Content-Type application/json is no body: DELETE tag list (both APIs) and work zone answer as without one', async () => {
    const l2 = await newList();
    for (const payload of ['', undefined]) {
      const l = payload === '' ? l2 : await newList();
      const res = await send({ method: 'DELETE', url: `${lists()}/${uuidOf(l.id)}`, type: JSON_TYPE, payload });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    const l1 = await newList();
    const api1 = await send({ method: 'DELETE', url: `${A1}/projects/${P.api1Id}/tag-lists/${l1.api1Id}`, type: `${JSON_TYPE}; charset=utf-8`, payload: '' });
    assert.equal(api1.status, 200, JSON.stringify(api1.body));
    const zone = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId);
    const z = await send({ method: 'DELETE', url: `${A2}/projects/${uuidOf(P.id)}/workzones/${uuidOf(zone.id)}`, type: JSON_TYPE, payload: '' });
    assert.equal(z.status, 204, JSON.stringify(z.body));
  });

  test('an unknown route with an empty (or any) JSON body answers its 404', async () => {
    for (const payload of ['', '{not json']) {
      const res = await send({ method: 'DELETE', url: `${A2}/nowhere/at-all`, type: JSON_TYPE, payload });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.errorCode, 'route-not-found');
    }
  });

  test('a route that needs a body answers 400 invalid-input saying so, nothing written', async () => {
    const before = await w.as.projectOwner!('GET', `${A2}/projects`);
    const res = await send({ method: 'POST', url: `${A2}/projects`, type: JSON_TYPE, payload: '' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errorCode, 'invalid-input');
    assert.match(res.body.detail, /needs a JSON body/);
    const api1 = await send({ method: 'POST', url: `${A1}/projects/${P.api1Id}/tag-lists`, type: JSON_TYPE, payload: '' });
    assert.equal(api1.status, 400);
    assert.deepEqual(Object.keys(api1.body).sort(), ['code', 'message']);
    assert.equal(api1.body.code, 'invalid-input');
    assert.deepEqual((await w.as.projectOwner!('GET', `${A2}/projects`)).body.length, before.body.length);
  });

  test('POST …/connect/export with no body, or an empty JSON one, means {} (docs/connect.md)', async () => {
    const url = `${A1}/projects/${P.api1Id}/workzones/${uuidOf(P.rootWorkzoneId)}/connect/export`;
    for (const req of [{ payload: undefined, type: undefined }, { payload: '', type: JSON_TYPE }, { payload: '{}', type: JSON_TYPE }]) {
      const res = await send({ method: 'POST', url, ...req });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof res.body.slug, 'string');
    }
  });
});

describe('wrong content type', () => {
  test('a JSON endpoint sent a form or text/plain body answers 415 unsupported-media-type naming application/json (API 2)', async () => {
    const form = new URLSearchParams({ name: 'Form project', subscriptionId: SUB_A }).toString();
    for (const [type, payload] of [['application/x-www-form-urlencoded', form], ['text/plain', JSON.stringify({ name: 'Text', subscriptionId: SUB_A })]] as const) {
      const res = await send({ method: 'POST', url: `${A2}/projects`, type, payload });
      assert.equal(res.status, 415, JSON.stringify(res.body));
      assert.match(res.type, /^application\/problem\+json/);
      assert.equal(res.body.errorCode, 'unsupported-media-type');
      assert.match(res.body.detail, /application\/json/);
      assert.ok(res.body.detail.includes(type), res.body.detail);
      assert.deepEqual(res.body.errorValues.expected, [JSON_TYPE]);
    }
  });

  test('API 1 answers the 415 in its own format', async () => {
    const res = await send({ method: 'POST', url: `${A1}/projects/${P.api1Id}/tag-lists`, type: 'application/x-www-form-urlencoded', payload: 'parentId=x&data=y' });
    assert.equal(res.status, 415);
    assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message']);
    assert.equal(res.body.code, 'unsupported-media-type');
    assert.match(res.body.message, /application\/json/);
  });

  test('the OAuth endpoints keep reading forms (and JSON); their 415 names both types', async () => {
    const form = await send({ method: 'POST', url: '/oauth/token', auth: false, type: 'application/x-www-form-urlencoded', payload: 'grant_type=refresh_token&refresh_token=nope' });
    assert.notEqual(form.status, 415, JSON.stringify(form.body));
    assert.equal(form.body.error, 'invalid_grant', 'the form was read: the grant itself is refused');
    const json = await send({ method: 'POST', url: '/oauth/token', auth: false, type: JSON_TYPE, payload: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'nope' }) });
    assert.equal(json.body.error, 'invalid_grant');
    const revoke = await send({ method: 'POST', url: '/oauth/revoke', auth: false, type: 'application/x-www-form-urlencoded', payload: 'token=nope' });
    assert.equal(revoke.status, 200, JSON.stringify(revoke.body));
    const text = await send({ method: 'POST', url: '/oauth/token', auth: false, type: 'text/plain', payload: 'grant_type=refresh_token' });
    assert.equal(text.status, 415, JSON.stringify(text.body));
    assert.match(text.body.error_description, /application\/json or application\/x-www-form-urlencoded/);
  });
});
