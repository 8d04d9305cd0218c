// Reads that must not grow with the project (issue "Run it in production", item 10): a
// member's project list (API 2's, and API 1's find with every project's zones and members)
// and a member's read of one work zone issue a fixed number of queries, whatever the
// number of projects or zones. Counted on the Sql port, under the
// app (test/support/query-counter.ts), on PGlite or TEST_DATABASE_URL's PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { queryLog } from '../support/query-counter.ts';
import { A1, A2, addMembers, createProject, createZone, emailOf, projectWorld, uuidOf, type Call, type World } from '../support/projects.ts';

const log = queryLog();
let t: TestApp;
let w: World;
/** alice is a Viewer in 3 projects, carol in 30 (the first 3 the same); erin in 2 and frank in 10 of them (API 1's find). */
const projects: any[] = [];
/** A project of 3 zones below the root and one of 30 (each a chain under the root); bob a Viewer on the first's root, dave on the second's. */
const small = { project: null as any, leaf: '', reader: 'bob' };
const large = { project: null as any, leaf: '', reader: 'dave' };

before(async () => {
  t = await testApp({}, { wrapSql: log.wrapSql });
  w = await projectWorld(t);
  await t.core.jobRunner.stop();
  const owner = w.as.projectOwner!;
  for (let i = 0; i < 30; i++) {
    const p = await createProject(owner);
    projects.push(p);
    const members = [
      { user: emailOf('carol'), role: w.roles.Viewer },
      ...(i < 3 ? [{ user: emailOf('alice'), role: w.roles.Viewer }] : []),
      ...(i < 2 ? [{ user: emailOf('erin'), role: w.roles.Viewer }] : []),
      ...(i < 10 ? [{ user: emailOf('frank'), role: w.roles.Viewer }] : []),
    ];
    await addMembers(owner, p.id, { users: members });
  }
  for (const [tree, zones] of [[small, 3], [large, 30]] as const) {
    tree.project = await createProject(owner);
    let parent = tree.project.rootWorkzoneId;
    for (let i = 0; i < zones; i++) parent = (await createZone(owner, tree.project.id, parent)).id;
    tree.leaf = parent;
    await addMembers(owner, tree.project.id, { users: [{ user: emailOf(tree.reader), role: w.roles.Viewer }] }, [tree.project.rootWorkzoneId]);
  }
});
after(() => t.close());

/** The statements one call issues, its status asserted 200; `cold` counts the first call (caches empty). */
async function queriesOf(call: Call, url: string): Promise<{ cold: number; warm: number; body: any; coldTexts: string[] }> {
  const first = await log.measure(() => call('GET', url));
  assert.equal(first.result.status, 200, JSON.stringify(first.result.body));
  // On PostgreSQL the setup's domain events arrive late (LISTEN/NOTIFY), and
  // one may empty a cache after the first call: the warm count is the least of a few calls.
  let warm = Infinity;
  let body: any;
  for (let i = 0; i < 3; i++) {
    const again = await log.measure(() => call('GET', url));
    assert.equal(again.result.status, 200);
    warm = Math.min(warm, again.texts.length);
    body = again.result.body;
  }
  return { cold: first.texts.length, warm, body, coldTexts: first.texts };
}

test('a member\'s project list issues the same number of queries for 3 projects as for 30', async () => {
  const three = await queriesOf(w.as.alice!, `${A2}/projects`);
  const thirty = await queriesOf(w.as.carol!, `${A2}/projects`);
  assert.equal(three.body.length, 3);
  assert.equal(thirty.body.length, 30);
  assert.deepEqual(new Set(thirty.body.map((p: any) => p.id)), new Set(projects.map((p) => p.id)));
  // Every project evaluated: a Viewer sees the project-level member permissions.
  for (const p of thirty.body) assert.ok(p.permissions.includes('project:workzones:list'), JSON.stringify(p.permissions));
  assert.equal(thirty.warm, three.warm, 'warm list');
  assert.equal(thirty.cold, three.cold, `first list: ${JSON.stringify([three.coldTexts, thirty.coldTexts])}`);
  assert.ok(thirty.warm <= 3, `a warm project list issues ${thirty.warm} queries (the list, the grants, the counts)`);
});

test('a member\'s read of one work zone issues the same number of queries in a project of 3 zones as of 30', async () => {
  const zoneUrl = (tree: typeof small) => `${A2}/projects/${uuidOf(tree.project.id)}/workzones/${uuidOf(tree.leaf)}`;
  // Two readers, each reading for the first time: their first reads load the same caches.
  const inSmall = await queriesOf(w.as[small.reader]!, zoneUrl(small));
  const inLarge = await queriesOf(w.as[large.reader]!, zoneUrl(large));
  assert.equal(inSmall.body.id, small.leaf);
  assert.equal(inLarge.body.id, large.leaf);
  assert.deepEqual(inLarge.body.roleIds.map(uuidOf).sort(), [w.roles.Manager, w.roles.Viewer].sort());
  assert.equal(inLarge.warm, inSmall.warm, 'warm read');
  assert.equal(inLarge.cold, inSmall.cold, `first read: ${JSON.stringify([inSmall.coldTexts, inLarge.coldTexts])}`);
  // The zone's read model (its roles and counts) is kept per node until an event changes it
  // (workzone-read-cache.test.ts); the caller's grants are kept the same way.
  assert.equal(inLarge.warm, 0, 'a warm work-zone read issues no query');
});

test('a member\'s API 1 find issues the same number of queries for 2 projects as for 10', async () => {
  const two = await queriesOf(w.as.erin!, `${A1}/projects`);
  const ten = await queriesOf(w.as.frank!, `${A1}/projects`);
  assert.equal(two.body.length, 2);
  assert.equal(ten.body.length, 10);
  assert.deepEqual(new Set(ten.body.map((p: any) => p.id)), new Set(projects.slice(0, 10).map((p) => p.api1Id)));
  // Every project with its details: the root zone the member reads, and its members.
  for (const p of ten.body) {
    assert.equal(p.workzones.length, 1, JSON.stringify(p));
    assert.equal(p.permissions.contributor, true);
    assert.ok(p.userIds.length >= 3, JSON.stringify(p.userIds));
  }
  assert.equal(ten.warm, two.warm, `warm find: ${JSON.stringify(ten.warm)}`);
  assert.equal(ten.cold, two.cold, `first find: ${JSON.stringify([two.coldTexts, ten.coldTexts])}`);
  assert.ok(ten.warm <= 7, `a warm find issues ${ten.warm} queries (the list, the grants, the counts, zones, members, scans)`);
});
