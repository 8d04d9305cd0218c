// The service describes itself (CONTRACT §3): GET /api/2/openapi.json (API 2 and OAuth,
// OpenAPI 3.1, info.version 2.0.0) and GET /api/openapi.json (API 1), both public and
// valid OpenAPI, with a docs page at /api/2/docs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testApp, type TestApp } from '../support/app.ts';
import { operationShape, vendorSpecAvailable, VENDOR_OPENAPI } from '../support/vendor-schema.ts';
import fs from 'node:fs';

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId?: string; parameters?: { in: string; name: string }[] }>>;
  components?: { securitySchemes?: Record<string, any> };
  [k: string]: unknown;
};

let t: TestApp;
let api2: Doc;
let api1: Doc;
before(async () => {
  t = await testApp();
  api2 = (await t.app.inject({ url: '/api/2/openapi.json' })).json();
  api1 = (await t.app.inject({ url: '/api/openapi.json' })).json();
});
after(() => t.close());

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

test('both documents are public: 200 JSON without a token, and with a garbage one', async () => {
  for (const url of ['/api/2/openapi.json', '/api/openapi.json']) {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await t.app.inject({ url, headers });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^application\/json/);
    }
  }
});

test('both documents are OpenAPI 3.1 and valid per the OpenAPI schema', async () => {
  for (const [name, doc] of [['API 2', api2], ['API 1', api1]] as const) {
    assert.match(doc.openapi, /^3\.1\.\d+$/, name);
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    assert.equal(res.valid, true, `${name}: ${JSON.stringify(res.errors, null, 2)}`);
    assert.equal(validator.version, '3.1');
  }
});

test('API 2 is version 2.0.0 and describes its paths and the token endpoint, not API 1', () => {
  assert.equal(api2.info.version, '2.0.0');
  assert.ok(api2.paths['/api/2/values/permissions']?.get, '/api/2/values/permissions');
  assert.ok(api2.paths['/oauth/token']?.post, '/oauth/token');
  assert.equal(api2.paths['/api/isLogged'], undefined);
  for (const p of Object.keys(api2.paths)) {
    assert.ok(p.startsWith('/api/2/') || p.startsWith('/oauth/') || p.startsWith('/.well-known/'), p);
  }
  const oauth2 = api2.components?.securitySchemes?.oauth2;
  assert.equal(oauth2?.type, 'oauth2');
  assert.match(oauth2.flows.authorizationCode.authorizationUrl, /\/oauth\/authorize$/);
  assert.match(oauth2.flows.authorizationCode.tokenUrl, /\/oauth\/token$/);
});

test('API 1 describes /api/isLogged and the connect jobs, and no API 2 path', () => {
  assert.ok(api1.paths['/api/isLogged']?.get, '/api/isLogged');
  assert.ok(api1.paths['/connect/{slug}']?.get, '/connect/{slug}');
  for (const p of Object.keys(api1.paths)) {
    assert.ok((p.startsWith('/api/') && !p.startsWith('/api/2/') && p !== '/api/2') || p.startsWith('/connect/'), p);
  }
  assert.notEqual(api1.info.version, '2.0.0');
});

test('neither document describes the operator surface, the health check or the HTML pages', () => {
  for (const doc of [api1, api2]) {
    for (const p of Object.keys(doc.paths)) {
      assert.ok(!p.startsWith('/_operator'), p);
      assert.notEqual(p, '/healthz');
      assert.notEqual(p, '/');
      assert.notEqual(p, '/oauth/login');
      assert.ok(!p.endsWith('openapi.json'), p);
      assert.ok(!p.startsWith('/api/2/docs'), p);
    }
  }
});

test('operationIds are unique within each document', () => {
  for (const [name, doc] of [['API 2', api2], ['API 1', api1]] as const) {
    const ids: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const m of METHODS) if (item[m]?.operationId) ids.push(item[m]!.operationId!);
    }
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.deepEqual(dupes, [], `${name} duplicate operationIds`);
  }
});

test('every path template parameter is declared as a path parameter of each operation', () => {
  for (const doc of [api1, api2]) {
    for (const [p, item] of Object.entries(doc.paths)) {
      const names = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const m of METHODS) {
        const op = item[m];
        if (!op) continue;
        const declared = (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name);
        assert.deepEqual(declared.sort(), [...names].sort(), `${m.toUpperCase()} ${p}`);
      }
    }
  }
});

test('the docs page /api/2/docs answers 200 HTML, and shows the API 2 document', async () => {
  const res = await t.app.inject({ url: '/api/2/docs' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(res.body, /<html/i);
  const json = await t.app.inject({ url: '/api/2/docs/json' });
  assert.equal(json.statusCode, 200);
  const shown = json.json() as Doc;
  assert.equal(shown.info.version, '2.0.0');
  assert.equal(shown.paths['/api/isLogged'], undefined);
  assert.ok(shown.paths['/api/2/values/permissions']);
});

test('the served API 2 document lists every one of the vendor\'s operations (issue 29): its operationId on its method and path', { skip: vendorSpecAvailable() ? false : `the vendor file is not at ${VENDOR_OPENAPI}` }, () => {
  const vendor = JSON.parse(fs.readFileSync(VENDOR_OPENAPI, 'utf8')) as Doc;
  const ours = new Map<string, string | undefined>();
  for (const [p, item] of Object.entries(api2.paths)) {
    for (const m of METHODS) if (item[m]) ours.set(operationShape(m, p.startsWith('/api/2') ? p : `/api/2${p}`), item[m]!.operationId);
  }
  const wanted: string[] = [];
  const missing: string[] = [];
  for (const [p, item] of Object.entries(vendor.paths)) {
    for (const m of METHODS) {
      const id = item[m]?.operationId;
      if (!id) continue;
      wanted.push(id);
      const served = ours.get(operationShape(m, p));
      if (served !== id) missing.push(`${id} (${m.toUpperCase()} ${p})${served ? `: served as ${served}` : ''}`);
    }
  }
  assert.equal(new Set(wanted).size, 100, 'the vendor document names 100 operations');
  assert.deepEqual(missing, [], `${100 - missing.length} of 100 served`);
});
