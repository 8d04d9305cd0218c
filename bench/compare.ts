// `npm run bench:compare -- <other checkout> <server kind> <scenario regex> [rounds] [seconds]`:
// this tree against another checkout of Scanbase (an earlier commit with its own `npm ci`),
// side by side. Both trees' servers of one kind run at once, each prepared by its own
// bench/servers.ts and bench/scenarios.ts; the matching scenario is loaded on each in turn,
// in short slices whose order alternates, with the load of `npm run bench` (bench/measure.ts).
//
// Why: on a shared machine the load of other processes moves a figure by ±20% from one
// `npm run bench` run to the next, more than the 5% a change may cost. Slices a few seconds
// apart see the same machine; the median of the per-slice ratios (this tree / the other)
// is the figure to read, with the pooled server CPU per request beside it.
import path from 'node:path';
import { fire, median, probe, Samples } from './measure.ts';
import { cleanUpEverything } from './children.ts';
import type { BenchRequest, Scenario } from './scenarios.ts';
import type { RunningServer, ServerKind } from './servers.ts';

const CONNECTIONS = 50;

interface Tree {
  label: string;
  root: string;
  server?: RunningServer;
  request?: BenchRequest;
  slices: { requestsPerSecond: number; cpuMicrosPerRequest: number | null }[];
}

/** A checkout's own bench modules: its server start-up and its scenarios' set-up. */
async function benchOf(root: string) {
  const servers = (await import(path.join(root, 'bench/servers.ts'))) as { startServer: Record<string, (connections: number) => Promise<RunningServer>> };
  const scenarios = ((await import(path.join(root, 'bench/scenarios.ts'))) as { scenarios: Scenario[] }).scenarios;
  return { startServer: servers.startServer, scenarios };
}

async function prepare(tree: Tree, kind: ServerKind, pattern: RegExp): Promise<void> {
  const bench = await benchOf(tree.root);
  const start = bench.startServer[kind];
  if (!start) throw new Error(`${tree.label}: no server kind ${kind}`);
  const scenario = bench.scenarios.find((s) => s.server === kind && pattern.test(s.name) && s.setup);
  if (!scenario) throw new Error(`${tree.label}: no HTTP scenario of ${kind} matches ${pattern}`);
  tree.server = await start(CONNECTIONS);
  tree.request = await scenario.setup!(tree.server as never);
  await probe(tree.server.url, tree.request);
  console.log(`compare: ${tree.label}: ${scenario.name} on ${tree.server.description}`);
}

async function slice(tree: Tree, seconds: number, record: boolean): Promise<void> {
  const samples = new Samples();
  await fire(tree.server!.url, tree.request!, CONNECTIONS, seconds, samples, tree.server!.pid);
  const m = samples.summary();
  if (record) tree.slices.push({ requestsPerSecond: m.requestsPerSecond, cpuMicrosPerRequest: m.serverCpuMicrosPerRequest });
}

const pooled = (t: Tree) => {
  const withCpu = t.slices.filter((s) => s.cpuMicrosPerRequest !== null);
  const requests = withCpu.reduce((n, s) => n + s.requestsPerSecond, 0);
  return requests ? withCpu.reduce((n, s) => n + s.cpuMicrosPerRequest! * s.requestsPerSecond, 0) / requests : null;
};

async function main(): Promise<void> {
  const [otherRoot, kind, pattern, roundsArg, secondsArg] = process.argv.slice(2);
  if (!otherRoot || !kind || !pattern) {
    console.error('usage: npm run bench:compare -- <other checkout> <server kind> <scenario regex> [rounds=10] [seconds=3]');
    process.exit(2);
  }
  const rounds = Number(roundsArg ?? 10);
  const seconds = Number(secondsArg ?? 3);
  const re = new RegExp(pattern);
  const other: Tree = { label: `other (${path.resolve(otherRoot)})`, root: path.resolve(otherRoot), slices: [] };
  const self: Tree = { label: 'this tree', root: path.resolve(import.meta.dirname, '..'), slices: [] };
  const trees = [other, self];
  try {
    for (const t of trees) await prepare(t, kind as ServerKind, re);
    for (const t of trees) await slice(t, 2, false); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const t of round % 2 ? [self, other] : [other, self]) await slice(t, seconds, true);
      const [a, b] = [other.slices[round]!, self.slices[round]!];
      console.log(
        `compare: round ${round + 1}/${rounds}: req/s ${a.requestsPerSecond.toFixed(0)} → ${b.requestsPerSecond.toFixed(0)}, ` +
          `CPU µs/req ${a.cpuMicrosPerRequest?.toFixed(1)} → ${b.cpuMicrosPerRequest?.toFixed(1)}`,
      );
    }
  } finally {
    for (const t of trees) await t.server?.stop();
  }
  const ratios = (pick: (s: Tree['slices'][number]) => number | null) =>
    self.slices.map((s, i) => [pick(s), pick(other.slices[i]!)] as const).filter(([a, b]) => a !== null && b).map(([a, b]) => a! / b!);
  const rps = ratios((s) => s.requestsPerSecond).sort((x, y) => x - y);
  const cpu = ratios((s) => s.cpuMicrosPerRequest).sort((x, y) => x - y);
  console.log(`\ncompare: ${kind} /${pattern}/, ${rounds} rounds of ${seconds} s, this tree / other:`);
  console.log(`  req/s:           median of slice ratios ${median(rps).toFixed(3)} (${rps[0]?.toFixed(2)}–${rps.at(-1)?.toFixed(2)})`);
  if (cpu.length) {
    console.log(`  server CPU/req:  median of slice ratios ${median(cpu).toFixed(3)} (${cpu[0]?.toFixed(2)}–${cpu.at(-1)?.toFixed(2)}); ` +
      `pooled ${pooled(other)?.toFixed(2)} → ${pooled(self)?.toFixed(2)} µs`);
  }
}

main()
  .then(() => cleanUpEverything())
  .catch(async (e: unknown) => {
    console.error('compare: failed:', e);
    await cleanUpEverything();
    process.exit(1);
  });
