// Presents the results: a table on the terminal and bench/results/latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadOptions, Measurement } from './measure.ts';

export interface ScenarioResult {
  name: string;
  server: string;
  target?: number;
  /** The scenarios whose combined rate, 1 / (1/a + 1/b + …), is the reference ([] for none). */
  reference: readonly string[];
  /** That combined rate (req/s), when every reference was measured. */
  referenceRequestsPerSecond?: number;
  /** Throughput relative to the reference (null when either was not measured). */
  ratio: number | null;
  /** Median over the rounds of (this round's req/s / the reference's req/s in the same round): steadier on a busy machine. */
  medianRoundRatio: number | null;
  measurement?: Measurement;
  skipped?: string;
  error?: string;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function verdict(r: ScenarioResult): string {
  if (r.error) return `FAILED: ${r.error.split('\n')[0]!.slice(0, 120)}`;
  if (r.skipped) return `skipped: ${r.skipped}`;
  const m = r.measurement;
  if (!m) return 'not measured';
  const problems: string[] = [];
  if (m.unexpectedStatus) problems.push(`${fmt(m.unexpectedStatus)} unexpected status`);
  if (m.errors) problems.push(`${fmt(m.errors)} errors`);
  if (problems.length) return `INVALID: ${problems.join(', ')}`;
  if (!r.reference.length) return 'reference';
  if (r.target === undefined || r.ratio === null) return 'not compared';
  return r.ratio >= r.target ? 'meets target' : 'below target';
}

export function printTable(results: ScenarioResult[], opts: LoadOptions): void {
  const header = [
    'scenario', 'req/s', 'p50 ms', 'p99 ms', 'compared with', 'ratio', 'median round ratio', 'target', 'server CPU µs/req',
    'req/s per round', 'result',
  ];
  const rows = results.map((r) => {
    const m = r.measurement;
    const ref = r.reference.length ? r.reference.map(shortName).join(' ⊕ ') : '-';
    return [
      r.name,
      m ? fmt(m.requestsPerSecond) : '-',
      m ? fmt(m.latencyP50Ms, 2) : '-',
      m ? fmt(m.latencyP99Ms, 2) : '-',
      r.referenceRequestsPerSecond === undefined ? ref : `${ref} = ${fmt(r.referenceRequestsPerSecond)}`,
      r.ratio === null ? '-' : `${fmt(r.ratio, 2)}x`,
      r.medianRoundRatio === null ? '-' : `${fmt(r.medianRoundRatio, 2)}x`,
      r.target === undefined ? '-' : `>= ${fmt(r.target, 2)}x`,
      m?.serverCpuMicrosPerRequest != null ? fmt(m.serverCpuMicrosPerRequest, 1) : '-',
      m ? m.rounds.map((x) => fmt(x)).join(' / ') : '-',
      verdict(r),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const right = new Set([1, 2, 3, 5, 6, 7, 8]);
  const line = (cells: string[]) =>
    '| ' + cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ') + ' |';
  console.log('');
  console.log(
    `autocannon on loopback: ${opts.connections} connections, ${opts.durationSeconds} s measured per scenario ` +
      `(${opts.rounds} rounds, visiting every scenario in turn) after a ${opts.warmupSeconds} s warm-up; ` +
      `ratio = scenario req/s / the req/s it is compared with, where a ⊕ b = 1 / (1/a + 1/b) is the rate of a ` +
      `request that costs one of each (an HTTP request and one point select at the same concurrency); ` +
      `median round ratio = median over rounds of the same ratio within one round (steadier on a busy machine); ` +
      `server CPU µs/req = CPU time of the measured process per request or query (not affected by other load; ` +
      `for PostgreSQL it excludes the database server's own CPU); targets are reported, not asserted`,
  );
  console.log(line(header));
  console.log('|' + widths.map((w, i) => (right.has(i) ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|');
  for (const row of rows) console.log(line(row));
  console.log('');
}

/** "bare point-select (PGlite)" → "PGlite select", for the compared-with column. */
function shortName(name: string): string {
  const select = /^bare point-select \((.+)\)$/.exec(name);
  if (select) return `${select[1]} select`;
  return name === 'bare node:http JSON' ? 'bare http' : name;
}

export function writeJson(file: string, results: ScenarioResult[], opts: LoadOptions): void {
  const doc = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    load: opts,
    scenarios: results.map((r) => ({ ...r, result: verdict(r) })),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
}
