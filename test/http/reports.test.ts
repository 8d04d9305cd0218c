// API 1's reports (spec: the report rows; CONTRACT §6): a project's last-access date
// moves, by the service clock (UTC day), when the project or one of its resources is read
// or written through either API, not when it is only listed or refused; the writes are
// coalesced (one per project per day per node). A user's date moves with any
// authenticated API call, coalesced the same way.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, PROJECT_SEED, SUB_A, SUB_B, addMembers, advanceClock, assertApi1Error, caller, createProject, emailOf, projectWorld, serviceNow,
  uuidOf, type Call, type World,
} from '../support/projects.ts';

const DAY = 86_400;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let t: TestApp;
let w: World;
const callers = new Map<string, Call>();

/** A caller with a token valid at the service's current time (advancing days expires tokens). */
async function as(name: string): Promise<Call> {
  let c = callers.get(name);
  if (!c) callers.set(name, (c = caller(t, (await t.tokens(emailOf(name))).access_token)));
  return c;
}

async function nextDay(): Promise<void> {
  await advanceClock(t, DAY);
  callers.clear();
}

const today = async () => (await serviceNow(t)).toISOString().slice(0, 10);

/** The report as the account owner (200 asserted). */
async function report(query = ''): Promise<any[]> {
  const res = await (await as('owner'))('GET', `${A1}/reports/projects-last-accessed${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The project's last-access date once it equals `expected` (the write follows the read), or what it is after 3 s. */
async function dateOf(p: any, expected?: string | null): Promise<string | null> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const row = (await report()).find((r) => r.projectId === p.api1Id);
    assert.ok(row, `a row for ${p.name}`);
    if (expected === undefined || row.lastAccessedDate === expected || Date.now() > deadline) return row.lastAccessedDate;
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  // Run the whole file around noon, service time, far from a change of day.
  const now = await serviceNow(t);
  const noon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + (now.getUTCHours() >= 12 ? 1 : 0), 12);
  await advanceClock(t, Math.ceil((noon - now.getTime()) / 1000));
  callers.clear();
});
after(() => t.close());

describe('projects-last-accessed', () => {
  test('created today; a day later unchanged until a read (API 2, API 1, a resource); lists and refusals move nothing', async () => {
    const owner = await as('projectOwner');
    const p1 = await createProject(owner, { name: 'Read me' });
    const p2 = await createProject(owner, { name: 'Read me too' });
    const d0 = await today();
    assert.equal(await dateOf(p1, d0), d0, 'creating is writing');
    assert.equal(await dateOf(p2, d0), d0);

    await nextDay();
    const d1 = await today();
    assert.notEqual(d1, d0);
    // Listing through either API, the report itself, and a refused read are no access.
    assert.equal((await (await as('projectOwner'))('GET', `${A2}/projects`)).status, 200);
    assert.equal((await (await as('projectOwner'))('GET', `${A1}/projects`)).status, 200);
    assert.equal((await (await as('member'))('GET', `${A2}/projects/${uuidOf(p1.id)}`)).status, 403);
    assert.equal((await (await as('member'))('GET', `${A1}/projects/${p2.api1Id}`)).status, 403);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await dateOf(p1), d0);
    assert.equal(await dateOf(p2), d0);

    // A read through API 2 moves p1 only; one through API 1 moves p2.
    assert.equal((await (await as('projectLister'))('GET', `${A2}/projects/${uuidOf(p1.id)}`)).status, 200);
    assert.equal(await dateOf(p1, d1), d1);
    assert.equal(await dateOf(p2), d0);
    assert.equal((await (await as('projectOwner'))('GET', `${A1}/projects/${p2.api1Id}`)).status, 200);
    assert.equal(await dateOf(p2, d1), d1);

    // Another day: reading one of its resources (the work zones) is reading the project.
    await nextDay();
    const d2 = await today();
    assert.equal((await (await as('projectOwner'))('GET', `${A2}/projects/${uuidOf(p1.id)}/workzones`)).status, 200);
    assert.equal(await dateOf(p1, d2), d2);
    assert.equal(await dateOf(p2), d1);
  });

  test('null until first accessed (a project created by a work-zone copy)', async () => {
    const owner = await as('projectOwner');
    const src = await createProject(owner, { name: 'Copy source' });
    const res = await owner('POST', `${A2}/projects/${uuidOf(src.id)}/workzones/${uuidOf(src.rootWorkzoneId)}/copy`, { destinationName: 'Never opened' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await t.core.jobRunner.drain();
    const copy = (await owner('GET', `${A2}/projects`)).body.find((p: any) => p.name === 'Never opened');
    assert.ok(copy);
    assert.equal(await dateOf(copy), null);
    assert.equal((await owner('GET', `${A1}/projects/${copy.api1Id}`)).status, 200);
    const d = await today();
    assert.equal(await dateOf(copy, d), d);
  });

  test('rows: accountId, planId, projectId (API 1 ids), projectName, lastAccessedDate; filters subscriptionId and projectId (API 1 id or UUID)', async () => {
    const owner = await as('projectOwner');
    const onA = await createProject(owner, { name: 'On A', subscriptionId: SUB_A });
    const onB = await createProject(owner, { name: 'On B', subscriptionId: SUB_B });
    const account1 = (await (await as('owner'))('GET', A1)).body.id;
    const subs = new Map(((await (await as('owner'))('GET', `${A1}/subscriptions`)).body as any[]).map((s) => [s.name, s.id]));

    const all = await report();
    assert.ok(all.length >= 2);
    for (const r of all) {
      assert.deepEqual(Object.keys(r).sort(), ['accountId', 'lastAccessedDate', 'planId', 'projectId', 'projectName']);
      assert.equal(r.accountId, account1);
      for (const id of [r.accountId, r.planId, r.projectId]) assert.doesNotMatch(id, UUID);
      assert.ok(r.lastAccessedDate === null || DATE.test(r.lastAccessedDate));
    }
    const rowB = all.find((r) => r.projectId === onB.api1Id);
    assert.deepEqual({ ...rowB, lastAccessedDate: undefined }, {
      accountId: account1, planId: subs.get('B'), projectId: onB.api1Id, projectName: 'On B', lastAccessedDate: undefined,
    });

    for (const sub of [subs.get('B'), SUB_B]) {
      const rows = await report(`?subscriptionId=${sub}`);
      assert.ok(rows.length >= 1);
      assert.ok(rows.every((r) => r.planId === subs.get('B')));
      assert.ok(rows.some((r) => r.projectId === onB.api1Id));
    }
    for (const ref of [onA.api1Id, uuidOf(onA.id)]) {
      assert.deepEqual((await report(`?projectId=${ref}`)).map((r) => r.projectId), [onA.api1Id]);
    }
    assert.deepEqual((await report(`?projectId=${onA.api1Id}&subscriptionId=${subs.get('A')}`)).map((r) => r.projectId), [onA.api1Id]);
    assert.deepEqual(await report(`?projectId=${onA.api1Id}&subscriptionId=${subs.get('B')}`), []);
    assert.deepEqual(await report('?projectId=nosuchproject'), []);
    assert.deepEqual(await report('?subscriptionId=99999999-9999-4999-8999-999999999999'), []);
  });

  test('the write is coalesced: three reads on a new day issue one UPDATE; the date stays', async () => {
    const owner = await as('projectOwner');
    const p = await createProject(owner, { name: 'Coalesced' });
    await nextDay();
    const repo = t.core.store.repos.projects;
    const original = repo.touchAccessed;
    const calls: string[] = [];
    repo.touchAccessed = async (id, date) => {
      if (id === uuidOf(p.id)) calls.push(date);
      return original.call(repo, id, date);
    };
    try {
      const c = await as('projectOwner');
      assert.equal((await c('GET', `${A2}/projects/${uuidOf(p.id)}`)).status, 200);
      assert.equal((await c('GET', `${A1}/projects/${p.api1Id}`)).status, 200);
      assert.equal((await c('GET', `${A2}/projects/${uuidOf(p.id)}/workzones`)).status, 200);
      const d = await today();
      assert.equal(await dateOf(p, d), d);
      assert.deepEqual(calls, [d], 'one write for the day');
      // A node that forgot (restart, reset) writes again; the date does not change.
      t.core.activity.clear();
      assert.equal((await c('GET', `${A2}/projects/${uuidOf(p.id)}`)).status, 200);
      assert.equal(await dateOf(p, d), d);
      assert.equal(calls.length, 2);
    } finally {
      repo.touchAccessed = original;
    }
  });

  test('needs account:projects:list: a plain project member is refused (403 view-report-forbidden)', async () => {
    const p = await createProject(await as('projectOwner'));
    await addMembers(await as('projectOwner'), p.id, { users: [{ user: emailOf('viewer'), role: w.roles.Viewer }] });
    assertApi1Error(await (await as('viewer'))('GET', `${A1}/reports/projects-last-accessed`), 403, 'view-report-forbidden');
    assert.equal((await (await as('projectLister'))('GET', `${A1}/reports/projects-last-accessed`)).status, 200);
  });
});

describe('users-last-activity', () => {
  test('one row per account member: userId (API 1 id), userFirstname, userLastname, userEmail, userCompanyName, lastActivityDate', async () => {
    const res = await (await as('administrator'))('GET', `${A1}/reports/users-last-activity`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const members = new Set([
      PROJECT_SEED.accounts[0]!.owner, ...(['administrators', 'projectManagers', 'projectListers', 'members'] as const).flatMap((k) => PROJECT_SEED.accounts[0]![k] as string[]),
    ]);
    assert.deepEqual(new Set(res.body.map((r: any) => r.userEmail)), members);
    const users1 = new Map(((await (await as('owner'))('GET', `${A1}/users`)).body as any[]).map((u) => [u.email, u.id]));
    for (const r of res.body) {
      assert.deepEqual(Object.keys(r).sort(), ['lastActivityDate', 'userCompanyName', 'userEmail', 'userFirstname', 'userId', 'userLastname']);
      assert.equal(r.userId, users1.get(r.userEmail));
      assert.doesNotMatch(r.userId, UUID);
      assert.equal(r.userLastname, 'Test');
      assert.equal(r.userCompanyName, 'Proj Inc');
      assert.equal(r.userFirstname.toLowerCase(), r.userEmail.split('@')[0]);
      assert.ok(r.lastActivityDate === null || DATE.test(r.lastActivityDate), r.lastActivityDate);
    }
    assertApi1Error(await (await as('projectLister'))('GET', `${A1}/reports/users-last-activity`), 403, 'view-report-forbidden');
  });

  test("a user's date: null until his first API call, then the service's day; any call (API 1 or 2, even refused) counts; one write per day", async () => {
    const activity = async (name: string, expected?: string | null): Promise<string | null> => {
      const deadline = Date.now() + 3000;
      for (;;) {
        const res = await (await as('administrator'))('GET', `${A1}/reports/users-last-activity`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const v = res.body.find((r: any) => r.userEmail === emailOf(name)).lastActivityDate;
        if (expected === undefined || v === expected || Date.now() > deadline) return v;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // grace and heidi have tokens (operator-issued) but have made no call in this file.
    assert.equal(await activity('grace'), null);
    assert.equal(await activity('heidi'), null);
    const d = await today();
    assert.equal((await (await as('grace'))('GET', '/api/2/accounts')).status, 200);
    assert.equal(await activity('grace', d), d);
    assert.equal(await activity('heidi'), null);
    assert.equal((await (await as('heidi'))('GET', `${A1}/reports/users-last-activity`)).status, 403);
    assert.equal(await activity('heidi', d), d, 'a refused call is a call');

    await nextDay();
    const next = await today();
    const repo = t.core.store.repos.reports;
    const original = repo.touchUserActivity;
    const calls: string[] = [];
    repo.touchUserActivity = async (id, date) => {
      if (id === w.ids.grace) calls.push(date);
      return original.call(repo, id, date);
    };
    try {
      assert.equal(await activity('grace'), d, 'unchanged until she calls');
      const grace = await as('grace');
      for (const url of ['/api/2/accounts', `${A1}`, '/api/isLogged']) assert.equal((await grace('GET', url)).status, 200, url);
      assert.equal(await activity('grace', next), next);
      assert.deepEqual(calls, [next], 'one write for the day');
    } finally {
      repo.touchUserActivity = original;
    }
  });
});
