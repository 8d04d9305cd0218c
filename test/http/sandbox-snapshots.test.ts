// The snapshot endpoints (docs/operator-api.md "Snapshots"): behind the operator token (404
// without OPERATOR_TOKEN, 401 without the token), save / list / describe / download /
// upload / restore (by name, or from an uploaded file) / delete; a restore brings back the
// data and the clock, and runs with the node's request gate closed: a request arriving
// meanwhile waits and sees the restored state, never half of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let t: TestApp;
let dir: string;
let olivia: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-snapshot-routes-'));
  t = await testApp({ SNAPSHOTS_DIR: dir });
  await t.seed(BASIC_SEED);
  olivia = (await t.tokens('olivia@acme.test')).access_token;
});
after(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const op = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...OP, ...headers }, ...(payload === undefined ? {} : { payload: payload as never }) });
const accountNames = async () =>
  ((await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: { authorization: `Bearer ${olivia}` } })).json() as { name: string }[]).map((a) => a.name).sort();

const ROUTES = [
  ['GET', '/_operator/snapshots'], ['POST', '/_operator/snapshots'], ['GET', '/_operator/snapshots/a'], ['DELETE', '/_operator/snapshots/a'],
  ['GET', '/_operator/snapshots/a/file'], ['PUT', '/_operator/snapshots/a/file'], ['POST', '/_operator/snapshots/a/restore'],
] as const;

test('the snapshot routes need the operator token: 401 without or with a wrong one; 404 without OPERATOR_TOKEN', async () => {
  for (const [i, [method, url]] of ROUTES.entries()) {
    const headers = i % 2 ? {} : { authorization: 'Bearer wrong-operator-token-of-24-chars' };
    const res = await t.app.inject({ method, url, headers });
    assert.equal(res.statusCode, 401, `${method} ${url}`);
  }
  const off = await testApp({ OPERATOR_TOKEN: '', SNAPSHOTS_DIR: dir });
  try {
    for (const [method, url] of ROUTES) {
      const res = await off.app.inject({ method, url, headers: OP });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().errorCode, 'route-not-found');
    }
  } finally {
    await off.close();
  }
});

test('a bad name answers 400 naming the field; an unknown one 404 snapshot-not-found; a file that is not a snapshot 400 snapshot-invalid', async () => {
  const bad = await op('POST', '/_operator/snapshots', { name: '../etc' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().errorValues.field, 'body.name');
  const extra = await op('POST', '/_operator/snapshots', { name: 'ok', keys: true });
  assert.equal(extra.json().errorValues.field, 'body.keys');
  assert.equal((await op('GET', '/_operator/snapshots/.hidden')).json().errorValues.field, 'params.name');
  for (const [method, url] of [['GET', '/_operator/snapshots/nope'], ['DELETE', '/_operator/snapshots/nope'], ['GET', '/_operator/snapshots/nope/file'], ['POST', '/_operator/snapshots/nope/restore']] as const) {
    const res = await op(method, url);
    assert.equal(res.statusCode, 404, `${method} ${url}`);
    assert.equal(res.json().errorCode, 'snapshot-not-found');
  }
  const junk = await op('PUT', '/_operator/snapshots/junk/file', Buffer.from('not a tar file at all'), { 'content-type': 'application/octet-stream' });
  assert.equal(junk.statusCode, 400, junk.body);
  assert.equal(junk.json().errorCode, 'snapshot-invalid');
  const empty = await op('PUT', '/_operator/snapshots/junk/file');
  assert.equal(empty.statusCode, 400);
  assert.equal((await op('GET', '/_operator/snapshots')).json().snapshots.some((s: { name: string }) => s.name === 'junk'), false);
});

test('save, list, describe; a restore by name brings back the data and the clock', async () => {
  const saved = await op('POST', '/_operator/snapshots', { name: 'before' });
  assert.equal(saved.statusCode, 201, saved.body);
  assert.equal(saved.json().name, 'before');
  assert.ok(saved.json().tables.some((x: { name: string; rows: number }) => x.name === 'accounts' && x.rows === 1));
  const clockAtSave = (await op('GET', '/_operator/clock')).json().offsetSeconds;
  assert.deepEqual((await op('GET', '/_operator/snapshots')).json().snapshots.map((s: { name: string }) => s.name), ['before']);
  assert.equal((await op('GET', '/_operator/snapshots/before')).json().bytes, saved.json().bytes);

  await t.seed({ accounts: [{ name: 'Later', owner: 'olivia@acme.test' }] });
  await op('POST', '/_operator/clock', { advanceSeconds: 3600 });
  assert.deepEqual(await accountNames(), ['Acme', 'Later']);

  const restored = await op('POST', '/_operator/snapshots/before/restore');
  assert.equal(restored.statusCode, 200, restored.body);
  assert.deepEqual(await accountNames(), ['Acme'], 'the account made after the save is gone (caches dropped)');
  assert.equal((await op('GET', '/_operator/clock')).json().offsetSeconds, clockAtSave, 'the clock is back');
});

test('download streams the portable file; upload keeps it under another name; restore from an uploaded file', async () => {
  const file = await op('GET', '/_operator/snapshots/before/file');
  assert.equal(file.statusCode, 200);
  assert.equal(file.headers['content-type'], 'application/octet-stream');
  assert.match(String(file.headers['content-disposition']), /attachment; filename="before\.sbsnap"/);
  const bytes = file.rawPayload;
  assert.equal(bytes.length, (await op('GET', '/_operator/snapshots/before')).json().bytes);

  const uploaded = await op('PUT', '/_operator/snapshots/copy/file', bytes, { 'content-type': 'application/octet-stream' });
  assert.equal(uploaded.statusCode, 201, uploaded.body);
  assert.equal(uploaded.json().name, 'copy');

  await t.seed({ accounts: [{ name: 'Again', owner: 'olivia@acme.test' }] });
  const fromFile = await op('POST', '/_operator/snapshots/shared/restore', bytes, { 'content-type': 'application/octet-stream' });
  assert.equal(fromFile.statusCode, 200, fromFile.body);
  assert.deepEqual(await accountNames(), ['Acme']);
  const names = (await op('GET', '/_operator/snapshots')).json().snapshots.map((s: { name: string }) => s.name).sort();
  assert.deepEqual(names, ['before', 'copy', 'shared']);

  assert.deepEqual((await op('DELETE', '/_operator/snapshots/copy')).json(), { deleted: 'copy' });
  assert.equal((await op('GET', '/_operator/snapshots/copy')).statusCode, 404);
});

test('a request that arrives during a restore waits for it and sees the restored state, never half of it', async () => {
  await t.seed({ accounts: [{ name: 'Doomed', owner: 'olivia@acme.test' }] });
  const order: string[] = [];
  const restore = op('POST', '/_operator/snapshots/before/restore').then((r) => {
    order.push('restore');
    return r;
  });
  await new Promise((r) => setTimeout(r, 20)); // the restore has closed the gate
  assert.equal(t.core.requestGate.inFlight(), 0);
  const during = accountNames().then((names) => {
    order.push('request');
    return names;
  });
  const [r, names] = await Promise.all([restore, during]);
  assert.equal(r.statusCode, 200, r.body);
  assert.deepEqual(order, ['restore', 'request']);
  assert.deepEqual(names, ['Acme']);
});
