// A caller's project list kept per node (src/modules/projects/core/project-lists.ts) and its body
// serialised and gzipped once (src/http/encoded-bodies.ts). Each change below is read back at
// once, on this node, right after its call answered: each case fails if its event's row in
// core/events/invalidation.ts stops dropping the account's lists (project-lists:<a>). Every
// answer is compared byte for byte with a node that keeps no list (PROJECT_LIST_CACHE_PROJECTS=0)
// on the same database. On PGlite, or TEST_DATABASE_URL's PostgreSQL (one node; two nodes:
// cluster-invalidation.test.ts).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { OPERATOR_TOKEN, PUBLIC_URL, testApp, type TestApp } from '../support/app.ts';
import { queryLog } from '../support/query-counter.ts';
import {
  A2, ACCOUNT_ID, GROUP_ID, GROUP_2_ID, PROJECT_SEED, addMembers, advanceClock, createProject, createZone, emailOf, projectWorld, serviceNow, uuidOf, type World,
} from '../support/projects.ts';
import { bytes, md5Hex, pngBytes, putSigned, upload } from '../support/files.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { acceptsGzip } from '../../src/http/encoded-bodies.ts';

const log = queryLog();
let t: TestApp;
let w: World;
let sql: Sql;
/** A node on the same database that keeps no list: today's path, the bytes to match. */
let uncached: { app: App; core: Core };
const tokens: Record<string, string> = {};

before(async () => {
  t = await testApp({}, { wrapSql: (s) => log.wrapSql((sql = s)) });
  w = await projectWorld(t);
  await t.core.jobRunner.stop();
  const config: Config = loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL, PROJECT_LIST_CACHE_PROJECTS: '0' });
  const core = await compose(config, { sql: log.wrapSql(sql) });
  await core.jobRunner.stop();
  uncached = { core, app: await buildApp(core) };
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'projectLister', 'projectOwner']) {
    tokens[name] = (await t.tokens(emailOf(name))).access_token;
  }
});
after(async () => {
  await uncached?.app.close();
  await uncached?.core.close();
  await t.close();
});

const LIST = `${A2}/projects`;

/** The list as `name` gets it from `app` (200 asserted): the raw response. */
async function rawList(name: string, headers: Record<string, string> = {}, app: App = t.app) {
  const res = await app.inject({ method: 'GET', url: LIST, headers: { authorization: `Bearer ${tokens[name]}`, ...headers } });
  assert.equal(res.statusCode, 200, res.body);
  return res;
}

/**
 * The list as `name` sees it on the caching node, checked byte for byte against the node
 * that keeps no list (whose account facts are re-read: on PGlite it hears no other core's events).
 */
async function list(name: string): Promise<any[]> {
  const cached = await rawList(name);
  uncached.core.authorizer.cache.clear();
  const fresh = await rawList(name, {}, uncached.app);
  assert.equal(cached.body, fresh.body, 'the cached answer is the uncached one, byte for byte');
  assert.equal(cached.headers['content-type'], fresh.headers['content-type']);
  return cached.json();
}

const ids = (l: any[]) => l.map((p) => uuidOf(p.id));
const find = (l: any[], p: any) => l.find((x) => x.id === p.id);

test('cache: a list read again issues no query and answers the same bytes (what the cases below invalidate is really kept)', async () => {
  const p = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('erin'), role: w.roles.Viewer }] });
  const first = await list('erin');
  assert.deepEqual(ids(first), [uuidOf(p.id)]);
  const again = await log.measure(() => rawList('erin'));
  assert.deepEqual(again.texts, []);
  assert.equal(again.result.body, JSON.stringify(first));
});

test('reads of one list that miss together share one build (a burst after a change costs one list\'s statements)', async () => {
  await rawList('projectLister'); // the caller's account facts are cached from here on
  await createProject(w.as.projectOwner!); // drops the account's lists
  const one = await log.measure(() => rawList('projectLister'));
  await createProject(w.as.projectOwner!);
  const burst = await log.measure(() => Promise.all(Array.from({ length: 5 }, () => rawList('projectLister'))));
  assert.ok(one.texts.length > 0);
  assert.equal(burst.texts.length, one.texts.length);
  assert.equal(new Set(burst.result.map((r) => r.body)).size, 1);
});

describe('what drops a cached list', () => {
  test('project.created: a lister sees a new project at once', async () => {
    const before = await list('projectLister');
    const p = await createProject(w.as.projectOwner!);
    const after = await list('projectLister');
    assert.equal(after.length, before.length + 1);
    assert.ok(find(after, p));
  });

  test('project.updated, .deleted, .restored: the listed project follows at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    await list('projectLister');
    const put = await w.as.projectOwner!('PATCH', `${LIST}/${uuidOf(p.id)}`, { name: 'Renamed list entry' });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(find(await list('projectLister'), p).name, 'Renamed list entry', 'project.updated');
    assert.equal((await w.as.projectOwner!('DELETE', `${LIST}/${uuidOf(p.id)}`)).status, 204);
    assert.equal(find(await list('projectLister'), p).modificationInfo.isDeleted, true, 'project.deleted');
    assert.equal((await w.as.projectOwner!('PUT', `${LIST}/${uuidOf(p.id)}/restore`)).status, 200);
    assert.equal(find(await list('projectLister'), p).modificationInfo.isDeleted, false, 'project.restored');
  });

  test('member.added in a project the caller is not in: it joins his list at once; member.removed: it leaves', async () => {
    const p = await createProject(w.as.projectOwner!);
    const before = await list('dave');
    assert.ok(!find(before, p));
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('dave'), role: w.roles.Viewer }] });
    assert.ok(find(await list('dave'), p), 'member.added');
    const removed = await w.as.projectOwner!('DELETE', `${LIST}/${uuidOf(p.id)}/members/users/${w.ids.dave}`);
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    assert.ok(!find(await list('dave'), p), 'member.removed');
  });

  test('member.access-removed: a member taken off his last zone leaves the list at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId)).id;
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('frank'), role: w.roles.Viewer }] }, [z]);
    assert.ok(find(await list('frank'), p));
    const gone = await w.as.projectOwner!('DELETE', `${LIST}/${uuidOf(p.id)}/workzones/${uuidOf(z)}/members/users/${w.ids.frank}?allowRemoveOnParents=true`);
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    assert.ok(!find(await list('frank'), p));
  });

  test('file.registered and file.deleted: scanCount and scanSize follow at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    assert.deepEqual(find(await list('projectOwner'), p).statsInfo, { scanCount: 0, scanSize: 0, tagCount: 0, workzoneCount: 1 });
    const [f] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'scan', extension: 'e57', content: bytes(300) }]);
    assert.deepEqual(find(await list('projectOwner'), p).statsInfo, { scanCount: 1, scanSize: 300, tagCount: 0, workzoneCount: 1 }, 'file.registered');
    assert.equal((await w.as.projectOwner!('DELETE', `${LIST}/${uuidOf(p.id)}/files/${f!.id}`)).status, 204);
    assert.deepEqual(find(await list('projectOwner'), p).statsInfo, { scanCount: 0, scanSize: 0, tagCount: 0, workzoneCount: 1 }, 'file.deleted');
  });

  test('tag-list.changed and tag-list.deleted: tagCount follows at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    await list('projectOwner');
    const lists = `${LIST}/${uuidOf(p.id)}/tag-lists`;
    const tl = await w.as.projectOwner!('POST', lists, { workzoneId: p.rootWorkzoneId, tagListType: '3d', name: 'Valves' });
    assert.equal(tl.status, 201, JSON.stringify(tl.body));
    await list('projectOwner');
    const tags = await w.as.projectOwner!('POST', `${lists}/${uuidOf(tl.body.id)}/tags/bulk`, { create: [{ data: { id: 'V1' } }, { data: { id: 'V2' } }] });
    assert.equal(tags.status, 200, JSON.stringify(tags.body));
    assert.equal(find(await list('projectOwner'), p).statsInfo.tagCount, 2, 'tag-list.changed');
    assert.equal((await w.as.projectOwner!('DELETE', `${lists}/${uuidOf(tl.body.id)}`)).status, 204);
    assert.equal(find(await list('projectOwner'), p).statsInfo.tagCount, 0, 'tag-list.deleted');
  });

  test('workzone.created and workzone.deleted: workzoneCount follows at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    await list('projectOwner');
    const z = (await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId)).id;
    assert.equal(find(await list('projectOwner'), p).statsInfo.workzoneCount, 2, 'workzone.created');
    assert.equal((await w.as.projectOwner!('DELETE', `${LIST}/${uuidOf(p.id)}/workzones/${uuidOf(z)}`)).status, 204);
    assert.equal(find(await list('projectOwner'), p).statsInfo.workzoneCount, 1, 'workzone.deleted');
  });

  test('role.updated: a role\'s new permissions show in its members\' lists at once', async () => {
    const role = await w.as.owner!('POST', `${A2}/roles`, { name: `Lister role ${Date.now()}`, legacyPermissions: ['view3d'] });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: uuidOf(role.body.id) }] });
    const before = find(await list('bob'), p).permissions as string[];
    const put = await w.as.owner!('PUT', `${A2}/roles/${uuidOf(role.body.id)}`, { name: role.body.name, legacyPermissions: ['view3d', 'create_project'] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const after = find(await list('bob'), p).permissions as string[];
    assert.notDeepEqual(after, before);
  });

  test('group.member-removed: a project reached through a group leaves the list at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_ID, role: w.roles.Viewer }] });
    assert.ok(find(await list('alice'), p), 'alice is in the group');
    const res = await w.as.owner!('DELETE', `${A2}/groups/${GROUP_ID}/members`, [w.ids.alice]);
    assert.ok(res.status === 204 || res.status === 200, JSON.stringify(res.body));
    assert.ok(!find(await list('alice'), p));
  });

  test('user.roles-changed: a member made a project lister lists every project at once; made an administrator, his rights follow', async () => {
    const p = await createProject(w.as.projectOwner!);
    assert.ok(!find(await list('carol'), p));
    const res = await w.as.owner!('PUT', `${A2}/members/${w.ids.carol}/roles`, ['projectLister']);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const asLister = find(await list('carol'), p).permissions as string[];
    // The same list (every project: the same entry's key), other account roles.
    const admin = await w.as.owner!('PUT', `${A2}/members/${w.ids.carol}/roles`, ['administrator']);
    assert.equal(admin.status, 204, JSON.stringify(admin.body));
    assert.notDeepEqual(find(await list('carol'), p).permissions, asLister);
  });

  test('group.member-added and group.deleted: a project reached through a group joins, then leaves, the list at once', async () => {
    const g = await w.as.owner!('POST', `${A2}/groups`, { name: `Crew ${Date.now()}` });
    assert.equal(g.status, 201, JSON.stringify(g.body));
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: g.body.id, role: w.roles.Viewer }] });
    assert.ok(!find(await list('bob'), p));
    const added = await w.as.owner!('POST', `${A2}/groups/${uuidOf(g.body.id)}/members`, [w.ids.bob]);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.ok(find(await list('bob'), p), 'group.member-added');
    assert.equal((await w.as.owner!('DELETE', `${A2}/groups/${uuidOf(g.body.id)}`)).status, 204);
    assert.ok(!find(await list('bob'), p), 'group.deleted');
  });

  test('user.removed then user.added: a user who left the account and came back lists none of his former projects', async () => {
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('grace'), role: w.roles.Viewer }] });
    assert.ok(find(await list('grace'), p));
    assert.equal((await w.as.owner!('DELETE', `${A2}/members`, [w.ids.grace])).status, 204);
    const back = await w.as.owner!('POST', `${A2}/users/bulk-invite`, [{ email: emailOf('grace') }]);
    assert.equal(back.status, 201, JSON.stringify(back.body));
    assert.equal((await w.as.grace!('POST', `/api/2/me/invitations/${ACCOUNT_ID}/accept`)).status, 204, 'grace accepts the invitation');
    assert.ok(!find(await list('grace'), p));
  });

  test('project.cover-changed: a new cover shows in the list at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    assert.equal(find(await list('projectOwner'), p).coverBlobName, undefined);
    const png = pngBytes(500, 7);
    const body = { name: 'cover', extension: 'png', size: png.length, md5: md5Hex(png) };
    const signed = await w.as.projectOwner!('POST', `${LIST}/${uuidOf(p.id)}/cover`, body);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.ok((await putSigned(t, signed.body.file.url, png)).statusCode < 300);
    const reg = await w.as.projectOwner!('PUT', `${LIST}/${uuidOf(p.id)}/cover`, body);
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    const listed = find(await list('projectOwner'), p);
    assert.equal(listed.coverBlobName, signed.body.file.blobName);
    assert.equal(new URL(listed.coverUrl).pathname, `${LIST}/${uuidOf(p.id)}/blobs/${signed.body.file.blobName}`);
  });

  test('workzone.copied: a zone copied into another project counts in that project\'s workzoneCount at once', async () => {
    const source = await createProject(w.as.projectOwner!);
    const z = (await createZone(w.as.projectOwner!, source.id, source.rootWorkzoneId)).id;
    const destination = await createProject(w.as.projectOwner!);
    assert.equal(find(await list('projectOwner'), destination).statsInfo.workzoneCount, 1);
    const res = await w.as.projectOwner!('POST', `${LIST}/${uuidOf(source.id)}/workzones/${uuidOf(z)}/copy`, {
      destinationName: 'Copied zone', destinationProject: destination.id, destinationWorkzone: destination.rootWorkzoneId,
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await t.core.jobRunner.drain();
    assert.equal(find(await list('projectOwner'), destination).statsInfo.workzoneCount, 2);
  });

  test('account.seeded: a seed that puts a user in a group gives him the group\'s projects at once', async () => {
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { groups: [{ group: GROUP_2_ID, role: w.roles.Viewer }] });
    assert.ok(!find(await list('heidi'), p));
    const account = PROJECT_SEED.accounts[0]!;
    await t.seed({
      ...PROJECT_SEED,
      accounts: [
        { ...account, groups: account.groups!.map((g) => (g.id === GROUP_2_ID ? { ...g, users: [...g.users, emailOf('heidi')] } : g)) },
        ...PROJECT_SEED.accounts.slice(1),
      ],
    });
    assert.ok(find(await list('heidi'), p));
  });
});

test('a membership\'s expiry takes the project out of the list at that time, with no event', async () => {
  const p = await createProject(w.as.projectOwner!);
  const until = new Date((await serviceNow(t)).getTime() + 20_000).toISOString();
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Viewer, expirationDate: until }] });
  assert.ok(find(await list('bob'), p));
  const kept = await log.measure(() => rawList('bob'));
  assert.deepEqual(kept.texts, [], 'kept before the expiry');
  await advanceClock(t, 30); // well within the entry's 60-second life
  // (not compared with the uncached node: its sandbox clock follows a few seconds later)
  assert.ok(!find((await rawList('bob')).json(), p), 'gone at the expiry');
});

describe('the body: gzip when accepted, identity otherwise', () => {
  test('Accept-Encoding: gzip answers Content-Encoding: gzip whose bytes inflate to the identity answer; Vary: Accept-Encoding', async () => {
    const identity = await rawList('projectLister');
    const gz = await rawList('projectLister', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(gz.headers.vary, 'Accept-Encoding');
    assert.equal(Number(gz.headers['content-length']), gz.rawPayload.length);
    assert.ok(gz.rawPayload.length < identity.rawPayload.length);
    assert.deepEqual(gunzipSync(gz.rawPayload), identity.rawPayload);
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.headers.vary, 'Accept-Encoding');
  });

  test('gzip;q=0, identity, or no Accept-Encoding answer identity', async () => {
    for (const ae of ['gzip;q=0', 'identity', 'deflate', 'gzip;q=0, *;q=1', undefined]) {
      const res = await rawList('projectLister', ae === undefined ? {} : { 'accept-encoding': ae });
      assert.equal(res.headers['content-encoding'], undefined, String(ae));
      assert.ok(Array.isArray(res.json()), String(ae));
    }
  });

  test('HEAD answers the GET\'s headers without a body', async () => {
    const get = await rawList('projectLister', { 'accept-encoding': 'gzip' });
    const head = await t.app.inject({ method: 'HEAD', url: LIST, headers: { authorization: `Bearer ${tokens.projectLister}`, 'accept-encoding': 'gzip' } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.rawPayload.length, 0);
    for (const h of ['content-type', 'content-encoding', 'etag', 'vary']) assert.equal(head.headers[h], get.headers[h], h);
  });

  test('If-None-Match with the answer\'s ETag is 304 without a body; the ETag changes with the list', async () => {
    const first = await rawList('projectLister');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    const again = await t.app.inject({ method: 'GET', url: LIST, headers: { authorization: `Bearer ${tokens.projectLister}`, 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);
    await createProject(w.as.projectOwner!);
    const changed = await rawList('projectLister', { 'if-none-match': etag });
    assert.notEqual(changed.headers.etag, etag);
  });
});

test('Accept-Encoding rule: gzip when gzip (or *) is accepted with q > 0', () => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false], ['', false], ['identity', false], ['deflate, br', false], ['gzip', true], ['GZip', true],
    ['gzip, deflate, br', true], ['br;q=1.0, gzip;q=0.8, *;q=0.1', true], ['gzip;q=0', false], ['gzip; q=0.000', false],
    ['*', true], ['*;q=0', false], ['gzip;q=0, *', false], ['x-gzip', true],
  ];
  for (const [header, gzip] of cases) assert.equal(acceptsGzip(header), gzip, String(header));
});

test('PROJECT_LIST_CACHE_PROJECTS=0 turns the cache off: every list queries, and is sent as before (no ETag, no gzip)', async () => {
  const res = await rawList('projectLister', { 'accept-encoding': 'gzip' }, uncached.app);
  assert.equal(res.headers['content-encoding'], undefined);
  assert.equal(res.headers.etag, undefined);
  const again = await log.measure(() => rawList('projectLister', {}, uncached.app));
  assert.ok(again.texts.length > 0);
});

test('PROJECT_LIST_CACHE_PROJECTS config rule: an integer from 0 to 10,000,000, 50,000 by default', () => {
  assert.equal(loadConfig({}).projectListCacheProjects, 50_000);
  assert.equal(loadConfig({ PROJECT_LIST_CACHE_PROJECTS: '0' }).projectListCacheProjects, 0);
  for (const bad of ['-1', '10000001', 'lots', '1.5']) assert.throws(() => loadConfig({ PROJECT_LIST_CACHE_PROJECTS: bad }), /PROJECT_LIST_CACHE_PROJECTS/, bad);
});
