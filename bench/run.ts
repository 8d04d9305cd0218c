// `npm run bench`: throughput of the real server against a bare node:http baseline, in
// one run, on loopback. Servers run in child processes (never in the load generator's
// event loop) and are always stopped, on success, failure or Ctrl-C. The measured time
// is split into rounds that visit every scenario in turn, so a burst of noise on the
// machine spreads over all of them instead of skewing one ratio.
//
// Ratios: most scenarios are compared with the bare node:http baseline; a scenario that
// needs one database query is compared with the combined limit of the two bare parts,
// 1 / (1/bare_http + 1/bare_point_select), where bare_point_select is the driver's own
// point-select rate at the same concurrency (bench/point-select.ts), measured in the same run.
//
// Environment: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s per scenario), BENCH_ROUNDS
// (5), BENCH_WARMUP (2 s), BENCH_DATABASE_URL or TEST_DATABASE_URL (adds the PostgreSQL
// scenarios: databases with random names are created on that server, dropped after).
// BENCH_ONLY=tags runs only the tag measurements (bench/tags.ts), which otherwise follow;
// BENCH_ONLY=startup only the start-up times (bench/startup.ts), which come last;
// BENCH_ONLY=http only the HTTP scenarios above; BENCH_SNAPSHOTS=0 skips the snapshot
// restore row (bench/snapshots.ts); BENCH_AUDIT=0 the audit-log export row (bench/audit-export.ts,
// BENCH_AUDIT_RECORDS records, default 1,000,000, the target's count), and with it the
// chain lock's row (bench/audit-lock.ts; BENCH_AUDIT_LOCK=0 skips it). BENCH_POINTCLOUDS=1 adds the point-cloud conversion
// rates (bench/pointclouds.ts, minutes long); BENCH_ONLY=pointclouds runs them alone. BENCH_SCENARIOS=regex keeps the HTTP
// scenarios whose name matches, with the references they are compared with.
// WORKZONE_CACHE_ENTRIES, when set, is handed to the Scanbase servers (0: a one-zone read
// pays its statement every time, the cost of a read after a change: docs/performance.md);
// PROJECT_LIST_CACHE_PROJECTS likewise (0: each project list is built and serialised anew).
import path from 'node:path';
import { fire, measureDriver, median, probe, Samples, type LoadOptions } from './measure.ts';
import { printTable, writeJson, type ScenarioResult } from './report.ts';
import { BASELINE, scenarios as allScenarios, type BenchRequest, type Scenario } from './scenarios.ts';
import {
  isPointSelectDriver, ROOT, startServer, unavailable, type PointSelectDriver, type RunningProcess, type RunningServer,
  type ServerKind,
} from './servers.ts';
import { cleanUpEverything, killAllChildren } from './children.ts';
import { printTagTable, runTagBench } from './tags.ts';
import { printUploadTable, runUploadBench } from './upload.ts';
import { printMultipartRow, runMultipartBench } from './multipart.ts';
import { printStartupTable, runStartupBench } from './startup.ts';
import { printPointCloudTable, runPointCloudBench } from './pointclouds.ts';
import { printSnapshotRow, runSnapshotBench } from './snapshots.ts';
import { auditBenchRecords, printAuditRow, runAuditBench } from './audit-export.ts';
import { printAuditLockRow, runAuditLockBench } from './audit-lock.ts';
import fs from 'node:fs';

/** The scenarios BENCH_SCENARIOS selects (all without it), with every scenario a selected one is compared with. */
function selectScenarios(all: Scenario[]): Scenario[] {
  const pattern = process.env.BENCH_SCENARIOS;
  if (!pattern) return all;
  const re = new RegExp(pattern);
  const names = new Set(all.filter((s) => re.test(s.name)).flatMap((s) => [s.name, ...(s.reference ?? [BASELINE])]));
  return all.filter((s) => names.has(s.name));
}
const scenarios = selectScenarios(allScenarios);

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name}=${raw}: expected an integer >= ${min}`);
  return n;
}

const load: LoadOptions = {
  connections: intEnv('BENCH_CONNECTIONS', 50, 1),
  durationSeconds: intEnv('BENCH_DURATION', 10, 1),
  warmupSeconds: intEnv('BENCH_WARMUP', 2, 0),
  rounds: intEnv('BENCH_ROUNDS', 5, 1),
};
const RESULTS_FILE = path.join(ROOT, 'bench/results/latest.json');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, stopping the servers`);
    void cleanUpEverything().finally(() => process.exit(130));
  });
}


const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

interface Ready {
  scenario: Scenario;
  result: ScenarioResult;
  /** What one round measures: autocannon against an HTTP server, or a driver measuring itself. */
  run(seconds: number, samples?: Samples): Promise<void>;
  samples: Samples;
}

const referenceOf = (s: Scenario): readonly string[] => s.reference ?? [BASELINE];

/** 1 / (1/a + 1/b + …): the rate of work that costs one unit of each. */
const combined = (rates: number[]) => 1 / rates.reduce((sum, r) => sum + 1 / r, 0);

async function main(): Promise<number> {
  if (process.env.BENCH_ONLY === 'tags') return tagPhase();
  if (process.env.BENCH_ONLY === 'startup') return startupPhase();
  if (process.env.BENCH_ONLY === 'pointclouds') return pointCloudPhase();
  const results: ScenarioResult[] = scenarios.map((s) => ({
    name: s.name,
    server: s.server,
    target: s.target,
    reference: referenceOf(s),
    ratio: null,
    medianRoundRatio: null,
  }));
  const resultOf = (s: Scenario) => results[scenarios.indexOf(s)]!;
  const servers: RunningProcess[] = [];
  const ready: Ready[] = [];

  try {
    // Start every server the scenarios need (one process each, idle until measured).
    for (const kind of [...new Set(scenarios.map((s) => s.server))] as ServerKind[]) {
      const group = scenarios.filter((s) => s.server === kind);
      const reason = unavailable(kind);
      if (reason) {
        for (const s of group) resultOf(s).skipped = reason;
        continue;
      }
      let server: RunningProcess;
      try {
        console.log(`bench: starting ${kind}`);
        server = await startServer[kind](load.connections);
        servers.push(server);
        console.log(`bench: ${kind} ready (${server.description})`);
      } catch (e) {
        console.error(`bench: ${kind} failed to start: ${message(e)}`);
        for (const s of group) resultOf(s).error = `server failed to start: ${message(e)}`;
        continue;
      }
      for (const s of group) {
        const result = resultOf(s);
        result.server = `${kind}: ${server.description}`;
        try {
          ready.push({ scenario: s, result, run: await prepare(s, server), samples: new Samples() });
        } catch (e) {
          result.error = `setup: ${message(e)}`;
          console.error(`bench: ${s.name}: ${result.error}`);
        }
      }
    }

    const perRound = load.durationSeconds / load.rounds;
    for (const r of ready) {
      if (load.warmupSeconds > 0) {
        console.log(`bench: warm-up ${r.scenario.name} (${load.warmupSeconds} s)`);
        await r.run(load.warmupSeconds);
      }
    }
    for (let round = 1; round <= load.rounds; round++) {
      for (const r of ready) {
        console.log(`bench: round ${round}/${load.rounds} ${r.scenario.name} (${perRound} s)`);
        try {
          await r.run(perRound, r.samples);
        } catch (e) {
          r.result.error = message(e);
        }
      }
    }
    for (const r of ready) if (!r.result.error) r.result.measurement = r.samples.summary();
  } finally {
    for (const server of servers) {
      await server.stop().catch((e: unknown) => console.error(`bench: stopping ${server.kind}: ${message(e)}`));
    }
  }

  for (const r of results) {
    const refs = r.reference.map((name) => results.find((x) => x.name === name)?.measurement);
    if (!r.measurement || !refs.length || refs.some((m) => !m || m.requestsPerSecond <= 0)) continue;
    const measured = refs as NonNullable<(typeof refs)[number]>[];
    r.referenceRequestsPerSecond = combined(measured.map((m) => m.requestsPerSecond));
    r.ratio = r.measurement.requestsPerSecond / r.referenceRequestsPerSecond;
    const rounds = r.measurement.rounds;
    if (measured.every((m) => m.rounds.length === rounds.length)) {
      const perRound = rounds.map((rps, i) => rps / combined(measured.map((m) => m.rounds[i]!)));
      r.medianRoundRatio = median(perRound.sort((a, b) => a - b));
    }
  }

  printTable(results, load);
  writeJson(RESULTS_FILE, results, load);
  console.log(`bench: results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);

  const failed = results.filter(
    (r) => r.error || (r.measurement && (r.measurement.unexpectedStatus > 0 || r.measurement.errors > 0)),
  );
  if (process.env.BENCH_ONLY === 'http') return failed.length ? 1 : 0;
  const tagCode = await tagPhase();
  const uploadCode = await uploadPhase();
  const snapshotCode = await snapshotPhase();
  const auditCode = await auditPhase();
  const multipartCode = await multipartPhase();
  const startupCode = await startupPhase();
  const pointCloudCode = process.env.BENCH_POINTCLOUDS === '1' ? await pointCloudPhase() : 0;
  return tagCode || uploadCode || snapshotCode || auditCode || multipartCode || startupCode || pointCloudCode || (failed.length ? 1 : 0);
}

/**
 * The large-file rows (issue 30, bench/multipart.ts): a 20 GiB file by default
 * (BENCH_MULTIPART_GIB), tens of minutes on a quiet machine; BENCH_MULTIPART=0 leaves them out.
 * Skipped, and said so, when the disk cannot hold the file twice. Targets are printed, not asserted.
 */
async function multipartPhase(): Promise<number> {
  if (process.env.BENCH_MULTIPART === '0') return 0;
  try {
    const result = await runMultipartBench();
    printMultipartRow(result);
    return writeResult('multipart', 'multipart', result);
  } catch (e) {
    console.log(`multipart: failed: ${(e as Error).message}`);
    return writeResult('multipart', 'multipart', { error: (e as Error).message });
  }
}

/** Writes a phase's result to bench/results/<name>.json; answers the phase's exit code. */
function writeResult(name: string, label: string, result: { error?: string }): number {
  const file = path.join(ROOT, `bench/results/${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), result }, null, 2));
  console.log(`bench: ${label} results written to ${path.relative(process.cwd(), file)}`);
  return result.error ? 1 : 0;
}

/** The files issue's 1 GiB upload and download through the local signed URL (bench/upload.ts). */
async function uploadPhase(): Promise<number> {
  console.log('bench: upload and download through the local-disk signed URL');
  const upload = await runUploadBench();
  printUploadTable(upload);
  return writeResult('upload', 'upload', upload);
}

/** Issue 32's snapshot restore of 100,000 tags and 100 files on PGlite (bench/snapshots.ts); BENCH_SNAPSHOTS=0 skips it. */
async function snapshotPhase(): Promise<number> {
  if (process.env.BENCH_SNAPSHOTS === '0') return 0;
  console.log('bench: snapshot save and restore (100,000 tags, 100 files, PGlite)');
  const result = await runSnapshotBench();
  printSnapshotRow(result);
  return writeResult('snapshots', 'snapshot', result);
}

/** Issue 33's audit-log export (bench/audit-export.ts; BENCH_AUDIT_RECORDS, default 1,000,000, the target's count); BENCH_AUDIT=0 skips it. */
async function auditPhase(): Promise<number> {
  if (process.env.BENCH_AUDIT === '0') return 0;
  console.log(`bench: audit-log export (${auditBenchRecords().toLocaleString('en')} records, PGlite)`);
  const result = await runAuditBench();
  printAuditRow(result);
  const exportCode = writeResult('audit', 'audit', result);
  if (process.env.BENCH_AUDIT_LOCK === '0') return exportCode;
  console.log('bench: audit chain lock (concurrent renames with and without the audit log)');
  const lock = await runAuditLockBench();
  printAuditLockRow(lock);
  const lockCode = writeResult('audit-lock', 'audit chain lock', { ...lock, error: lock.engines.find((e) => e.error)?.error });
  return exportCode || lockCode;
}

/** The operations issue's start-up time on existing data (bench/startup.ts). */
async function startupPhase(): Promise<number> {
  if (process.env.BENCH_STARTUP === '0') return 0;
  console.log('bench: start-up time to /healthz on existing data');
  const startup = await runStartupBench();
  printStartupTable(startup);
  return writeResult('startup', 'start-up', startup);
}

/** Issue 31's conversion rates (bench/pointclouds.ts): minutes long, so only with BENCH_POINTCLOUDS=1 or BENCH_ONLY=pointclouds. */
async function pointCloudPhase(): Promise<number> {
  console.log('bench: point-cloud conversion (generated LAS and E57)');
  const rows = await runPointCloudBench();
  printPointCloudTable(rows);
  const file = path.join(ROOT, 'bench/results/pointclouds.json');
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
  console.log(`bench: point-cloud results written to ${path.relative(process.cwd(), file)}`);
  return rows.some((r) => r.error) ? 1 : 0;
}

/** The tags issue's measurements (bench/tags.ts), written to bench/results/tags.json. */
async function tagPhase(): Promise<number> {
  const tags = await runTagBench();
  printTagTable(tags);
  const file = path.join(ROOT, 'bench/results/tags.json');
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), results: tags }, null, 2));
  console.log(`bench: tag results written to ${path.relative(process.cwd(), file)}`);
  return tags.some((r) => r.error) ? 1 : 0;
}

/** Checks the scenario once and answers how to measure one round of it. */
async function prepare(s: Scenario, server: RunningProcess): Promise<Ready['run']> {
  if (isPointSelectDriver(server)) {
    const driver: PointSelectDriver = server;
    return (seconds, samples) => measureDriver(driver, seconds, samples);
  }
  if (!s.setup) throw new Error(`scenario ${s.name} has no setup for its HTTP server`);
  const http = server as RunningServer;
  const request: BenchRequest = await s.setup(server as never);
  await probe(http.url, request);
  return (seconds, samples) => fire(http.url, request, load.connections, seconds, samples, http.pid);
}

main()
  .then(async (code) => {
    await cleanUpEverything();
    process.exit(code);
  })
  .catch(async (e: unknown) => {
    console.error('bench: failed:', e);
    await cleanUpEverything();
    killAllChildren();
    process.exit(1);
  });
