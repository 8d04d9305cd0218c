// The audit row of `npm run bench` (issue 33): the export of an account's audit log of
// BENCH_AUDIT_RECORDS records (default 1,000,000, the target's count: ≤ 60 s; about a minute
// to write them, a quarter of that to export them) as NDJSON and as CSV, read through a socket as a client
// would, with the rate, the time 1,000,000 records would take at that rate, and the process's
// peak RSS growth during each export (the export is streamed in batches: memory stays flat
// whatever the count). In process, on PGlite on disk (as `npm start`); the records are a
// valid chain, made by the module's own chaining (core/chain.ts) and written in batches of
// INSERT_BATCH by one INSERT … SELECT from a JSON array each, then a janitor pass (as a node runs
// every 10 minutes: on PGlite it refreshes the planner's statistics). Alone: `npx tsx bench/audit-export.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { compose } from '../src/compose.ts';
import { buildApp } from '../src/http/app.ts';
import { openPglite } from '../src/adapters/postgres/pglite.ts';
import { chained } from '../src/modules/audit/core/chain.ts';
import type { AuditRecord, ChainState } from '../src/modules/audit/core/ports.ts';

const TARGET_MS = 60_000;
/** The records the target is set for. */
const TARGET_RECORDS = 1_000_000;
const INSERT_BATCH = 10_000;
const OPERATOR = 'bench-operator-token-of-24-chars+';

export interface AuditBenchResult {
  engine: 'pglite';
  records: number;
  target: number;
  insertMs?: number;
  exports?: { format: 'ndjson' | 'csv'; ms: number; lines: number; megabytes: number; peakRssGrowthMb: number; recordsPerSecond: number; projectedTargetMs: number; cpuMs: number }[];
  error?: string;
}

export const auditBenchRecords = (): number => {
  const n = Number(process.env.BENCH_AUDIT_RECORDS ?? TARGET_RECORDS);
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
    // After the records of the seed and the token requests: the chain goes on from its head.
    let head: ChainState = (await core.store.repos.audit.chain());
    const start = Date.now() - records * 1000;
    for (let from = 1; from <= records; from += INSERT_BATCH) {
      const batch: AuditRecord[] = [];
      for (let g = from; g < from + INSERT_BATCH && g <= records; g++) {
        const r = chained(head, {
          at: new Date(start + g * 1000), accountId: account, userId: account, client: 'Mozilla/5.0 (bench)', ip: `192.0.2.${g % 250}`,
          surface: 'api2', operation: 'patchProject PATCH /api/2/accounts/:accountRef/projects/:projectRef',
          targets: [`accountRef=${account}`, `project:${g.toString(16).padStart(32, '0')}`], outcome: 'applied', status: null,
          decisions: [{ permission: 'project:project:update-details', grant: 'project-owner' }], requestId: `bench-${g}`,
        });
        head = { ...head, headSeq: r.seq, headHash: r.hash };
        batch.push(r);
      }
      await sql.query(
        `INSERT INTO audit_log (seq, at, account_id, user_id, client, ip, surface, operation, targets, outcome, status, decisions, request_id, prev_hash, hash)
         SELECT r.seq, r.at, r."accountId", r."userId", r.client, r.ip, r.surface, r.operation, r.targets, r.outcome, r.status, r.decisions, r."requestId", r."prevHash", r.hash
         FROM jsonb_to_recordset($1::jsonb) AS r(seq bigint, at timestamptz, "accountId" uuid, "userId" uuid, client text, ip text, surface text, operation text,
           targets jsonb, outcome text, status int, decisions jsonb, "requestId" text, "prevHash" text, hash text)`,
        [JSON.stringify(batch)],
      );
      // A run of a million records takes minutes before its row: say where it is (stderr, so the row stays the output).
      if ((from - 1) % (INSERT_BATCH * 10) === 0) process.stderr.write(`audit bench: ${Math.min(from + INSERT_BATCH - 1, records).toLocaleString('en')} of ${records.toLocaleString('en')} records written (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
    }
    await sql.query('UPDATE audit_chain SET head_seq = $1, head_hash = $2 WHERE id = 1', [head.headSeq, head.headHash]);
    out.insertMs = Math.round(performance.now() - t0);
    // A janitor pass, as every node runs at start and every 10 minutes: on PGlite it refreshes
    // the planner's statistics (no autovacuum there). Without it the planner takes the table
    // for an empty one and each page of the export reads every record after it (166 s for
    // 1,000,000 records instead of 11.5 s).
    const pass = await core.janitor.run();
    if (!pass.ran) throw new Error(`janitor pass: ${pass.reason}`);
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    out.exports = [];
    for (const format of ['ndjson', 'csv'] as const) {
      global.gc?.();
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const res = await fetch(`${origin}/api/2/accounts/${account}/audit-log/export?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
      let bytes = 0;
      let lines = 0;
      let told = 0;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        // Whether the later records cost more than the first (a page that is not an index range read would).
        if (lines - told >= 100_000) {
          told = lines;
          process.stderr.write(`audit bench: ${format} ${lines.toLocaleString('en')} lines after ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
        }
      }
      const ms = Math.round(performance.now() - t0);
      process.stderr.write(`audit bench: ${format} export of ${lines.toLocaleString('en')} lines in ${(ms / 1000).toFixed(1)} s\n`);
      // The process's CPU time (PGlite runs in it, and so does the reading client): what the
      // export costs whatever the machine's load, where the wall time is the load's.
      const cpu = process.cpuUsage(cpu0);
      clearInterval(sampler);
      out.exports.push({
        format, ms, lines, megabytes: Math.round(bytes / 1e5) / 10, peakRssGrowthMb: Math.round((peak - rss0) / 1e5) / 10,
        recordsPerSecond: Math.round(records / (ms / 1000)), projectedTargetMs: Math.round((ms * TARGET_RECORDS) / records),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      });
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
  console.log(`\nAudit log: export of ${r.records.toLocaleString('en')} records of one account (${r.engine}; target: ${TARGET_RECORDS.toLocaleString('en')} in ≤ ${r.target / 1000} s; BENCH_AUDIT_RECORDS sets the count)`);
  console.log(['format', 'export (s)', 'records/s', `${TARGET_RECORDS.toLocaleString('en')} at that rate (s)`, 'CPU (s)', `CPU for ${TARGET_RECORDS.toLocaleString('en')} (s)`, 'lines', 'MB', 'peak RSS growth (MB)'].join(' | '));
  if (r.error) return void console.log(`${r.engine} | error: ${r.error}`);
  for (const e of r.exports!) {
    const projected = `${(e.projectedTargetMs / 1000).toFixed(1)}${e.projectedTargetMs <= r.target ? '' : ' (above target)'}`;
    const cpuTarget = ((e.cpuMs * TARGET_RECORDS) / r.records / 1000).toFixed(1);
    console.log([e.format, (e.ms / 1000).toFixed(1), e.recordsPerSecond, projected, (e.cpuMs / 1000).toFixed(1), cpuTarget, e.lines, e.megabytes, e.peakRssGrowthMb].join(' | '));
  }
  console.log(`(the ${r.records.toLocaleString('en')} records written in ${((r.insertMs ?? 0) / 1000).toFixed(1)} s; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runAuditBench();
  printAuditRow(r);
  process.exitCode = r.error || r.exports!.some((e) => e.projectedTargetMs > r.target) ? 1 : 0;
}
