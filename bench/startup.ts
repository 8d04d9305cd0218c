// The operations issue's start-up measurement: the time from spawning the process to the
// first 200 from /healthz, on a data directory (PGlite) or database (PostgreSQL) that
// already exists (migrated, signing key made), against the same time for a bare
// `node -e` HTTP server in the same run. Each figure is the median of ROUNDS starts,
// interleaved (bare, PGlite, PostgreSQL, bare, …) so that machine noise spreads over all.
// Target (reported, never asserted): ≤ 3 s on PostgreSQL.
//
// Environment: BENCH_STARTUP_ROUNDS (5), BENCH_STARTUP=0 to skip, BENCH_DATABASE_URL or
// TEST_DATABASE_URL for the PostgreSQL figure. Alone: `npx tsx bench/startup.ts`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, registerCleanup } from './children.ts';
import { median } from './measure.ts';
import { benchServerUrl, createTempDatabase } from './postgres.ts';
import { SERVICE_PROCESS_ENV } from '../src/runtime-env.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STARTUP_TARGET_POSTGRES_MS = 3000;

export interface StartupResult {
  rounds: number;
  /** Medians in ms; null when not measured (PostgreSQL without a server URL). */
  bareMs: number;
  pgliteMs: number;
  postgresMs: number | null;
  samples: { bare: number[]; pglite: number[]; postgres: number[] };
  error?: string;
}

const BARE = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')`;

async function ok(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Spawns node with `args`, polls `path` every 10 ms until 200, stops it; answers the ms to the first 200. */
async function timeStart(args: string[], env: Record<string, string>, urlPath: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...SERVICE_PROCESS_ENV, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before answering:\n${err}`);
      if (await ok(`http://127.0.0.1:${port}${urlPath}`)) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error(`no answer within 120 s:\n${err}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

export async function runStartupBench(): Promise<StartupResult> {
  const rounds = Number(process.env.BENCH_STARTUP_ROUNDS) || 5;
  const samples = { bare: [] as number[], pglite: [] as number[], postgres: [] as number[] };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-startup-'));
  const serverUrl = benchServerUrl();
  const db = serverUrl ? await createTempDatabase(serverUrl) : undefined;
  const cleanup = registerCleanup(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db?.drop();
  });
  const main = [path.join(ROOT, 'src/main.ts')];
  const pglite = { DATA_DIR: dataDir };
  const postgres = db ? { DATA_DIR: dataDir, DATABASE_URL: db.url } : undefined;
  try {
    // The first starts create the cluster / apply the migrations: not measured.
    await timeStart(main, pglite, '/healthz');
    if (postgres) await timeStart(main, postgres, '/healthz');
    for (let i = 0; i < rounds; i++) {
      samples.bare.push(await timeStart(['-e', BARE], {}, '/'));
      samples.pglite.push(await timeStart(main, pglite, '/healthz'));
      if (postgres) samples.postgres.push(await timeStart(main, postgres, '/healthz'));
    }
    const m = (xs: number[]) => median([...xs].sort((a, b) => a - b));
    return { rounds, bareMs: m(samples.bare), pgliteMs: m(samples.pglite), postgresMs: postgres ? m(samples.postgres) : null, samples };
  } catch (e) {
    return { rounds, bareMs: NaN, pgliteMs: NaN, postgresMs: null, samples, error: e instanceof Error ? e.message : String(e) };
  } finally {
    await cleanup();
  }
}

export function printStartupTable(r: StartupResult): void {
  console.log('\nStart-up: process spawn → first 200 from /healthz, existing data (median of ' + r.rounds + ' starts)');
  if (r.error) {
    console.log(`  failed: ${r.error}`);
    return;
  }
  const row = (name: string, ms: number, target = '') =>
    console.log(`  ${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms   ${(ms / r.bareMs).toFixed(1).padStart(5)}× bare${target}`);
  row('bare node -e http server', r.bareMs);
  row('Scanbase on PGlite (DATA_DIR)', r.pgliteMs);
  if (r.postgresMs === null) console.log('  Scanbase on PostgreSQL            skipped (no BENCH_DATABASE_URL / TEST_DATABASE_URL)');
  else {
    const met = r.postgresMs <= STARTUP_TARGET_POSTGRES_MS ? 'met' : 'NOT met';
    row('Scanbase on PostgreSQL', r.postgresMs, `   target ≤ ${STARTUP_TARGET_POSTGRES_MS} ms: ${met}`);
  }
  console.log(`  samples (ms): bare ${r.samples.bare.map(Math.round).join(', ')}; PGlite ${r.samples.pglite.map(Math.round).join(', ')}` +
    (r.samples.postgres.length ? `; PostgreSQL ${r.samples.postgres.map(Math.round).join(', ')}` : ''));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await runStartupBench();
  printStartupTable(r);
  process.exit(r.error ? 1 : 0);
}
