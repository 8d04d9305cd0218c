// Issue 26 item 9: the console checks the ids of its own address before any of them enters
// an API path, encodes every segment, and refuses a path the browser would resolve
// elsewhere (console/src/paths.ts; the browser side is test/e2e/console-product.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiPath, isNormalPath, routeOf, segment, UnsafeSegment } from '../../console/src/paths.ts';

const A = '0b3f1c2e-8d7a-4f5b-9c1d-2e3f4a5b6c7d';
const P = '1c4a2d3f-9e8b-4a6c-8d2e-3f4a5b6c7d8e';
const Z = '2d5b3e4a-af9c-4b7d-9e3f-4a5b6c7d8e9f';
const q = (s: string) => new URLSearchParams(s);

test('routeOf: the screens of well-formed addresses, ids as given', () => {
  assert.deepEqual(routeOf('/console/', q('')), { screen: 'accounts' });
  assert.deepEqual(routeOf(`/console/a/${A}`, q('')), { screen: 'projects', account: A });
  assert.deepEqual(routeOf(`/console/a/${A}/users`, q('')), { screen: 'users', account: A });
  assert.deepEqual(routeOf(`/console/a/${A}/sso`, q('')), { screen: 'sso', account: A });
  assert.deepEqual(routeOf(`/console/a/${A}/p/${P}`, q(`zone=${Z}&tab=tags`)), { screen: 'project', account: A, project: P, zone: Z, tab: 'tags', job: null });
  assert.deepEqual(routeOf(`/console/a/${A}/p/${P}`, q('')), { screen: 'project', account: A, project: P, zone: null, tab: 'files', job: null });
  assert.deepEqual(routeOf(`/console/a/${A}/p/${P}/t/${Z}`, q('tag=P-101')), { screen: 'tag-list', account: A, project: P, tagList: Z, tag: 'P-101' });
  assert.deepEqual(routeOf(`/console/a/${A}/p/${P}`, q(`zone=${Z}&tab=connect&job=AbCdEfGhIjKlMnOpQrStUv`)).screen, 'project');
  assert.deepEqual(routeOf('/console/callback', q('code=x')), { screen: 'callback' });
  assert.deepEqual(routeOf('/console/me', q('')), { screen: 'me' });
  assert.deepEqual(routeOf('/console/operator', q('')), { screen: 'operator' });
  assert.deepEqual(routeOf(`/console/a/${A}/nothing`, q('')), { screen: 'not-found' });
});

test('routeOf: a zone, job, project, account or tag list that is not an id is an invalid address (nothing is asked of the service)', () => {
  const crafted: [string, string, string][] = [
    [`/console/a/${A}/p/${P}`, `zone=${encodeURIComponent(`../../../projects/${P}/workzones/${Z}`)}`, 'zone'],
    [`/console/a/${A}/p/${P}`, `zone=${Z}%2F..%2F..`, 'zone'],
    [`/console/a/${A}/p/${P}`, `zone=${Z}&tab=copy&job=${encodeURIComponent('../../x')}`, 'job'],
    [`/console/a/${A}/p/${P}`, `zone=${Z}&tab=connect&job=..`, 'job'],
    [`/console/a/${A}/p/${P}`, `zone=${Z}&tab=..%2F..`, 'tab'],
    [`/console/a/${A}/p/${encodeURIComponent(`${P}/../${Z}`)}`, '', 'project'],
    [`/console/a/..%2F..%2Fusers`, '', 'account'],
    [`/console/a/${A}/p/${P}/t/${encodeURIComponent('../../x')}`, '', 'tag list'],
  ];
  for (const [path, query, part] of crafted) assert.deepEqual(routeOf(path, q(query)), { screen: 'invalid', part }, `${path}?${query}`);
  assert.deepEqual(routeOf('/console/a/%E0%A4%A', q('')), { screen: 'invalid', part: 'address' });
});

test('segment and apiPath: every value is one encoded segment, never a dot segment', () => {
  assert.equal(segment('a/b?c#d'), 'a%2Fb%3Fc%23d');
  for (const bad of ['', '.', '..', '%2e%2e'.replace(/%2e/g, '.')]) assert.throws(() => segment(bad), UnsafeSegment, JSON.stringify(bad));
  const base = apiPath`/api/2/accounts/${A}/projects/${P}`;
  assert.equal(String(base), `/api/2/accounts/${A}/projects/${P}`);
  // A built path is kept as built inside another; a plain string is one segment.
  assert.equal(String(apiPath`${base}/workzones/${'../../x'}`), `/api/2/accounts/${A}/projects/${P}/workzones/..%2F..%2Fx`);
  assert.throws(() => apiPath`${base}/workzones/${'..'}`, UnsafeSegment);
});

test('isNormalPath: the last guard refuses what the browser would resolve elsewhere', () => {
  assert.equal(isNormalPath(`/api/2/accounts/${A}/projects/${P}/files?category=scan`), true);
  for (const p of ['/api/2/a/../b', '/api/2/a/./b', '/api/2/a/%2e%2E/b', '/api/2/a/%2E/b', '//evil.example/x', '/api\\2', 'api/2', '/api/2/a//b']) {
    assert.equal(isNormalPath(p), false, p);
  }
});
