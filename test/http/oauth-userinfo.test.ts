// GET /oauth/userinfo: who the bearer of an access token is (what `scanbase whoami` shows),
// with OpenID Connect's claim names; any other caller gets RFC 6750's 401 invalid_token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASIC_SEED, PUBLIC_URL, testApp, type TestApp } from '../support/app.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
  await t.seed({ ...BASIC_SEED, users: [...BASIC_SEED.users, { email: 'bare@acme.test', password: 'bare-password-1' }] });
});
after(() => t?.close());

test('userinfo answers the bearer\'s URN, e-mail and names; a user without names is named by his e-mail', async () => {
  const olivia = await t.tokens('olivia@acme.test');
  const res = await t.app.inject({ url: '/oauth/userinfo', headers: { authorization: `Bearer ${olivia.access_token}` } });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { sub: olivia.user_id, email: 'olivia@acme.test', name: 'Olivia Owner', given_name: 'Olivia', family_name: 'Owner' });
  const bare = await t.tokens('bare@acme.test');
  const b = (await t.app.inject({ url: '/oauth/userinfo', headers: { authorization: `Bearer ${bare.access_token}` } })).json();
  assert.equal(b.name, 'bare@acme.test');
});

test('userinfo without a valid access token answers 401 invalid_token with WWW-Authenticate (RFC 6750)', async () => {
  for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: 'Basic abc' }]) {
    const res = await t.app.inject({ url: '/oauth/userinfo', headers });
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json().error, 'invalid_token');
    assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"');
  }
});

test('the authorization server metadata names the userinfo endpoint', async () => {
  const meta = (await t.app.inject({ url: '/.well-known/oauth-authorization-server' })).json();
  assert.equal(meta.userinfo_endpoint, `${PUBLIC_URL}/oauth/userinfo`);
});
