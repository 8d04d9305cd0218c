// The audit log (docs/audit.md): a record per change, written in the change's transaction,
// with who, what, the outcome, and the permission and grant that allowed it; hash-chained so
// an edited or deleted record is found by the verification; read by account administrators
// only; exported as NDJSON and CSV, streamed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, assertProblem, createProject, projectWorld, urn, type World } from '../support/projects.ts';

let t: TestApp;
let w: World;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

const newest = async (n = 1) => (await t.core.store.repos.audit.page({}, null, n));

test('a created project is recorded in its transaction: user, operation, targets, and the permission with the grant that allowed it', async () => {
  const p = await createProject(w.as.projectManager!);
  const [r] = await newest();
  assert.ok(r);
  assert.equal(r.userId, w.ids.projectManager);
  assert.equal(r.surface, 'api2');
  assert.match(r.operation, /^createProject POST \/api\/2\/accounts\/:accountRef\/projects$/);
  assert.equal(r.outcome, 'applied');
  assert.equal(r.status, null, 'written in the transaction, before the answer');
  assert.ok(r.targets.includes(`project:${p.id.split(':').at(-1)}`), JSON.stringify(r.targets));
  assert.deepEqual(r.decisions.find((d) => d.permission === 'account:projects:create'), { permission: 'account:projects:create', grant: 'account-role:projectManager' });
  assert.ok(r.accountId);
});

test('a refused change is recorded with its status and outcome refused', async () => {
  const res = await w.as.member!('POST', `${A2}/projects`, { name: 'Nope' });
  assert.ok(res.status === 403 || res.status === 400, String(res.status));
  const [r] = await newest();
  assert.equal(r!.userId, w.ids.member);
  assert.equal(r!.status, res.status);
  assert.equal(r!.outcome, res.status === 403 ? 'refused' : 'failed');
});

test('the audit log is read by account administrators only: others 403 read-audit-log-forbidden, another tenant 404', async () => {
  const page = await w.as.administrator!('GET', `${A2}/audit-log?pageSize=2`);
  assert.equal(page.status, 200, JSON.stringify(page.body));
  assert.equal(page.body.records.length, 2);
  assert.ok(page.body.nextBefore);
  for (const who of ['projectManager', 'member'] as const) {
    const refused = assertProblem(await w.as[who]!('GET', `${A2}/audit-log`), 403, 'read-audit-log-forbidden');
    assert.deepEqual(refused.errorValues.requiredPermissions, ['account:administrators:read']);
    assertProblem(await w.as[who]!('GET', `${A2}/audit-log/export`), 403, 'read-audit-log-forbidden');
  }
  assertProblem(await w.as.outsider!('GET', `${A2}/audit-log`), 404, 'account-not-found');
  void urn;
});
