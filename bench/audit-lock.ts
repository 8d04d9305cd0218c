// The audit chain lock's cost (issue 33 item 3, docs/audit.md "The chain"): every change takes
// the one audit_chain row's lock for its record, from that last step until it commits, so
// concurrent writers queue there. Measured as BENCH_AUDIT_LOCK_WORKERS (16) clients renaming
// their own project BENCH_AUDIT_LOCK_RENAMES (25) times each, at once, through HTTP on one
// node, with the audit log (as served) and without it: the same server but for a database
// handle that drops every statement on audit_log and audit_chain (the commit step and the
// outcome records then cost only their JavaScript). Both setups run in the same process, one
// after the other, twice in alternation; the ratio is recorded / unrecorded. On PGlite on disk
// (one connection: transactions are serial anyway) and, with BENCH_DATABASE_URL or
// TEST_DATABASE_URL, on PostgreSQL. Alone: `npx tsx bench/audit-lock.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { compose } from '../src/compose.ts';
import { buildApp } from '../src/http/app.ts';
import { openPglite } from '../src/adapters/postgres/pglite.ts';
import { openPostgres } from '../src/adapters/postgres/node-postgres.ts';
import type { Sql } from '../src/adapters/postgres/sql.ts';
import { benchServerUrl, createTempDatabase } from './postgres.ts';

const OPERATOR = 'bench-operator-token-of-24-chars+';
const positive = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: a positive integer`);
  return n;
};

export interface AuditLockResult {
  workers: number;
  renames: number;
  engines: { engine: 'pglite' | 'postgres'; recordedMs: number[]; unrecordedMs: number[]; ratio: number; error?: string }[];
  loadAverage: number[];
}

/** The database handle of the unrecorded setup: statements on the audit tables answer no rows and do nothing. */
function withoutAuditWrites(sql: Sql): Sql {
  const audit = /\baudit_(log|chain)\b/;
  return {
    ...sql,
    query: (text, params, opts) => (audit.test(text) ? Promise.resolve([]) : sql.query(text, params, opts)),
    transaction: (fn, opts) => sql.transaction((tx) => fn(withoutAuditWrites(tx)), opts),
  };
}

/** The wall time of `workers` clients renaming their own project `renames` times each, at once (ms). */
async function renames(sql: Sql, dataDir: string, workers: number, count: number): Promise<number> {
  const core = await compose(loadConfig({ OPERATOR_TOKEN: OPERATOR, DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:8080' }), { sql });
  const app = await buildApp(core);
  try {
    const op = { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' };
    const email = `lock-${Math.random().toString(36).slice(2)}@audit.test`;
    const seeded = await app.inject({
      method: 'POST', url: '/_operator/seed', headers: op,
      payload: { users: [{ email, password: 'bench-password-1', firstName: 'Bench', lastName: 'User' }], accounts: [{ name: 'Lock bench', owner: email, projectManagers: [email], subscriptions: [{ name: 'Basic' }] }] },
    });
    if (seeded.statusCode !== 200) throw new Error(`seed: ${seeded.statusCode} ${seeded.body}`);
    const account = seeded.json().accounts[0].id as string;
    const token = (await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email } })).json().access_token as string;
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${origin}/api/2/accounts/${account}${url}`, {
        method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    };
    const [subscription] = (await call('GET', '/subscriptions')) as { id: string }[];
    const projects: string[] = [];
    for (let w = 0; w < workers; w++) {
      const created = (await call('POST', '/projects', { name: `Lock ${w}`, subscriptionId: subscription!.id })) as { id: string };
      projects.push(created.id.split(':').at(-1)!);
    }
    const t0 = performance.now();
    await Promise.all(projects.map(async (id, w) => {
      for (let i = 0; i < count; i++) await call('PATCH', `/projects/${id}`, { name: `Lock ${w} rename ${i}` });
    }));
    return Math.round(performance.now() - t0);
  } finally {
    await app.close();
    await core.close();
  }
}

export async function runAuditLockBench(): Promise<AuditLockResult> {
  const workers = positive('BENCH_AUDIT_LOCK_WORKERS', 16);
  const count = positive('BENCH_AUDIT_LOCK_RENAMES', 25);
  const out: AuditLockResult = { workers, renames: count, engines: [], loadAverage: [] };
  const serverUrl = benchServerUrl();
  for (const engine of serverUrl ? ['pglite', 'postgres'] as const : ['pglite'] as const) {
    const row: AuditLockResult['engines'][number] = { engine, recordedMs: [], unrecordedMs: [], ratio: 0 };
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-audit-lock-'));
    const db = engine === 'postgres' ? await createTempDatabase(serverUrl!) : null;
    const sql = db ? openPostgres(db.url, 20) : await openPglite(path.join(tmp, 'pglite'));
    try {
      for (let round = 0; round < 2; round++) {
        row.recordedMs.push(await renames(sql, tmp, workers, count));
        row.unrecordedMs.push(await renames(withoutAuditWrites(sql), tmp, workers, count));
      }
      const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
      row.ratio = Math.round((sum(row.recordedMs) / sum(row.unrecordedMs)) * 100) / 100;
    } catch (e) {
      row.error = (e as Error).message;
    } finally {
      await sql.close();
      await db?.drop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    out.engines.push(row);
  }
  out.loadAverage = os.loadavg().map((l) => Math.round(l * 10) / 10);
  return out;
}

export function printAuditLockRow(r: AuditLockResult): void {
  console.log(`\nAudit chain lock: ${r.workers} clients renaming their own project ${r.renames} times each, at once (ms, two rounds each; load average ${r.loadAverage.join(' ')})`);
  console.log(['engine', 'with the audit log', 'without', 'ratio (with / without)'].join(' | '));
  for (const e of r.engines) {
    if (e.error) console.log(`${e.engine} | error: ${e.error}`);
    else console.log([e.engine, e.recordedMs.join(', '), e.unrecordedMs.join(', '), e.ratio].join(' | '));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runAuditLockBench();
  printAuditLockRow(r);
  process.exitCode = r.engines.some((e) => e.error) ? 1 : 0;
}
