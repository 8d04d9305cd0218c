// `npm run bench`: throughput of the real server against a bare node:http baseline, in
// one run, on loopback. Servers run in child processes (never in the load generator's
// event loop) and are always stopped, on success, failure or Ctrl-C. The measured time
// is split into rounds that visit every scenario in turn, so a burst of noise on the
// machine spreads over all of them instead of skewing one ratio.
//
// Environment: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s per scenario), BENCH_ROUNDS
// (5), BENCH_WARMUP (2 s), BENCH_DATABASE_URL or TEST_DATABASE_URL (adds the PostgreSQL
// scenarios: a database with a random name is created on that server, dropped after).
import path from 'node:path';
import { fire, probe, Samples, type LoadOptions } from './measure.ts';
import { printTable, writeJson, type ScenarioResult } from './report.ts';
import { BASELINE, scenarios, type BenchRequest, type Scenario } from './scenarios.ts';
import { ROOT, startServer, unavailable, type RunningServer, type ServerKind } from './servers.ts';
import { cleanUpEverything, killAllChildren } from './children.ts';

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

const median = (sorted: number[]) =>
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

interface Ready {
  scenario: Scenario;
  result: ScenarioResult;
  url: string;
  pid: number;
  request: BenchRequest;
  samples: Samples;
}

async function main(): Promise<number> {
  const results: ScenarioResult[] = scenarios.map((s) => ({
    name: s.name,
    server: s.server,
    target: s.target,
    ratio: null,
    medianRoundRatio: null,
  }));
  const resultOf = (s: Scenario) => results[scenarios.indexOf(s)]!;
  const servers: RunningServer[] = [];
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
      let server: RunningServer;
      try {
        console.log(`bench: starting ${kind}`);
        server = await startServer[kind]();
        servers.push(server);
        console.log(`bench: ${kind} ready at ${server.url} (${server.description})`);
      } catch (e) {
        console.error(`bench: ${kind} failed to start: ${message(e)}`);
        for (const s of group) resultOf(s).error = `server failed to start: ${message(e)}`;
        continue;
      }
      for (const s of group) {
        const result = resultOf(s);
        result.server = `${kind}: ${server.description}`;
        try {
          const request = await s.setup(server as never);
          await probe(server.url, request);
          ready.push({ scenario: s, result, url: server.url, pid: server.pid, request, samples: new Samples() });
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
        await fire(r.url, r.request, load.connections, load.warmupSeconds);
      }
    }
    for (let round = 1; round <= load.rounds; round++) {
      for (const r of ready) {
        console.log(`bench: round ${round}/${load.rounds} ${r.scenario.name} (${perRound} s)`);
        try {
          await fire(r.url, r.request, load.connections, perRound, r.samples, r.pid);
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

  const base = results.find((r) => r.name === BASELINE)?.measurement;
  for (const r of results) {
    if (!base || !r.measurement || base.requestsPerSecond <= 0) continue;
    r.ratio = r.measurement.requestsPerSecond / base.requestsPerSecond;
    const perRound = r.measurement.rounds.map((rps, i) => rps / base.rounds[i]!).sort((a, b) => a - b);
    if (perRound.length === base.rounds.length) r.medianRoundRatio = median(perRound);
  }

  printTable(results, load);
  writeJson(RESULTS_FILE, results, load);
  console.log(`bench: results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);

  const failed = results.filter(
    (r) => r.error || (r.measurement && (r.measurement.unexpectedStatus > 0 || r.measurement.errors > 0)),
  );
  return failed.length ? 1 : 0;
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
