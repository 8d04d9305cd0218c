// Share links through API 2 (vendor getShareLinks, createShareLink, getShareLink,
// updateShareLink, deleteShareLink): `workzone:share-links:*` on the zone reads and changes every
// link, `workzone:own-share-links:*` only one's own; the password kept hashed with the vendor's
// PUT semantics; and the /share/{id} surface: a link session reads the shared zones only, as the
// options allow, no other route takes it, and a deleted or expired link refuses its next request.
// Bodies checked against the vendor's schemas. PGlite by default; TEST_DATABASE_URL runs PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, addMembers, advanceClock, assertProblem, createProject, createZone, emailOf, projectWorld, serviceNow, uuidOf, type Call, type Res, type World,
} from '../support/projects.ts';
import { bytes, upload } from '../support/files.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let sql: Sql;
let w: World;
let P: any;
let Z: any;
let Z2: any;
let url = '';
let vendor: VendorValidator | null = null;
let sharer: Call;
let otherSharer: Call;

const OPTIONS = { workzones: false, notes: true, issues: false, measurements: true, crops: false, tags: true };
const PASSWORD = 'Correct-Horse-9';

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Level 2');
  Z2 = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Level 3');
  // A role with own-share-links only (no legacy name: CONTRACT §5), and view3d to see the zone.
  const role = await w.as.owner!('POST', `${A2}/roles`, {
    name: 'Own sharer', permissions: ['workzone:own-share-links:read', 'workzone:own-share-links:write', 'workzone:reality-data:read'],
  });
  assert.equal(role.status, 201, JSON.stringify(role.body));
  await addMembers(w.as.projectOwner!, P.id, {
    users: [
      { user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager },
      { user: emailOf('alice'), role: uuidOf(role.body.id) }, { user: emailOf('bob'), role: uuidOf(role.body.id) },
    ],
  });
  sharer = w.as.alice!;
  otherSharer = w.as.bob!;
  url = `${A2}/projects/${uuidOf(P.id)}/share-links`;
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
});
after(() => t.close());

const conforms = (operationId: string, status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId}: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'For the client', workzoneId: Z.id, membershipRequired: false, shareOptions: OPTIONS, ...extra,
});
const putBody = (extra: Record<string, unknown> = {}) => ({
  name: 'For the client', sharedWorkzonesIds: null, password: null, expiresAt: null, logoBlob: null, membershipRequired: false,
  shareOptions: OPTIONS, savedView: null, ...extra,
});

async function create(call: Call, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', url, body(extra));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Anonymous calls to the /share surface, with a session token when given. */
const share = async (method: 'GET' | 'POST', path: string, token?: string | null, payload?: unknown): Promise<Res> => {
  const res = await t.app.inject({ method, url: path, payload: payload as object | undefined, headers: token ? { authorization: `Bearer ${token}` } : {} });
  let b: unknown = res.body;
  try {
    b = res.body ? res.json() : null;
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body: b, headers: res.headers };
};

async function openSession(linkUrn: string, payload: unknown = {}, headers: Record<string, string> = {}): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/share/${uuidOf(linkUrn)}/sessions`, payload: payload as object, headers });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().token;
}

test('create (201), get, list, overwrite with PUT, delete (204): the vendor shapes; link is the address the service opens', async () => {
  const created = await w.as.manager!('POST', url, body({ sharedWorkzonesIds: [Z2.id], password: PASSWORD, expiresAt: '2099-01-01T00:00:00Z', savedView: { type: 'viewpoint' } }));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  conforms('createShareLink', 201, created.body);
  const l = created.body;
  assert.match(l.id, /^urn:svc:sharelink:/);
  assert.equal(l.link, `${new URL(l.link).origin}/share/${uuidOf(l.id)}`);
  assert.equal(l.passwordProtected, true);
  assert.equal(l.workzoneId, Z.id);
  // `workzones` is off: the additional zones are kept but not shared, so not listed.
  assert.deepEqual(l.sharedWorkzonesIds, []);
  assert.equal(l.createdBy, `urn:svc:user:${w.ids.manager}`);
  assert.ok(!JSON.stringify(l).includes(PASSWORD));

  const got = await w.as.manager!('GET', `${url}/${l.id}`);
  assert.equal(got.status, 200);
  conforms('getShareLink', 200, got.body);
  const list = await w.as.projectOwner!('GET', url);
  conforms('getShareLinks', 200, list.body);
  assert.deepEqual(list.body.map((x: any) => x.id), [l.id]);

  const put = await w.as.manager!('PUT', `${url}/${l.id}`, putBody({ name: 'Renamed', sharedWorkzonesIds: [Z2.id], shareOptions: { ...OPTIONS, workzones: true } }));
  assert.equal(put.status, 200, JSON.stringify(put.body));
  conforms('updateShareLink', 200, put.body);
  assert.equal(put.body.name, 'Renamed');
  assert.deepEqual(put.body.sharedWorkzonesIds, [Z2.id]);
  assert.equal(put.body.expiresAt, null, 'PUT overwrites: a null expiry is none');
  assert.equal(put.body.passwordProtected, true, 'password null keeps it');
  assert.equal(put.body.savedView, null);

  assert.equal((await w.as.manager!('DELETE', `${url}/${l.id}`)).status, 204);
  assertProblem(await w.as.manager!('GET', `${url}/${l.id}`), 404, 'sharelink-not-found');
  assertProblem(await w.as.manager!('DELETE', `${url}/${l.id}`), 404, 'sharelink-not-found');
});

test('own-share-links: the creator lists, reads, changes and deletes his links only; share-links: every link of the zone', async () => {
  const mine = await create(sharer, { name: 'Alice\'s' });
  const managers = await create(w.as.manager!, { name: 'Manager\'s' });
  assert.deepEqual((await sharer('GET', url)).body.map((x: any) => x.id), [mine.id]);
  assert.deepEqual((await otherSharer('GET', url)).body, []);
  assert.deepEqual((await w.as.manager!('GET', url)).body.map((x: any) => x.id), [mine.id, managers.id]);
  assert.deepEqual((await w.as.viewer!('GET', url)).body, []);

  const r = assertProblem(await otherSharer('GET', `${url}/${mine.id}`), 403, 'view-sharelink-forbidden');
  assert.deepEqual(r.errorValues.requiredPermissions, ['workzone:share-links:read']);
  assertProblem(await sharer('GET', `${url}/${managers.id}`), 403, 'view-sharelink-forbidden');
  assertProblem(await otherSharer('PUT', `${url}/${mine.id}`, putBody({ name: 'no' })), 403, 'update-sharelink-forbidden');
  assertProblem(await otherSharer('DELETE', `${url}/${mine.id}`), 403, 'delete-sharelink-forbidden');
  assertProblem(await sharer('DELETE', `${url}/${managers.id}`), 403, 'delete-sharelink-forbidden');
  assertProblem(await w.as.viewer!('POST', url, body()), 403, 'create-sharelink-forbidden');
  // Sharing another zone asks for the permission there too: the viewer has none anywhere.
  assertProblem(await w.as.viewer!('PUT', `${url}/${mine.id}`, putBody()), 403, 'update-sharelink-forbidden');
  assertProblem(await w.as.member!('GET', url), 403, 'not-member-of-project');
  assertProblem(await w.as.outsider!('GET', url), 404, 'account-not-found');

  assert.equal((await sharer('GET', `${url}/${mine.id}`)).status, 200);
  assert.equal((await sharer('PUT', `${url}/${mine.id}`, putBody({ name: 'Alice renamed' }))).body.name, 'Alice renamed');
  // The manager (legacy "share": share-links:*) changes anyone's link.
  assert.equal((await w.as.manager!('PUT', `${url}/${mine.id}`, putBody({ name: 'Manager renamed' }))).status, 200);
  assert.equal((await sharer('DELETE', `${url}/${mine.id}`)).status, 204);
  assert.equal((await w.as.manager!('DELETE', `${url}/${managers.id}`)).status, 204);
});

test('bad input is a 400 naming the field; bad references 400/404; nothing is written', async () => {
  const before = (await w.as.manager!('GET', url)).body.length;
  const p = (extra: Record<string, unknown>) => w.as.manager!('POST', url, body(extra));
  assertProblem(await p({ name: '' }), 400, 'invalid-input');
  assertProblem(await p({ name: '   ' }), 400, 'invalid-input');
  assertProblem(await p({ password: 'short1A!' }), 400, 'invalid-input');
  assertProblem(await p({ password: 'alllowercaseletters' }), 400, 'invalid-input');
  assertProblem(await p({ expiresAt: '2001-01-01T00:00:00Z' }), 400, 'invalid-input');
  assertProblem(await p({ expiresAt: 'tomorrow' }), 400, 'invalid-input');
  assertProblem(await p({ shareOptions: { notes: true } }), 400, 'invalid-input');
  assertProblem(await p({ membershipRequired: undefined }), 400, 'invalid-input');
  assertProblem(await p({ surprise: 1 }), 400, 'invalid-input');
  assertProblem(await p({ workzoneId: 'urn:svc:project:00000000-0000-4000-8000-000000000000' }), 400, 'invalid-workzone-urn');
  assertProblem(await p({ workzoneId: '00000000-0000-4000-8000-000000000000' }), 404, 'workzone-not-found');
  assertProblem(await p({ sharedWorkzonesIds: ['00000000-0000-4000-8000-000000000000'] }), 404, 'workzone-not-found');
  assertProblem(await w.as.manager!('GET', `${url}/urn:svc:annotation:00000000-0000-4000-8000-000000000000`), 400, 'invalid-sharelink-urn');
  assertProblem(await w.as.manager!('GET', `${url}/00000000-0000-4000-8000-000000000000`), 404, 'sharelink-not-found');
  // 24 characters of one class are enough (the vendor's rule).
  const long = await create(w.as.manager!, { password: 'a'.repeat(24) });
  assert.equal((await w.as.manager!('GET', url)).body.length, before + 1);
  await w.as.manager!('DELETE', `${url}/${long.id}`);
});

test('PUT password: null keeps it, "" removes it, a value replaces it and ends the open sessions', async () => {
  const l = await create(w.as.manager!, { password: PASSWORD });
  const session = await openSession(l.id, { password: PASSWORD });
  const keep = await w.as.manager!('PUT', `${url}/${l.id}`, putBody({ password: null }));
  assert.equal(keep.body.passwordProtected, true);
  assert.equal((await share('GET', `/share/${uuidOf(l.id)}/scope`, session)).status, 200, 'keeping the password keeps the sessions');
  const replaced = await w.as.manager!('PUT', `${url}/${l.id}`, putBody({ password: 'Another-Secret-7' }));
  assert.equal(replaced.body.passwordProtected, true);
  assertProblem(await share('GET', `/share/${uuidOf(l.id)}/scope`, session), 401, 'unauthorized');
  assertProblem(await share('POST', `/share/${uuidOf(l.id)}/sessions`, null, { password: PASSWORD }), 401, 'sharelink-password-required');
  await openSession(l.id, { password: 'Another-Secret-7' });
  const removed = await w.as.manager!('PUT', `${url}/${l.id}`, putBody({ password: '' }));
  assert.equal(removed.body.passwordProtected, false);
  await openSession(l.id);
  await w.as.manager!('DELETE', `${url}/${l.id}`);
});

test('opening a link: its facts to anyone, a session after its password, membership when it asks for it', async () => {
  const l = await create(w.as.manager!, { password: PASSWORD });
  const id = uuidOf(l.id);
  const facts = await share('GET', `/share/${id}/info`);
  assert.equal(facts.status, 200);
  assert.deepEqual(facts.body, { id, name: 'For the client', passwordProtected: true, membershipRequired: false, expiresAt: null, shareOptions: OPTIONS });
  assertProblem(await share('POST', `/share/${id}/sessions`, null, {}), 401, 'sharelink-password-required');
  assertProblem(await share('POST', `/share/${id}/sessions`, null, { password: 'Wrong-Password-1' }), 401, 'sharelink-password-required');
  assertProblem(await share('GET', `/share/${id}/scope`), 401, 'unauthorized');
  assertProblem(await share('GET', `/share/${id}/scope`, 'made-up-token'), 401, 'unauthorized');
  assertProblem(await share('GET', '/share/00000000-0000-4000-8000-000000000000/info'), 404, 'sharelink-not-found');
  assertProblem(await share('GET', '/share/not-a-uuid/info'), 404, 'sharelink-not-found');
  const token = await openSession(l.id, { password: PASSWORD });
  const scope = await share('GET', `/share/${id}/scope`, token);
  assert.equal(scope.status, 200, JSON.stringify(scope.body));
  assert.deepEqual(scope.body.workzones, [{ id: uuidOf(Z.id), name: 'Level 2' }]);

  const members = await create(w.as.manager!, { membershipRequired: true });
  assertProblem(await share('POST', `/share/${uuidOf(members.id)}/sessions`, null, {}), 401, 'sharelink-membership-required');
  const managerToken = (await t.tokens(emailOf('manager'))).access_token;
  await openSession(members.id, {}, { authorization: `Bearer ${managerToken}` });
  for (const x of [l, members]) await w.as.manager!('DELETE', `${url}/${x.id}`);
});

test('a session reads the shared zones only, as the options allow', async () => {
  const P2 = `${A2}/projects/${uuidOf(P.id)}`;
  const note = (await w.as.manager!('POST', `${P2}/annotations`, { workzoneId: Z.id, annotationType: 'Note', title: 'Shared note', position: { x: 1, y: 2, z: 3 }, savedView: null })).body;
  const issue = (await w.as.manager!('POST', `${P2}/annotations`, { workzoneId: Z.id, annotationType: 'Issue', title: 'Hidden issue', position: { x: 1, y: 2, z: 3 }, savedView: null })).body;
  const elsewhere = (await w.as.manager!('POST', `${P2}/annotations`, { workzoneId: Z2.id, annotationType: 'Note', title: 'Other zone', position: { x: 0, y: 0, z: 0 }, savedView: null })).body;
  const m = await w.as.manager!('POST', `${P2}/measurements`, { workzoneId: Z.id, name: 'Span', kind: 'distance', points: [{ x: 0, y: 0, z: 0 }, { x: 3, y: 4, z: 0 }] });
  assert.equal(m.status, 201, JSON.stringify(m.body));
  const list = await w.as.manager!('POST', `${P2}/tag-lists`, { workzoneId: Z.id, tagListType: '3d', name: 'Valves' });
  assert.equal(list.status, 201, JSON.stringify(list.body));

  const l = await create(w.as.manager!);
  const id = uuidOf(l.id);
  const token = await openSession(l.id);
  const annotations = await share('GET', `/share/${id}/annotations`, token);
  assert.equal(annotations.status, 200, JSON.stringify(annotations.body));
  assert.deepEqual(annotations.body.map((a: any) => a.title), ['Shared note'], 'notes on, issues off, other zones not shared');
  const measurements = await share('GET', `/share/${id}/measurements`, token);
  assert.deepEqual(measurements.body.map((x: any) => x.name), ['Span']);
  const tags = await share('GET', `/share/${id}/tag-lists`, token);
  assert.deepEqual(tags.body.map((x: any) => x.name), ['Valves']);
  assert.deepEqual((await share('GET', `/share/${id}/files`, token)).body, []);
  assertProblem(await share('GET', `/share/${id}/crops`, token), 403, 'sharelink-option-disabled');
  assertProblem(await share('GET', `/share/${id}/files/00000000-0000-4000-8000-000000000000/content`, token), 404, 'file-not-found');

  // With `workzones` on, the additional zone is shared too.
  await w.as.manager!('PUT', `${url}/${l.id}`, putBody({ sharedWorkzonesIds: [Z2.id], shareOptions: { ...OPTIONS, workzones: true, issues: true } }));
  const more = await share('GET', `/share/${id}/annotations`, token);
  assert.deepEqual(more.body.map((a: any) => a.title).sort(), ['Hidden issue', 'Other zone', 'Shared note']);
  await w.as.manager!('DELETE', `${url}/${l.id}`);
  for (const a of [note, issue, elsewhere]) await w.as.manager!('DELETE', `${P2}/annotations/${a.id}`);
});

test('a session lists the shared zones\' files and answers a short download URL of each; a file elsewhere is not found', async () => {
  const [inZone] = await upload(t, w.as.projectOwner!, P.id, Z.id, [{ name: 'Model', extension: 'ifc', content: bytes(64, 3) }]);
  const [onRoot] = await upload(t, w.as.projectOwner!, P.id, P.rootWorkzoneId, [{ name: 'Elsewhere', extension: 'ifc', content: bytes(32, 4) }]);
  const l = await create(w.as.manager!);
  const id = uuidOf(l.id);
  const token = await openSession(l.id);
  const files = await share('GET', `/share/${id}/files`, token);
  assert.equal(files.status, 200, JSON.stringify(files.body));
  assert.deepEqual(files.body.map((f: any) => [f.name, f.category, f.size]), [['Model', 'model', 64]]);
  const content = await share('GET', `/share/${id}/files/${uuidOf(inZone!.id)}/content`, token);
  assert.equal(content.status, 302);
  assert.ok(String(content.headers.location).length > 0);
  assertProblem(await share('GET', `/share/${id}/files/${uuidOf(onRoot!.id)}/content`, token), 404, 'file-not-found');
  assertProblem(await share('GET', `/share/${id}/files/${uuidOf(inZone!.id)}/content`), 401, 'unauthorized');
  await w.as.manager!('DELETE', `${url}/${l.id}`);
  for (const f of [inZone!, onRoot!]) await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(P.id)}/files/${f.id}`);
});

test('no other route takes a link session: every operation of API 1, API 2 and the other surfaces answers 401 (or 404 for the operator API)', async () => {
  const l = await create(w.as.manager!);
  const other = await create(w.as.manager!);
  const token = await openSession(l.id);
  const sample = '00000000-0000-4000-8000-000000000000';
  const fill = (path: string) => path.replace(/\{accountRef\}|\{accountId\}/g, uuidOf(A2.split('/').pop()!)).replace(/\{projectRef\}|\{projectId\}/g, uuidOf(P.id))
    .replace(/\{workzoneRef\}|\{workzoneId\}/g, uuidOf(Z.id)).replace(/\{[^}]+\}/g, sample);
  let walked = 0;
  const refusedWrongly: string[] = [];
  for (const doc of ['/api/2/openapi.json', '/api/openapi.json']) {
    const spec = (await share('GET', doc)).body;
    for (const [path, item] of Object.entries<any>(spec.paths)) {
      for (const method of Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))) {
                // Public by design, they read no bearer: the documents and the OAuth endpoints (token, revoke, keys, metadata).
        if (!path.startsWith('/api') || path.endsWith('openapi.json') || path.endsWith('/docs')) continue;
        const res = await t.app.inject({ method: method.toUpperCase() as any, url: fill(path), headers: { authorization: `Bearer ${token}` }, payload: method === 'get' || method === 'delete' ? undefined : {} });
        walked++;
        if (res.statusCode !== 401) refusedWrongly.push(`${method.toUpperCase()} ${path}: ${res.statusCode}`);
      }
    }
  }
  assert.ok(walked > 100, `walked ${walked} operations`);
  assert.deepEqual(refusedWrongly, []);
  for (const [method, path] of [['GET', '/connect/abc'], ['POST', '/connect/abc/files'], ['GET', '/oauth/userinfo']] as const) {
    const res = await t.app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 401, `${method} ${path}`);
  }
  assert.notEqual((await t.app.inject({ method: 'GET', url: '/_operator/outbox', headers: { authorization: `Bearer ${token}` } })).statusCode, 200);
  // Nor does another link's surface.
  assertProblem(await share('GET', `/share/${uuidOf(other.id)}/scope`, token), 401, 'unauthorized');
  assert.equal((await share('GET', `/share/${uuidOf(l.id)}/scope`, token)).status, 200);
  for (const x of [l, other]) await w.as.manager!('DELETE', `${url}/${x.id}`);
});

test('each change publishes its event (share-link.created, .updated, .deleted) for webhooks and caches', async () => {
  const l = await create(w.as.manager!);
  await w.as.manager!('PUT', `${url}/${l.id}`, putBody({ name: 'x' }));
  await w.as.manager!('DELETE', `${url}/${l.id}`);
  const rows = await sql.query<{ type: string }>(`SELECT type FROM domain_events WHERE data->>'shareLinkId' = $1 ORDER BY seq`, [uuidOf(l.id)]);
  assert.deepEqual(rows.map((r) => r.type), ['share-link.created', 'share-link.updated', 'share-link.deleted']);
});

test('a deleted link refuses its session\'s next request; an expired one too', async () => {
  const l = await create(w.as.manager!);
  const token = await openSession(l.id);
  assert.equal((await share('GET', `/share/${uuidOf(l.id)}/files`, token)).status, 200);
  assert.equal((await w.as.manager!('DELETE', `${url}/${l.id}`)).status, 204);
  assertProblem(await share('GET', `/share/${uuidOf(l.id)}/files`, token), 401, 'unauthorized');
  assertProblem(await share('GET', `/share/${uuidOf(l.id)}/info`), 404, 'sharelink-not-found');

  const now = (await serviceNow(t)).getTime();
  const soon = await create(w.as.manager!, { expiresAt: new Date(now + 600_000).toISOString() });
  const s2 = await openSession(soon.id);
  assert.equal((await share('GET', `/share/${uuidOf(soon.id)}/scope`, s2)).status, 200);
  // The service clock moves past the expiry (sandbox clock): the very next request is refused.
  const later = (await w.as.manager!('GET', `${url}/${soon.id}`)).body.expiresAt;
  await advanceClock(t, Math.ceil((Date.parse(later) - now) / 1000) + 60);
  assertProblem(await share('GET', `/share/${uuidOf(soon.id)}/scope`, s2), 403, 'sharelink-expired');
  assertProblem(await share('POST', `/share/${uuidOf(soon.id)}/sessions`, null, {}), 403, 'sharelink-expired');
});

test('the /share surface is charged to the caller\'s address like the APIs: password guesses run out (429)', async () => {
  const limited = await testApp({ RATE_LIMIT_ADDRESS_RATE: '1', RATE_LIMIT_ADDRESS_BURST: '3' });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await limited.app.inject({ method: 'POST', url: '/share/00000000-0000-4000-8000-000000000000/sessions', payload: { password: `guess-${i}` } });
      statuses.push(res.statusCode);
    }
    assert.ok(statuses.slice(0, 3).every((s) => s === 404), statuses.join(' '));
    assert.ok(statuses.includes(429), `ten guesses at 1/s with a burst of 3: ${statuses.join(' ')}`);
  } finally {
    await limited.close();
  }
});
