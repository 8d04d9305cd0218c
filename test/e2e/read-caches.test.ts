// The per-node read caches against a real started server, over HTTP: a change answered by
// the server is visible in the very next read of what it changed, whichever cache held it
// (a work zone's read model, modules/workzones/core/zone-views.ts; the caller's project access; the
// caller's project list and its gzipped body, modules/projects/core/project-lists.ts).
// The HTTP suite checks each invalidation row in process (workzone-read-cache.test.ts); this
// checks the started service as a client sees it: its own events reach its own caches
// before the change's answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callsAs, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';

let server: OAuthServer;
let api: ReturnType<typeof callsAs>['api'];
let token: ReturnType<typeof callsAs>['token'];
const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  server = await startOAuthServer();
  ({ api, token } = callsAs(server, emailOf));
  await server.seed(PROJECT_SEED);
});
after(async () => {
  await server?.stop();
});

const expect = (res: { status: number; body: any }, status: number) => {
  assert.equal(res.status, status, `${JSON.stringify(res.body)}\n--- server log ---\n${server.server.logs().slice(-4000)}`);
  return res.body;
};

test('a cached work zone shows each change in the next read: rename, a member added, deletion', async () => {
  const roles = expect(await api('owner', 'GET', `${A2}/roles`), 200) as any[];
  const viewerRole = roles.find((r) => r.name === 'Viewer').id as string;
  const p = expect(await api('projectOwner', 'POST', `${A2}/projects`, { name: 'Cache', subscriptionId: SUB_A }), 201);
  const P = `${A2}/projects/${uuidOf(p.id)}`;
  const z = expect(await api('projectOwner', 'POST', `${P}/workzones`, { name: 'Before', parentWorkzoneId: p.rootWorkzoneId }), 201);
  const Z = `${P}/workzones/${uuidOf(z.id)}`;
  const read = async (as = 'projectOwner') => expect(await api(as, 'GET', Z), 200);

  // Read twice so the second comes from the cache.
  await read();
  assert.equal((await read()).name, 'Before');

  expect(await api('projectOwner', 'PUT', Z, { name: 'After' }), 200);
  assert.equal((await read()).name, 'After', 'renamed');

  const rolesBefore = (await read()).roleIds.length;
  assert.equal((await api('viewer', 'GET', Z)).body.errorCode, 'not-member-of-project');
  expect(await api('projectOwner', 'POST', `${P}/members`, { workzones: [z.id], members: { users: [{ user: emailOf('viewer'), role: viewerRole }] } }), 204);
  assert.equal((await read()).roleIds.length, rolesBefore + 1, 'the new member\'s role is present on the zone');
  assert.equal((await read('viewer')).name, 'After', 'the new member reads the zone at once');

  expect(await api('projectOwner', 'DELETE', Z), 204);
  assert.equal((await api('projectOwner', 'GET', Z)).status, 404, 'deleted');
});

test("a cached project list shows each change in the next read, and its gzipped body (as fetch asks for it) is the same list", async () => {
  const roles = expect(await api('owner', 'GET', `${A2}/roles`), 200) as any[];
  const viewerRole = roles.find((r) => r.name === 'Viewer').id as string;
  // Node's fetch sends accept-encoding: gzip, deflate and inflates the answer itself.
  const list = async () => {
    const res = await fetch(`${server.url}${A2}/projects`, { headers: { authorization: `Bearer ${await token('viewer')}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.match(res.headers.get('vary') ?? '', /accept-encoding/i);
    return (await res.json()) as any[];
  };
  const names = async () => (await list()).map((p) => p.name as string).sort();

  const before = await names();
  assert.deepEqual(await names(), before, 'read twice: the second from the cache');
  const p = expect(await api('projectOwner', 'POST', `${A2}/projects`, { name: 'Listed later', subscriptionId: SUB_A }), 201);
  const P = `${A2}/projects/${uuidOf(p.id)}`;
  assert.deepEqual(await names(), before, 'not a member yet');
  expect(await api('projectOwner', 'POST', `${P}/members`, { members: { users: [{ user: emailOf('viewer'), role: viewerRole }] } }), 204);
  assert.deepEqual(await names(), [...before, 'Listed later'].sort(), 'added as a member: listed at once');
  expect(await api('projectOwner', 'PATCH', P, { name: 'Renamed' }), 200);
  assert.ok((await names()).includes('Renamed'), 'renamed');
  const zone = expect(await api('projectOwner', 'POST', `${P}/workzones`, { name: 'Z', parentWorkzoneId: p.rootWorkzoneId }), 201);
  assert.ok(zone.id);
  assert.equal((await list()).find((x) => x.id === p.id).statsInfo.workzoneCount, 2, 'the zone count follows');
  expect(await api('projectOwner', 'DELETE', P, undefined), 204);
  assert.equal((await list()).find((x) => x.id === p.id).modificationInfo.isDeleted, true, 'deleted');
});
