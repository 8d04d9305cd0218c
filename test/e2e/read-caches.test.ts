// The per-node read caches against a real started server, over HTTP: a change answered by
// the server is visible in the very next read of what it changed, whichever cache held it
// (a work zone's read model, core/workzones/zone-views.ts; the caller's project access).
// The HTTP suite checks each invalidation row in process (workzone-read-cache.test.ts); this
// checks the started service as a client sees it: its own events reach its own caches
// before the change's answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callsAs, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';

let server: OAuthServer;
let api: ReturnType<typeof callsAs>['api'];
const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  server = await startOAuthServer();
  ({ api } = callsAs(server, emailOf));
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
