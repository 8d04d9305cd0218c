import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, BASIC_SEED, type TestApp } from '../support/app.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
});
after(() => t.close());

test('GET /api/isLogged answers 200 {success:true} for a recognised token', async () => {
  const { access_token } = await t.tokens('olivia@acme.test');
  const res = await t.app.inject({ url: '/api/isLogged', headers: { authorization: `Bearer ${access_token}` } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { success: true });
  assert.equal(res.headers['x-scanbase-version'], t.core.version);
});

test('GET /api/isLogged answers 401 unauthorized in API 1 format without a token', async () => {
  const res = await t.app.inject({ url: '/api/isLogged' });
  assert.equal(res.statusCode, 401);
  assert.deepEqual(res.json(), { code: 'unauthorized', message: 'Missing, invalid or expired authentication' });
});

test('GET /api/2/values/permissions answers 401 problem+json without a token', async () => {
  const res = await t.app.inject({ url: '/api/2/values/permissions' });
  assert.equal(res.statusCode, 401);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.json().errorCode, 'unauthorized');
  assert.equal(res.json().status, 401);
});
