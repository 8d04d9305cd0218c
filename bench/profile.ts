// `npm run bench:profile -- <server kind> <scenario regex> [seconds]`: where a scenario's
// server CPU goes. Starts one server like `npm run bench` does, with --cpu-prof, prepares
// the scenarios of that server matching the regex, loads each for `seconds` (after a
// warm-up) and prints, per scenario, the functions with the most self time and the most
// total time inside the measured window only (set-up and start-up are left out: V8's
// profile and process.hrtime share the monotonic clock).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fire, probe, Samples } from './measure.ts';
import { scenarios } from './scenarios.ts';
import { startServer, type RunningServer, type ServerKind } from './servers.ts';
import { cleanUpEverything } from './children.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [kind, pattern, secondsArg] = process.argv.slice(2);
if (!kind || !pattern || !(kind in startServer)) {
  console.error(`usage: bench:profile -- <${Object.keys(startServer).join('|')}> <scenario regex> [seconds]`);
  process.exit(2);
}
const seconds = Number(secondsArg ?? 10);
const CONNECTIONS = 50;
const TOP = 25;

/** Self and total sample counts per function (file:line name) within [fromUs, toUs). */
function summarise(profile: CpuProfile, fromUs: number, toUs: number) {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const label = (n: ProfileNode) => {
    const f = n.callFrame;
    const file = f.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/').replace(/^.*\/(src|bench)\//, '$1/');
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let t = profile.startTime;
  let count = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < fromUs || t >= toUs) continue;
    let node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    count++;
    self.set(label(node), (self.get(label(node)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      node = byId.get(id)!;
      const l = label(node);
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) ?? 0) + 1);
    }
  }
  const top = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([l, n]) => `${((100 * n) / count).toFixed(1).padStart(5)}%  ${l}`);
  return { count, self: top(self), total: top(total) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-prof-'));
  process.env.BENCH_SERVER_PROF = dir;
  const chosen = scenarios.filter((s) => s.server === kind && new RegExp(pattern!).test(s.name) && s.setup);
  if (!chosen.length) throw new Error(`no HTTP scenario of ${kind} matches ${pattern}`);
  const server = (await startServer[kind as ServerKind](CONNECTIONS)) as RunningServer;
  const windows: { name: string; from: number; to: number; requests: number; cpuUs: number | null }[] = [];
  try {
    for (const s of chosen) {
      console.log(`profile: setting up ${s.name}`);
      const req = await s.setup!(server as never);
      await probe(server.url, req);
      const body = await (await fetch(`${server.url}${req.path}`, { headers: req.headers })).arrayBuffer();
      console.log(`profile: ${s.name} answers ${body.byteLength} bytes`);
      await fire(server.url, req, CONNECTIONS, 2, undefined, server.pid);
      const from = Number(process.hrtime.bigint() / 1000n);
      const samples = new Samples();
      await fire(server.url, req, CONNECTIONS, seconds, samples, server.pid);
      const m = samples.summary();
      windows.push({ name: s.name, from, to: Number(process.hrtime.bigint() / 1000n), requests: m.requests, cpuUs: m.serverCpuMicrosPerRequest });
    }
  } finally {
    await server.stop();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  for (const w of windows) {
    const s = summarise(profile, w.from, w.to);
    console.log(`\n== ${w.name}: ${w.requests} requests, ${w.cpuUs?.toFixed(0)} µs of server CPU per request, ${s.count} samples`);
    console.log('-- self time'); console.log(s.self.join('\n'));
    console.log('-- total time'); console.log(s.total.join('\n'));
  }
  console.log(`\nprofile: ${path.join(dir, file)}`);
}

main()
  .then(() => cleanUpEverything())
  .catch(async (e: unknown) => {
    console.error('profile: failed:', e);
    await cleanUpEverything();
    process.exit(1);
  });
