// Every operation is described (issue 14, item 9): both served documents are walked; each
// operation has a non-empty description naming its permission, and an operation that needs
// a token lists 401 (and 403 when it checks a permission) and, under /api, 429 with
// Retry-After; an operation with a body lists 408, 413 and 415; all in its API's format.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { API2_OPERATIONS } from '../../src/http/api2/operation-docs.ts';
import { API1_OPERATIONS } from '../../src/http/api1/operation-docs.ts';
import { INTERNAL_PERMISSIONS, PERMISSIONS } from '../../src/core/permissions/catalog.ts';

type Operation = {
  description?: string;
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }>; headers?: Record<string, unknown> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

let t: TestApp;
const docs: { name: string; url: string; doc: Doc; table: Record<string, unknown> }[] = [];
before(async () => {
  t = await testApp();
  for (const [name, url, table] of [
    ['API 2', '/api/2/openapi.json', API2_OPERATIONS],
    ['API 1', '/api/openapi.json', API1_OPERATIONS],
  ] as const) {
    const res = await t.app.inject({ url });
    assert.equal(res.statusCode, 200);
    docs.push({ name, url, doc: res.json(), table });
  }
});
after(() => t.close());

function* operations(doc: Doc): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (METHODS.has(method)) yield [path, method, op];
  }
}

const isPublic = (op: Operation) => Array.isArray(op.security) && op.security.length === 0;

test('every operation of both documents has a non-empty description with its permission', () => {
  for (const { name, doc } of docs) {
    let n = 0;
    for (const [path, method, op] of operations(doc)) {
      n++;
      const where = `${name}: ${method.toUpperCase()} ${path}`;
      assert.equal(typeof op.description, 'string', `${where} has no description`);
      assert.ok(op.description!.trim().length > 20, `${where}: description too short`);
      assert.match(op.description!, /\*\*Permission:\*\*/, where);
    }
    assert.ok(n > 20, `${name}: only ${n} operations`);
  }
});

test('every permission a description names is one the service knows', () => {
  const known = new Set<string>([...PERMISSIONS, ...INTERNAL_PERMISSIONS]);
  for (const { name, doc } of docs) {
    for (const [path, method, op] of operations(doc)) {
      for (const [, perm] of op.description!.matchAll(/`((?:tenant|account|project|workzone):[a-z-]+:[a-z-]+)`/g)) {
        assert.ok(known.has(perm!), `${name}: ${method.toUpperCase()} ${path} names unknown permission ${perm}`);
      }
    }
  }
});

test('every description table entry names an operation that exists (no stale entries)', () => {
  for (const { name, doc, table } of docs) {
    const served = new Set([...operations(doc)].map(([p, m]) => `${m.toUpperCase()} ${p}`));
    for (const key of Object.keys(table)) assert.ok(served.has(key), `${name}: table entry ${key} matches no operation`);
  }
});

test('operations that need a token list 401, 403 where a permission is checked, and 429 with Retry-After under /api', () => {
  for (const { name, doc } of docs) {
    for (const [path, method, op] of operations(doc)) {
      const where = `${name}: ${method.toUpperCase()} ${path}`;
      if (isPublic(op)) continue;
      assert.ok(op.responses['401'], `${where}: no 401`);
      const checksPermission = !/\*\*Permission:\*\* none/.test(op.description!);
      if (checksPermission) assert.ok(op.responses['403'], `${where}: no 403`);
      if (path.startsWith('/api/')) {
        assert.ok(op.responses['429'], `${where}: no 429`);
        assert.ok(op.responses['429']!.headers?.['Retry-After'], `${where}: 429 without Retry-After`);
      }
    }
  }
});

test('operations with a body list 408, 413 and 415', () => {
  for (const { name, doc } of docs) {
    for (const [path, method, op] of operations(doc)) {
      if (op.requestBody === undefined) continue;
      for (const status of ['408', '413', '415']) {
        assert.ok(op.responses[status], `${name}: ${method.toUpperCase()} ${path}: no ${status}`);
      }
    }
  }
});

test('the listed answers use each API’s error format: problem+json on API 2, {code, message} on API 1', () => {
  for (const { name, doc } of docs) {
    for (const [path, method, op] of operations(doc)) {
      const r = op.responses['401'] ?? op.responses['415'];
      if (!r) continue;
      const where = `${name}: ${method.toUpperCase()} ${path}`;
      if (path.startsWith('/api/') && !path.startsWith('/api/2/')) {
        assert.deepEqual(r.content?.['application/json']?.schema.required, ['code', 'message'], where);
      } else if (path.startsWith('/oauth/')) {
        assert.deepEqual(r.content?.['application/json']?.schema.required, ['error'], where);
      } else {
        assert.deepEqual(r.content?.['application/problem+json']?.schema.required, ['status', 'title'], where);
      }
    }
  }
});

test('the documented 401 is the answer the service gives, in each API’s format', async () => {
  const noToken = await t.app.inject({ url: '/api/2/accounts' });
  assert.equal(noToken.statusCode, 401);
  assert.match(String(noToken.headers['content-type']), /^application\/problem\+json/);
  const api1 = await t.app.inject({ url: '/api/accounts' });
  assert.equal(api1.statusCode, 401);
  assert.deepEqual(Object.keys(api1.json()).sort(), ['code', 'message']);
});
