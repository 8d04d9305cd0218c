// Audit retention (docs/audit.md "Retention"): AUDIT_RETENTION_DAYS deletes the records
// older than the retention, oldest first, and records the last deleted one as the chain's
// anchor, so the verification still passes from there and still finds a later record deleted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATOR_TOKEN, testApp, type TestApp } from '../support/app.ts';
import { A2, SUB_A, caller, emailOf, projectWorld, type Call, type World } from '../support/projects.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

let t: TestApp;
let w: World;
let sql: Sql;

before(async () => {
  t = await testApp({ AUDIT_RETENTION_DAYS: '1' }, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
});
after(() => t.close());

const create = async (name: string, as: Call = w.as.projectManager!) => {
  const res = await as('POST', `${A2}/projects`, { name, subscriptionId: SUB_A });
  assert.equal(res.status, 201, JSON.stringify(res.body));
};

test('records past the retention are deleted; the anchor keeps the rest verifiable, and a later deletion is still found', async () => {
  await create('Old 1');
  await create('Old 2');
  const advanced = await t.app.inject({
    method: 'POST', url: '/_operator/clock', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { advanceSeconds: 2 * 86_400 },
  });
  assert.equal(advanced.statusCode, 200, advanced.body);
  // The clock request's own record is stamped when it arrived, before the clock moved: old too.
  const old = (await t.core.store.repos.audit.chain()).headSeq;
  assert.ok(old >= 3);
  const manager = caller(t, (await t.tokens(emailOf('projectManager'))).access_token); // the old token expired
  const afterTokens = (await t.core.store.repos.audit.chain()).headSeq;
  await create('New 1', manager);
  await create('New 2', manager);
  const deleted = await t.core.auditLog.retain();
  assert.equal(deleted, old);
  const chain = await t.core.store.repos.audit.chain();
  assert.equal(chain.anchorSeq, old);
  const kept = await t.core.store.repos.audit.after({}, 0, 100);
  assert.equal(kept[0]!.seq, old + 1);
  assert.equal(kept.length, afterTokens - old + 2, 'the operator\'s token request and the two changes');
  const v = await t.core.auditLog.verify();
  assert.deepEqual(v.problems, []);
  assert.equal(v.checked, kept.length);
  assert.equal(await t.core.auditLog.retain(), 0, 'nothing more is old enough');
  await sql.query('DELETE FROM audit_log WHERE seq = $1', [old + 1]);
  assert.deepEqual((await t.core.auditLog.verify()).problems, [{ seq: old + 1, problem: 'missing' }]);
});
