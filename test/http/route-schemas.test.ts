// Route schemas are compiled on first use (src/http/lazy-compilers.ts): validation and
// serialization behave as when compiled at start, and every schema of the app compiles, so
// a schema that cannot compile fails here instead of on its route's first request.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp } from '../support/app.ts';
import { compileAllSchemas, lazyCompilers } from '../../src/http/lazy-compilers.ts';

const t = await testApp();
after(() => t.close());

test('route schemas rule: a lazily compiled validator refuses a bad body naming the field, then a good body is answered through its serializer', async () => {
  await t.seed({ users: [{ email: 'o@acme.test', password: 'o-password-1' }], accounts: [{ name: 'Acme', owner: 'o@acme.test', subscriptions: [{ name: 'Pro' }] }] });
  const { access_token } = await t.tokens('o@acme.test');
  const auth = { authorization: `Bearer ${access_token}` };
  const accounts = (await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: auth })).json();
  const url = `/api/2/accounts/${accounts[0].id}/groups`;
  const bad = await t.app.inject({ method: 'POST', url, headers: auth, payload: { description: 'no name' } });
  assert.equal(bad.statusCode, 400, bad.body);
  assert.match(bad.json().detail, /name/);
  const good = await t.app.inject({ method: 'POST', url, headers: auth, payload: { name: 'Field team' } });
  assert.equal(good.statusCode, 201, good.body);
  assert.equal(good.json().name, 'Field team');
});

test('route schemas rule: every route schema of the app compiles (validators and response serializers)', async () => {
  const compiled = compileAllSchemas(t.app);
  // API 1 and API 2 together have well over a hundred routes, most with several schemas.
  assert.ok(compiled > 200, `only ${compiled} schemas were pending`);
  assert.equal(compileAllSchemas(t.app), 0, 'nothing is left to compile');
});

test('route schemas rule: a lazily compiled validator coerces a root value through its parent, as ajv does when compiled at start', () => {
  const { compilersFactory } = lazyCompilers();
  const compilerFor = (compilersFactory.buildValidator as unknown as (e: unknown, o: unknown) => (r: unknown) => (d: unknown, c?: unknown) => unknown)(
    {},
    { customOptions: { coerceTypes: 'array' } },
  );
  const validate = compilerFor({ schema: { type: 'array', items: { type: 'string' } }, method: 'GET', url: '/x', httpPart: 'querystring' }) as ((d: unknown, c?: unknown) => unknown) & { schemaEnv?: unknown };
  assert.ok(validate.schemaEnv, 'Fastify passes the parent only to a validator with a schemaEnv');
  const request: { query: unknown } = { query: 5 };
  assert.equal(validate(request.query, { parentData: request, parentDataProperty: 'query' }), true);
  assert.deepEqual(request.query, ['5']);
});

test('body types rule: a JSON body is not coerced; a number where a string is wanted answers 400 naming the field, and nothing is written', async () => {
  const { access_token } = await t.tokens('o@acme.test');
  const auth = { authorization: `Bearer ${access_token}` };
  const accounts = (await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: auth })).json();
  const url = `/api/2/accounts/${accounts[0].id}/groups`;
  const before = (await t.app.inject({ method: 'GET', url, headers: auth })).json();
  const bad = await t.app.inject({ method: 'POST', url, headers: auth, payload: { name: 42 } });
  assert.equal(bad.statusCode, 400, bad.body);
  assert.match(bad.json().detail, /name/);
  assert.match(bad.json().detail, /string/);
  const after = (await t.app.inject({ method: 'GET', url, headers: auth })).json();
  assert.deepEqual(after, before);
});

test('query types rule: query-string values are text and keep their coercion (a boolean parameter given as "true" is accepted)', async () => {
  const { access_token } = await t.tokens('o@acme.test');
  const auth = { authorization: `Bearer ${access_token}` };
  const accounts = (await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: auth })).json();
  const res = await t.app.inject({ method: 'GET', url: `/api/2/accounts/${accounts[0].id}/projects?countScans=true`, headers: auth });
  assert.equal(res.statusCode, 200, res.body);
  const bad = await t.app.inject({ method: 'GET', url: `/api/2/accounts/${accounts[0].id}/projects?countScans=maybe`, headers: auth });
  assert.equal(bad.statusCode, 400, bad.body);
});
