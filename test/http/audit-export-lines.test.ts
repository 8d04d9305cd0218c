// The audit log's export (docs/audit.md "Query and export"): its lines are built by the
// database (src/modules/audit/postgres/audit-repo.ts exportLines), and must be byte for byte
// what API 2's presenter makes of each record (JSON.stringify of the presented record; the
// CSV line of presenters.ts csvLine): checked here over the records real requests wrote and a
// few hundred written with every awkward value a field may hold (NULLs, quotes, commas, line
// breaks, control characters, formula prefixes, non-ASCII, microseconds, a decision of no
// known grant), across several export batches, with filters. Runs on the engine of the
// suite (PGlite; PostgreSQL with TEST_DATABASE_URL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, ACCOUNT_ID, createProject, emailOf, projectWorld, type World } from '../support/projects.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { formatUrn } from '../../src/core/ids/urn.ts';
import { auditPresenters, CSV_COLUMNS, csvLine } from '../../src/modules/audit/http/presenters.ts';
import { AUDIT_LIMITS } from '../../src/modules/audit/core/audit-log.ts';
import type { AuditFilter, AuditRecord } from '../../src/modules/audit/core/ports.ts';

let t: TestApp;
let w: World;
let sql: Sql;

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
});
after(() => t.close());

/** The values a text field of a record may hold that CSV or JSON must escape or guard. */
const AWKWARD = [
  null, '', 'plain', 'comma, inside', 'a "quoted" word', 'line\nbreak', 'carriage\rreturn', '=SUM(A1:A2)', '+1', '-2', '@cmd',
  '\tTabbed', '\rfirst', 'back\\slash', 'ctl \u0001\u001f\u007f', 'é ü 漢字 🛰️', 'U+2028 \u2028 U+2029 \u2029', '</script>', "'apostrophe",
];

/** The reference: what the export sent before its lines were built by the database (the presenter's, record by record). */
async function expected(format: 'ndjson' | 'csv', filter: AuditFilter): Promise<string> {
  const p = auditPresenters((type, id) => formatUrn(t.core.config.urnNamespace, type, id));
  let out = format === 'csv' ? `${CSV_COLUMNS.join(',')}\r\n` : '';
  for (let afterSeq = 0; ;) {
    const batch: AuditRecord[] = await t.core.store.repos.audit.after(filter, afterSeq, 1000);
    for (const r of batch) out += format === 'csv' ? csvLine(p.record(r)) : `${JSON.stringify(p.record(r))}\n`;
    if (batch.length < 1000) return out;
    afterSeq = batch[batch.length - 1]!.seq;
  }
}

async function exported(query: string): Promise<string> {
  const authorization = `Bearer ${(await t.tokens(emailOf('owner'))).access_token}`;
  const res = await t.app.inject({ method: 'GET', url: `${A2}/audit-log/export${query}`, headers: { authorization } });
  assert.equal(res.statusCode, 200, res.body);
  return res.rawPayload.toString('utf8');
}

test('the exported lines the database builds are byte for byte the presenter\'s, NDJSON and CSV, for every awkward value a field holds', async () => {
  // Real records first (a change allowed by a grant, a refusal), then the awkward ones.
  await createProject(w.as.projectManager!);
  await w.as.viewer!('POST', `${A2}/projects`, { name: 'refused' });
  const n = AWKWARD.length;
  const records = 2 * AUDIT_LIMITS.exportBatch + 150; // three batches, the last one partial
  await sql.query(
    `INSERT INTO audit_log (seq, at, account_id, user_id, client, ip, surface, operation, targets, outcome, status, decisions, request_id, prev_hash, hash)
     SELECT 5000000 + g, timestamptz '2026-03-04 05:06:07.891234+00' + make_interval(secs => g * 1.000321),
       $1::uuid, CASE WHEN g % 3 = 0 THEN NULL ELSE $1::uuid END,
       ($2::jsonb ->> (g % $3)), ($2::jsonb ->> ((g + 1) % $3)), 'api2', coalesce($2::jsonb ->> ((g + 2) % $3), 'op'),
       CASE WHEN g % 5 = 0 THEN '[]'::jsonb ELSE jsonb_build_array('projectRef=' || coalesce($2::jsonb ->> ((g + 3) % $3), ''), 'project:' || g) END,
       'applied', CASE WHEN g % 2 = 0 THEN NULL ELSE 200 + g % 300 END,
       CASE WHEN g % 4 = 0 THEN '[]'::jsonb
         ELSE jsonb_build_array(jsonb_build_object('permission', 'project:project:update-details', 'grant', CASE WHEN g % 4 = 1 THEN NULL ELSE 'project-owner' END),
                                jsonb_build_object('permission', coalesce($2::jsonb ->> ((g + 4) % $3), 'p'), 'grant', 'account-role:x, "y"')) END,
       coalesce($2::jsonb ->> ((g + 5) % $3), 'r') || g, repeat('0', 64), md5(g::text) || md5(g::text)
     FROM generate_series(1, $4::int) g`,
    [ACCOUNT_ID, JSON.stringify(AWKWARD), n, records],
  );
  for (const format of ['ndjson', 'csv'] as const) {
    const body = await exported(format === 'csv' ? '?format=csv' : '');
    const want = await expected(format, { accountId: ACCOUNT_ID });
    assert.ok(want.split('\n').length > records, 'every record is compared');
    if (body !== want) {
      const a = body.split('\n');
      const b = want.split('\n');
      const i = a.findIndex((line, k) => line !== b[k]);
      assert.equal(a[i], b[i], `${format}: line ${i} differs`);
    }
    assert.equal(body, want);
  }
});

test('a filtered export is the filtered presenter\'s output, byte for byte', async () => {
  const filter = { userId: ACCOUNT_ID, from: new Date('2026-03-04T06:00:00Z'), target: 'project:4001' } as const;
  const q = `?user=${ACCOUNT_ID}&from=2026-03-04T06:00:00Z&target=project:4001`;
  const want = await expected('ndjson', { accountId: ACCOUNT_ID, ...filter });
  assert.equal(want.split('\n').length, 2, 'one record matches');
  assert.equal(await exported(q), want);
  assert.equal(await exported(`${q}&format=csv`), await expected('csv', { accountId: ACCOUNT_ID, ...filter }));
  assert.equal(await exported('?from=2030-01-01T00:00:00Z&format=csv'), `${CSV_COLUMNS.join(',')}\r\n`, 'no record: the header alone');
  assert.equal(await exported('?from=2030-01-01T00:00:00Z'), '', 'no record: nothing');
});
