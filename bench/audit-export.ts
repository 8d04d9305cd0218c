// The audit row of `npm run bench` (issue 33): the export of an account's audit log of
// BENCH_AUDIT_RECORDS records (default 1,000,000; target ≤ 60 s) as NDJSON and as CSV, read
// through a socket as a client would, with the process's peak RSS growth during each export
// (the export is streamed in batches: memory stays flat whatever the count). In process, on
// PGlite on disk (as `npm start`); the records are written by SQL in bulk (their hashes are
// not a chain: the export does not verify). BENCH_AUDIT_RECORDS=100000 runs it in seconds.
// Alone: `npx tsx bench/audit-export.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { compose } from '../src/compose.ts';
import { buildApp } from '../src/http/app.ts';
import { openPglite } from '../src/adapters/postgres/pglite.ts';

const TARGET_MS = 60_000;
const INSERT_BATCH = 100_000;
const OPERATOR = 'bench-operator-token-of-24-chars+';

export interface AuditBenchResult {
  engine: 'pglite';
  records: number;
  target: number;
  insertMs?: number;
  exports?: { format: 'ndjson' | 'csv'; ms: number; lines: number; megabytes: number; peakRssGrowthMb: number }[];
  error?: string;
}

export const auditBenchRecords = (): number => {
  const n = Number(process.env.BENCH_AUDIT_RECORDS ?? 1_000_000);
  if (!Number.isInteger(n) || n < 1) throw new Error('BENCH_AUDIT_RECORDS: a positive integer');
  return n;
};

export async function runAuditBench(records = auditBenchRecords()): Promise<AuditBenchResult> {
  const out: AuditBenchResult = { engine: 'pglite', records, target: TARGET_MS };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-audit-'));
  const sql = await openPglite(path.join(tmp, 'pglite'));
  const core = await compose(loadConfig({ OPERATOR_TOKEN: OPERATOR, DATA_DIR: tmp, PUBLIC_URL: 'http://localhost:8080' }), { sql });
  const app = await buildApp(core);
  try {
    const op = { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' };
    const seeded = await app.inject({
      method: 'POST', url: '/_operator/seed', headers: op,
      payload: { users: [{ email: 'bench@audit.test', password: 'bench-password-1', firstName: 'Bench', lastName: 'User' }], accounts: [{ name: 'Bench', owner: 'bench@audit.test' }] },
    });
    if (seeded.statusCode !== 200) throw new Error(`seed: ${seeded.statusCode} ${seeded.body}`);
    const account = seeded.json().accounts[0].id as string;
    const token = (await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email: 'bench@audit.test' } })).json().access_token as string;
    let t0 = performance.now();
    for (let from = 1; from <= records; from += INSERT_BATCH) {
      const to = Math.min(records, from + INSERT_BATCH - 1);
      await sql.query(
        `INSERT INTO audit_log (seq, at, account_id, user_id, client, ip, surface, operation, targets, outcome, status, decisions, request_id, prev_hash, hash)
         SELECT 1000 + g, now() - make_interval(secs => $3::int - g), $1::uuid, $1::uuid, 'Mozilla/5.0 (bench)', '192.0.2.' || (g % 250), 'api2',
           'updateProject PATCH /api/2/accounts/:accountRef/projects/:projectRef', jsonb_build_array('accountRef=' || $1::text, 'project:' || md5(g::text)),
           'applied', NULL, '[{"grant": "project-owner", "permission": "project:project:update-details"}]'::jsonb, md5('r' || g), md5('p' || g) || md5('q' || g), md5('h' || g) || md5('i' || g)
         FROM generate_series($2::int, $4::int) g`,
        [account, from, records, to],
      );
    }
    out.insertMs = Math.round(performance.now() - t0);
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    out.exports = [];
    for (const format of ['ndjson', 'csv'] as const) {
      global.gc?.();
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      t0 = performance.now();
      const res = await fetch(`${origin}/api/2/accounts/${account}/audit-log/export?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      }
      const ms = Math.round(performance.now() - t0);
      clearInterval(sampler);
      out.exports.push({ format, ms, lines, megabytes: Math.round(bytes / 1e5) / 10, peakRssGrowthMb: Math.round((peak - rss0) / 1e5) / 10 });
    }
  } catch (e) {
    out.error = (e as Error).message;
  } finally {
    await app.close();
    await core.close();
    await sql.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

export function printAuditRow(r: AuditBenchResult): void {
  console.log(`\nAudit log: export of ${r.records.toLocaleString('en')} records of one account (${r.engine}; target ≤ ${r.target / 1000} s; BENCH_AUDIT_RECORDS sets the count)`);
  console.log(['format', 'export (s)', 'lines', 'MB', 'peak RSS growth (MB)'].join(' | '));
  if (r.error) return void console.log(`${r.engine} | error: ${r.error}`);
  for (const e of r.exports!) {
    console.log([e.format, `${(e.ms / 1000).toFixed(1)}${e.ms <= r.target ? '' : ' (above target)'}`, e.lines, e.megabytes, e.peakRssGrowthMb].join(' | '));
  }
  console.log(`(the ${r.records.toLocaleString('en')} records written in ${((r.insertMs ?? 0) / 1000).toFixed(1)} s)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runAuditBench();
  printAuditRow(r);
  process.exitCode = r.error || r.exports!.some((e) => e.ms > r.target) ? 1 : 0;
}
