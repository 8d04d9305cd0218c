// Cache invalidation across nodes, driven by domain events (docs/architecture.md "Domain
// events"): two nodes on one PostgreSQL database, each caching access facts for 60 s; a
// change committed on node A reaches node B's caches through LISTEN/NOTIFY within a short
// wait, never after the cache lifetime. Needs TEST_DATABASE_URL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_DATABASE_URL } from '../support/database.ts';
import { eventually, twoNodes } from '../support/two-nodes.ts';
import type { TestApp } from '../support/app.ts';
import {
  A2, addMembers, caller, createProject, emailOf, projectWorld, uuidOf, type Call, type World,
} from '../support/projects.ts';

/** Well under the 60-second cache lifetime: only an event explains a change seen this soon. */
const WAIT_MS = 3000;

describe('cache invalidation across nodes (PostgreSQL, domain events)', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  let w: World;
  /** Callers on node B, by name. */
  const onB: Record<string, Call> = {};
  const callerOnB = async (b: TestApp, name: string) => (onB[name] ??= caller(b, (await b.tokens(emailOf(name))).access_token));

  before(async () => {
    nodes = await twoNodes();
    w = await projectWorld(nodes.a);
    for (const name of ['alice', 'bob', 'carol', 'projectOwner']) await callerOnB(nodes.b, name);
  });
  after(async () => {
    await nodes?.close();
  });

  const statusOnB = (name: string, url: string) => async () => (await onB[name]!('GET', url)).status;

  test('member.removed: a member removed on node A is refused on node B within a short wait', async () => {
    const p = await createProject(w.as.projectOwner!);
    const url = `${A2}/projects/${uuidOf(p.id)}/workzones`;
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('alice'), role: w.roles.Viewer }] });
    assert.equal(await statusOnB('alice', url)(), 200, 'node B caches alice\'s grants');
    const removed = await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}/members/users/${w.ids.alice}`);
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    assert.equal(await eventually(statusOnB('alice', url), (s) => s === 403, WAIT_MS), 403);
  });

  test('role.updated: a role changed on node A takes effect on node B within a short wait', async () => {
    const role = await w.as.owner!('POST', `${A2}/roles`, { name: `Reader ${Date.now()}`, legacyPermissions: ['view3d'] });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const p = await createProject(w.as.projectOwner!);
    await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: uuidOf(role.body.id) }] });
    const permissionsOnB = async () => ((await onB.bob!('GET', `${A2}/projects/${uuidOf(p.id)}`)).body.permissions as string[]).sort();
    const before = await permissionsOnB(); // node B caches bob's grants under the old role
    const updated = await w.as.owner!('PUT', `${A2}/roles/${uuidOf(role.body.id)}`, { name: role.body.name, legacyPermissions: ['view3d', 'annotate'] });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const after = await eventually(permissionsOnB, (perms) => perms.join() !== before.join(), WAIT_MS);
    assert.notDeepEqual(after, before, 'the new permissions hold on node B');
  });

  test('user.removed: a user removed from the account on node A loses the account on node B within a short wait', async () => {
    const url = `${A2}`;
    assert.equal(await statusOnB('carol', url)(), 200, 'node B caches carol\'s account facts');
    const res = await w.as.owner!('DELETE', `${A2}/members`, [w.ids.carol]);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.notEqual(await eventually(statusOnB('carol', url), (s) => s !== 200, WAIT_MS), 200);
  });

  test('project.deleted: a project deleted on node A answers deleted-project on node B within a short wait', async () => {
    const p = await createProject(w.as.projectOwner!);
    const url = `${A2}/projects/${uuidOf(p.id)}/workzones`;
    assert.equal(await statusOnB('projectOwner', url)(), 200);
    assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${uuidOf(p.id)}`)).status, 204);
    assert.equal(await eventually(statusOnB('projectOwner', url), (s) => s === 403, WAIT_MS), 403);
  });
});
