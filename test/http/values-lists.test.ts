// The values module (src/modules/values): GET /api/2/values/permissions (vendor
// listPermissions) answers the permission catalogue the engine evaluates, and GET
// /api/2/values/spatial-references (listSpatialReferences) the EPSG registry of epsg-index,
// the same list a project's spatialReference is checked against. Both need a valid token
// and nothing else; the large list is sent gzipped when asked and answers 304 to its ETag.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, SUB_A, assertProblem, emailOf, projectWorld, type World } from '../support/projects.ts';
import { PERMISSIONS } from '../../src/core/permissions/catalog.ts';

let t: TestApp;
let w: World;
before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

describe('listPermissions', () => {
  test('answers every permission of the catalogue the engine evaluates, in its order, to any signed-in user', async () => {
    const res = await w.as.viewer!('GET', '/api/2/values/permissions');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, PERMISSIONS.map((name) => ({ name })));
  });

  test('without a token: 401 unauthorized', async () => {
    const res = await t.app.inject({ url: '/api/2/values/permissions' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errorCode, 'unauthorized');
  });
});

describe('listSpatialReferences', () => {
  test('answers the EPSG registry: thousands of systems of every kind, by code, each as the vendor describes it', async () => {
    const res = await w.as.viewer!('GET', '/api/2/values/spatial-references');
    assert.equal(res.status, 200);
    const list: { authName: string; code: string; name: string; type: string; deprecated: boolean }[] = res.body;
    assert.ok(list.length > 8000, `${list.length} systems`);
    const byCode = new Map(list.map((s) => [s.code, s]));
    assert.deepEqual(byCode.get('2154'), { authName: 'EPSG', code: '2154', name: 'RGF93 v1 / Lambert-93', type: 'projected', deprecated: false });
    assert.deepEqual(byCode.get('4326'), { authName: 'EPSG', code: '4326', name: 'WGS 84', type: 'geographic 2D', deprecated: false });
    assert.equal(byCode.get('4978')?.type, 'geocentric');
    assert.equal(byCode.get('5703')?.type, 'vertical'); // NAVD88 height
    for (const type of ['projected', 'geographic 2D', 'geographic 3D', 'geocentric', 'vertical', 'compound']) {
      assert.ok(list.some((s) => s.type === type), `a ${type} system`);
    }
    const codes = list.map((s) => Number(s.code));
    assert.deepEqual(codes, [...codes].sort((a, b) => a - b), 'sorted by code');
    assert.equal(new Set(codes).size, codes.length, 'each code once');
  });

  test('is sent gzipped when accepted, with an ETag that answers 304', async () => {
    const { access_token } = await t.tokens(emailOf('viewer'));
    const headers = { authorization: `Bearer ${access_token}`, 'accept-encoding': 'gzip' };
    const res = await t.app.inject({ url: '/api/2/values/spatial-references', headers });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.ok(JSON.parse(gunzipSync(res.rawPayload).toString()).length > 8000);
    const again = await t.app.inject({ url: '/api/2/values/spatial-references', headers: { ...headers, 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });

  test('without a token: 401 unauthorized', async () => {
    const res = await t.app.inject({ url: '/api/2/values/spatial-references' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errorCode, 'unauthorized');
  });
});

describe("a project's spatialReference is checked against the same list", () => {
  test('a system of the registry is accepted (any of its kinds); a code it does not have is 400 invalid-input', async () => {
    for (const code of ['3395', '5703', '32631']) {
      const res = await w.as.projectManager!('POST', `${A2}/projects`, { name: `SR ${code}`, subscriptionId: SUB_A, spatialReference: { authName: 'epsg', code } });
      assert.equal(res.status, 201, `${code}: ${JSON.stringify(res.body)}`);
    }
    assertProblem(await w.as.projectManager!('POST', `${A2}/projects`, { name: 'No', subscriptionId: SUB_A, spatialReference: { authName: 'EPSG', code: '999999' } }), 400, 'invalid-input');
    assertProblem(await w.as.projectManager!('POST', `${A2}/projects`, { name: 'No', subscriptionId: SUB_A, spatialReference: { authName: 'IGNF', code: '2154' } }), 400, 'invalid-input');
  });
});
