// Tag lists and tags end to end, against a started server over real HTTP (PostgreSQL in the
// PostgreSQL pass): a list created through API 2, tags created, changed and deleted in bulks,
// the changes after a version (deletions included) through API 2, the same list read through
// API 1 with `since` (deletions as markers), an invalid bulk refused whole with 400, and the
// whole list deleted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callsAs, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';

let server: OAuthServer;
let api: ReturnType<typeof callsAs>['api'];
const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const A1 = `/api/accounts/${ACCOUNT_ID}`;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  server = await startOAuthServer();
  await server.seed(PROJECT_SEED);
  api = callsAs(server, emailOf).api;
});
after(async () => {
  await server?.stop();
});

test('a tag list through both generations: bulk create/update/delete, afterVersion and since with deletions, all-or-nothing, delete', async () => {
  const p = await api('projectOwner', 'POST', `${A2}/projects`, { name: 'Tagged', subscriptionId: SUB_A });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  const lists = `${A2}/projects/${uuidOf(p.body.id)}/tag-lists`;
  const l = await api('projectOwner', 'POST', lists, { workzoneId: p.body.rootWorkzoneId, tagListType: '3d', name: 'Valves' });
  assert.equal(l.status, 201, JSON.stringify(l.body));
  const list = `${lists}/${uuidOf(l.body.id)}`;

  const created = await api('projectOwner', 'POST', `${list}/tags/bulk`, {
    create: [{ data: { id: 'V-1', boundingBox: [0, 0, 0, 1, 1, 1] } }, { data: { id: 'V-2', boundingBox: [2, 2, 2, 3, 3, 3] } }],
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.tagsVersion, 1);
  const [v1, v2] = created.body.created;

  const before = (await server.operator<{ now: string }>('GET', '/clock')).now;
  await server.advanceClock(2);
  const changed = await api('projectOwner', 'POST', `${list}/tags/bulk`, {
    update: [{ id: v1.id, data: { id: 'V-1b', boundingBox: [0, 0, 0, 2, 2, 2] } }], delete: [v2.id],
  });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  assert.equal(changed.body.tagsVersion, 2);

  // API 2: changes after version 1, the deletion included; the whole list without it.
  const after1 = await api('projectOwner', 'GET', `${list}/tags?afterVersion=1`);
  assert.equal(after1.status, 200);
  assert.deepEqual(after1.body.map((t: any) => [t.id, t.isDeleted]).sort(), [[v1.id, false], [v2.id, true]].sort());
  const whole = await api('projectOwner', 'GET', `${list}/tags`);
  assert.deepEqual(whole.body.map((t: any) => t.data.id), ['V-1b']);

  // API 1: the same list, `since` before the change: the update and a deleted-tag marker.
  const list1 = `${A1}/projects/${p.body.api1Id}/tag-lists/${l.body.api1Id}`;
  const since = await api('projectOwner', 'GET', `${list1}?since=${encodeURIComponent(before)}`);
  assert.equal(since.status, 200, JSON.stringify(since.body));
  assert.equal(since.body.length, 2);
  assert.ok(since.body.some((t: any) => t.isDeleted === true), JSON.stringify(since.body));

  // One invalid tag (min > max) refuses the whole bulk and changes nothing.
  const bad = await api('projectOwner', 'POST', `${list}/tags/bulk`, {
    create: [{ data: { id: 'ok', boundingBox: [0, 0, 0, 1, 1, 1] } }, { data: { id: 'bad', boundingBox: [5, 0, 0, 1, 1, 1] } }],
  });
  assert.equal(bad.status, 400, JSON.stringify(bad.body));
  assert.equal(bad.body.errorCode, 'invalid-input');
  assert.equal((await api('projectOwner', 'GET', list)).body.tagsVersion, 2);

  assert.equal((await api('projectOwner', 'DELETE', list)).status, 204);
  assert.equal((await api('projectOwner', 'GET', list)).status, 404);
});
