// The audit log (docs/audit.md): a record per change, written in the change's transaction,
// with who, what, the outcome, and the permission and grant that allowed it; every mutating
// operation of both served OpenAPI documents writes one; sign-ins and failed sign-ins are
// recorded; hash-chained so an edited or deleted record is found by the verification (and by
// `npm run admin -- audit verify`); the chain stays linear under concurrent requests; read by
// account administrators only; exported as NDJSON and CSV, streamed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { A2, ACCOUNT_ID, assertProblem, createProject, emailOf, projectWorld, type World } from '../support/projects.ts';
import { UserAgent, hiddenFieldsOf, injectTransport } from '../support/oauth-client.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { executeAdmin } from '../../src/admin-commands.ts';

let t: TestApp;
let w: World;
let sql: Sql;

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
});
after(() => t.close());

const newest = async (n = 1) => t.core.store.repos.audit.page({}, null, n);
const head = async () => (await t.core.store.repos.audit.chain()).headSeq;
/** The records after `seq`, oldest first. */
const since = async (seq: number) => t.core.store.repos.audit.after({}, seq, 1000);

test('a created project is recorded in its transaction: user, operation, targets, and the permission with the grant that allowed it', async () => {
  const p = await createProject(w.as.projectManager!);
  const [r] = await newest();
  assert.ok(r);
  assert.equal(r.userId, w.ids.projectManager);
  assert.equal(r.surface, 'api2');
  assert.equal(r.operation, 'createProject POST /api/2/accounts/:accountRef/projects');
  assert.equal(r.outcome, 'applied');
  assert.equal(r.status, null, 'written in the transaction, before the answer');
  assert.equal(r.accountId, ACCOUNT_ID);
  assert.ok(r.targets.includes(`project:${p.id.split(':').at(-1)}`), JSON.stringify(r.targets));
  assert.ok(r.targets.includes(`accountRef=${ACCOUNT_ID}`));
  assert.deepEqual(r.decisions.find((d) => d.permission === 'account:projects:create'), { permission: 'account:projects:create', grant: 'account-role:projectManager' });
  assert.equal(r.ip, '127.0.0.1');
});

test('a change allowed as the project\'s owner names that grant', async () => {
  const p = await createProject(w.as.projectManager!);
  const pid = p.id.split(':').at(-1);
  const put = await w.as.projectManager!('PATCH', `${A2}/projects/${pid}`, { name: 'Renamed by the owner' });
  assert.ok(put.status < 300, JSON.stringify(put.body));
  const [r] = await newest();
  assert.equal(r!.outcome, 'applied');
  assert.ok(r!.decisions.length > 0, JSON.stringify(r));
  assert.deepEqual(r!.decisions, [
    { permission: 'project:project:list', grant: 'condition:project-member-or-lister' },
    { permission: 'project:project:update-details', grant: 'project-owner' },
  ]);
});

test('a refused change is recorded with its status, the account and the outcome refused', async () => {
  const res = await w.as.member!('POST', `${A2}/projects`, { name: 'Nope', subscriptionId: 'b1111111-1111-4111-8111-111111111111' });
  assert.equal(res.status, 403, JSON.stringify(res.body));
  const [r] = await newest();
  assert.equal(r!.userId, w.ids.member);
  assert.equal(r!.status, 403);
  assert.equal(r!.outcome, 'refused');
  assert.equal(r!.accountId, ACCOUNT_ID);
  assert.deepEqual(r!.decisions, []);
});

test('a request without a token is recorded as refused (401), before any handler', async () => {
  const res = await t.app.inject({ method: 'POST', url: `${A2}/projects`, payload: { name: 'x' } });
  assert.equal(res.statusCode, 401);
  const [r] = await newest();
  assert.equal(r!.status, 401);
  assert.equal(r!.outcome, 'refused');
  assert.equal(r!.userId, null);
});

test('a path carrying a NUL (%00) or other control characters is answered in its format, and recorded with them shown as U+FFFD', async () => {
  const res = await w.as.member!('DELETE', `${A2}/projects/constructor/members/groups/%00%01x`);
  assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const [r] = await newest();
  assert.equal(r!.status, res.status);
  assert.ok(r!.targets.some((x) => x.endsWith('=\uFFFD\uFFFDx')), JSON.stringify(r!.targets));
});

test('a failed sign-in is recorded with the address tried (never the password); a sign-in names its user', async () => {
  const agent = new UserAgent(injectTransport(t.app));
  const form = await agent.get('/account');
  const wrong = await agent.postForm('/account/sign-in', { ...hiddenFieldsOf(form.body), email: emailOf('member'), password: 'not-the-password' });
  assert.equal(wrong.status, 401);
  const [failed] = await newest();
  assert.equal(failed!.operation, 'POST /account/sign-in');
  assert.equal(failed!.outcome, 'sign-in-failed');
  assert.equal(failed!.status, 401);
  assert.ok(failed!.targets.includes(`email=${emailOf('member')}`));
  assert.ok(!JSON.stringify(failed).includes('not-the-password'));
  const again = await agent.get('/account');
  const ok = await agent.postForm('/account/sign-in', { ...hiddenFieldsOf(again.body), email: emailOf('member'), password: 'member-password-1' });
  assert.equal(ok.status, 303);
  const [signedIn] = await newest();
  assert.equal(signedIn!.outcome, 'signed-in');
  assert.equal(signedIn!.userId, w.ids.member);
});

test('the operator surface is recorded', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/_operator/tokens', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { email: emailOf('member') } });
  assert.equal(res.statusCode, 200);
  const [r] = await newest();
  assert.equal(r!.surface, 'operator');
  assert.equal(r!.operation.endsWith('POST /_operator/tokens'), true, r!.operation);
  assert.equal(r!.status, 200);
});

test('the chain stays linear under concurrent requests: gapless, each record linked to the one before', async () => {
  const from = await head();
  const results = await Promise.all(Array.from({ length: 24 }, (_, i) =>
    w.as.projectManager!('POST', `${A2}/projects`, { name: `Concurrent ${i}`, subscriptionId: 'b1111111-1111-4111-8111-111111111111' })));
  for (const r of results) assert.equal(r.status, 201, JSON.stringify(r.body));
  const records = await since(from);
  assert.equal(records.length, 24);
  records.forEach((r, i) => assert.equal(r.seq, from + 1 + i));
  const v = await t.core.auditLog.verify();
  assert.deepEqual(v.problems, []);
  assert.equal(v.ok, true);
});

test('the audit log is read by account administrators only: others 403 read-audit-log-forbidden, another tenant 404', async () => {
  const page = await w.as.administrator!('GET', `${A2}/audit-log?pageSize=2`);
  assert.equal(page.status, 200, JSON.stringify(page.body));
  assert.equal(page.body.records.length, 2);
  assert.ok(page.body.nextBefore);
  const next = await w.as.owner!('GET', `${A2}/audit-log?pageSize=2&before=${page.body.nextBefore}`);
  assert.ok(next.body.records[0].seq < page.body.records[1].seq + 1 && next.body.records[0].seq < page.body.nextBefore + 1);
  for (const who of ['projectManager', 'member', 'viewer'] as const) {
    const refused = assertProblem(await w.as[who]!('GET', `${A2}/audit-log`), 403, 'read-audit-log-forbidden');
    assert.deepEqual(refused.errorValues.requiredPermissions, ['account:administrators:read']);
    assertProblem(await w.as[who]!('GET', `${A2}/audit-log/export`), 403, 'read-audit-log-forbidden');
  }
  assertProblem(await w.as.outsider!('GET', `${A2}/audit-log`), 404, 'account-not-found');
  assert.equal((await t.app.inject({ method: 'GET', url: `${A2}/audit-log` })).statusCode, 401);
});

test('the query filters by user, target and time; bad filters are a 400', async () => {
  const byUser = await w.as.owner!('GET', `${A2}/audit-log?user=${w.ids.member}&pageSize=1000`);
  assert.equal(byUser.status, 200, JSON.stringify(byUser.body));
  assert.ok(byUser.body.records.length > 0);
  assert.ok(byUser.body.records.every((r: any) => r.userId.endsWith(w.ids.member!)));
  const target = `accountRef=${ACCOUNT_ID}`;
  const byTarget = await w.as.owner!('GET', `${A2}/audit-log?target=${encodeURIComponent(target)}&pageSize=1000`);
  assert.ok(byTarget.body.records.length > 0 && byTarget.body.records.every((r: any) => r.targets.includes(target)));
  const future = await w.as.owner!('GET', `${A2}/audit-log?from=2999-01-01T00:00:00Z`);
  assert.deepEqual(future.body.records, []);
  const past = await w.as.owner!('GET', `${A2}/audit-log?to=2000-01-01T00:00:00Z`);
  assert.deepEqual(past.body.records, []);
  assertProblem(await w.as.owner!('GET', `${A2}/audit-log?from=yesterday`), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', `${A2}/audit-log?pageSize=0`), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', `${A2}/audit-log?user=not-a-user`), 400, 'invalid-input');
  assertProblem(await w.as.owner!('GET', `${A2}/audit-log?user=urn:svc:project:${ACCOUNT_ID}`), 400, 'invalid-user-urn');
});

test('the export is NDJSON or CSV of every record of the account, oldest first', async () => {
  const all = await w.as.owner!('GET', `${A2}/audit-log?pageSize=1000`);
  const authorization = `Bearer ${(await t.tokens(emailOf('owner'))).access_token}`;
  const nd = await t.app.inject({ method: 'GET', url: `${A2}/audit-log/export`, headers: { authorization } });
  assert.equal(nd.statusCode, 200);
  assert.match(String(nd.headers['content-type']), /^application\/x-ndjson/);
  const lines = nd.body.trimEnd().split('\n').map((l) => JSON.parse(l));
  // The export itself (a read) adds nothing; the token request above is the operator's (no account).
  assert.deepEqual(lines.map((l) => l.seq), all.body.records.map((r: any) => r.seq).reverse());
  const csv = await t.app.inject({ method: 'GET', url: `${A2}/audit-log/export?format=csv`, headers: { authorization } });
  assert.match(String(csv.headers['content-type']), /^text\/csv/);
  const rows = csv.body.trimEnd().split('\r\n');
  assert.equal(rows[0], 'seq,at,accountId,userId,client,ip,surface,operation,targets,outcome,status,decisions,requestId,prevHash,hash');
  assert.equal(rows.length, lines.length + 1);
});

test('an edited or a deleted record breaks the chain, and the verification (and `audit verify`) names it', async () => {
  const v0 = await t.core.auditLog.verify();
  assert.equal(v0.ok, true, JSON.stringify(v0.problems));
  const admin = (argv: string[]) => executeAdmin({ command: argv.join(' '), values: {} }, { auditLog: t.core.auditLog } as never, async () => '');
  const intact = await admin(['audit', 'verify']);
  assert.equal(intact.code, 0, intact.stderr);
  assert.match(intact.stdout, /Audit chain intact/);
  const [a, b] = await t.core.store.repos.audit.after({}, 3, 2);
  await sql.query(`UPDATE audit_log SET status = 299 WHERE seq = $1`, [a!.seq]);
  await sql.query(`DELETE FROM audit_log WHERE seq = $1`, [b!.seq + 1]);
  const v = await t.core.auditLog.verify();
  assert.equal(v.ok, false);
  assert.deepEqual(v.problems, [{ seq: a!.seq, problem: 'edited' }, { seq: b!.seq + 1, problem: 'missing' }]);
  const broken = await admin(['audit', 'verify']);
  assert.equal(broken.code, 1);
  assert.match(broken.stdout, new RegExp(`record ${a!.seq}: edited`));
  assert.match(broken.stdout, new RegExp(`record ${b!.seq + 1}: missing`));
  // A deleted last record: the chain's head names it.
  const last = await head();
  await sql.query(`DELETE FROM audit_log WHERE seq = $1`, [last]);
  assert.ok((await t.core.auditLog.verify()).problems.some((p) => p.problem === 'tail-missing'));
});

test('the export streams: a large log leaves in many chunks, not one buffer', async () => {
  // 3,000 records of the account (their hashes are not a chain: this test comes after the verification's).
  await sql.query(
    `INSERT INTO audit_log (seq, at, account_id, user_id, client, ip, surface, operation, targets, outcome, status, decisions, request_id, prev_hash, hash)
     SELECT 1000000 + g, now(), $1, NULL, 'bench', '127.0.0.1', 'api2', 'createProject POST /api/2/accounts/:accountRef/projects',
       jsonb_build_array('project:' || g), 'applied', NULL, '[]'::jsonb, 'r' || g, repeat('0', 64), repeat('1', 64)
     FROM generate_series(1, 3000) g`, [ACCOUNT_ID],
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const token = (await t.tokens(emailOf('owner'))).access_token;
  const res = await fetch(`http://127.0.0.1:${port}${A2}/audit-log/export`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  let chunks = 0;
  let lines = 0;
  for await (const chunk of res.body!) {
    chunks += 1;
    lines += Buffer.from(chunk).toString('utf8').split('\n').length - 1;
  }
  assert.ok(lines >= 3000, `${lines} lines`);
  assert.ok(chunks > 5, `${chunks} chunks`);
});

test('every mutating operation of both served OpenAPI documents writes a record naming its route', async () => {
  const missing: string[] = [];
  let walked = 0;
  for (const doc of ['/api/2/openapi.json', '/api/openapi.json']) {
    const spec = (await t.app.inject({ method: 'GET', url: doc })).json() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        if (!ops[method]) continue;
        walked += 1;
        // Unknown ids everywhere, as a user of no account (last: an operation without ids may
        // end his sessions): each request passes the hooks whatever it answers.
        const url = path.replace(/\{[^}]+\}/g, () => randomUUID());
        const route = `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
        const from = await head();
        const res = await w.as.alice!(method.toUpperCase() as 'POST', url, {});
        const records = await since(from);
        if (!records.some((r) => r.operation.endsWith(route) && (r.status === res.status || r.status === null))) {
          missing.push(`${route} (answered ${res.status}; ${records.length} records: ${records.map((r) => r.operation).join(', ')})`);
        }
      }
    }
  }
  assert.ok(walked > 60, `the walk met ${walked} mutating operations`);
  assert.deepEqual(missing, []);
});
