// autocannon measurements. Latencies are recorded from autocannon's per-response
// event at sub-millisecond resolution (its own histogram keeps whole milliseconds).
import fs from 'node:fs';
import autocannon from 'autocannon';
import { createRequire } from 'node:module';
import type { BenchRequest } from './scenarios.ts';
import type { PointSelectDriver } from './servers.ts';

// autocannon keeps every response body as a string (`body += chunk`, for its expectBody and
// verifyBody options, which the bench never uses). Decoding a compressed answer (binary) as
// UTF-8 is slow: for the gzipped project list (~90 kB) the load generator, on the same two
// cores as the server, capped the rate at ~800 req/s while the server spent 160 µs per
// request; Node's own http client fetched the same bytes from a bare server at ~5,000 req/s.
// A real client inflates the body instead (its cost, not the server's). The bench keeps only
// the byte count: the load generator's cost no longer depends on what the bytes are.
const requireFromBench = createRequire(import.meta.url);
const { prototype: pipelinedQueue } = requireFromBench('autocannon/lib/pipelinedRequestsQueue.js') as { prototype: { addBody(data: Buffer): void } };
pipelinedQueue.addBody = () => {};

/** The median of `values` (in any order). */
export function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** A memory figure of a process (VmRSS: now; VmHWM: its peak), in bytes; null where /proc is not there. */
export function processMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface LoadOptions {
  connections: number;
  /** Measured seconds per scenario, split evenly over the rounds. */
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
}

export interface Measurement {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  seconds: number;
  /** Responses whose status was not the expected one (they are not in the latencies). */
  unexpectedStatus: number;
  errors: number;
  timeouts: number;
  /** Requests per second of each round, to show the noise. */
  rounds: number[];
  /** CPU time the server process used per request (Linux /proc), independent of other load on the machine. */
  serverCpuMicrosPerRequest: number | null;
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux architecture Node supports

/** User + system CPU seconds a process has used so far; null where /proc is not available. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at state (field 3).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Waits until the process uses under 10% of a core over 100 ms (its queued requests are
 * done), for at most `maxMs`.
 */
export async function settle(pid: number, maxMs = 30_000): Promise<void> {
  const until = Date.now() + maxMs;
  let before = processCpuSeconds(pid);
  while (before !== null && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    const now = processCpuSeconds(pid);
    if (now === null || now - before < 0.01) return;
    before = now;
  }
}

/** Samples of one scenario, accumulated over its rounds. */
export class Samples {
  private latencies = new Float64Array(1 << 16);
  private count = 0;
  requests = 0;
  seconds = 0;
  unexpectedStatus = 0;
  errors = 0;
  timeouts = 0;
  /** Server CPU seconds over the measured rounds; null once a reading failed. */
  serverCpuSeconds: number | null = 0;
  readonly rounds: number[] = [];

  record(ms: number): void {
    if (this.count === this.latencies.length) {
      const next = new Float64Array(this.latencies.length * 2);
      next.set(this.latencies);
      this.latencies = next;
    }
    this.latencies[this.count++] = ms;
  }

  summary(): Measurement {
    const sorted = this.latencies.slice(0, this.count).sort();
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
    return {
      requestsPerSecond: this.seconds ? this.requests / this.seconds : 0,
      latencyP50Ms: at(0.5),
      latencyP99Ms: at(0.99),
      latencyMaxMs: sorted.length ? sorted[sorted.length - 1]! : 0,
      requests: this.requests,
      seconds: this.seconds,
      unexpectedStatus: this.unexpectedStatus,
      errors: this.errors,
      timeouts: this.timeouts,
      rounds: this.rounds,
      serverCpuMicrosPerRequest:
        this.serverCpuSeconds !== null && this.requests ? (this.serverCpuSeconds * 1e6) / this.requests : null,
    };
  }
}

/** One request first, so a broken setup fails with its answer rather than a table of errors. */
export async function probe(url: string, req: BenchRequest): Promise<void> {
  const expect = req.expectStatus ?? 200;
  const res = await fetch(`${url}${req.path}`, { method: req.method ?? 'GET', headers: req.headers, body: req.body });
  const text = await res.text();
  if (res.status !== expect) {
    throw new Error(`${req.method ?? 'GET'} ${req.path} answered ${res.status} (expected ${expect}): ${text.slice(0, 300)}`);
  }
}

/**
 * Fires the request for `seconds` on `connections` connections; records into `samples`
 * when given, with the CPU time of the server process `serverPid`.
 */
export function fire(
  url: string,
  req: BenchRequest,
  connections: number,
  seconds: number,
  samples?: Samples,
  serverPid?: number,
): Promise<void> {
  const expect = req.expectStatus ?? 200;
  return new Promise((resolve, reject) => {
    const cpuBefore = serverPid === undefined ? null : processCpuSeconds(serverPid);
    const started = process.hrtime.bigint();
    let requests = 0;
    const instance = autocannon(
      {
        url: `${url}${req.path}`,
        method: req.method ?? 'GET',
        headers: req.headers,
        body: req.body,
        connections,
        duration: seconds,
      },
      (err, result) => {
        if (err) return reject(err);
        if (samples) {
          const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
          samples.requests += requests;
          samples.seconds += elapsed;
          samples.errors += result.errors;
          samples.timeouts += result.timeouts;
          samples.rounds.push(requests / elapsed);
          const cpuAfter = serverPid === undefined ? null : processCpuSeconds(serverPid);
          samples.serverCpuSeconds =
            cpuBefore === null || cpuAfter === null || samples.serverCpuSeconds === null
              ? null
              : samples.serverCpuSeconds + (cpuAfter - cpuBefore);
        }
        // Requests still in the server when the round ends would run into the next
        // scenario's round (a slow scenario's queue cost the bare baseline two thirds of its
        // rate): wait until the server is idle. Their CPU is counted by no scenario.
        (serverPid === undefined ? Promise.resolve() : settle(serverPid)).then(resolve, reject);
      },
    );
    if (samples) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        requests++;
        if (statusCode === expect) samples.record(responseTime);
        else samples.unexpectedStatus++;
      });
    }
  });
}

/** One round of a point-select driver (its own count, clock and latencies), recorded like a round of autocannon. */
export async function measureDriver(driver: PointSelectDriver, seconds: number, samples?: Samples): Promise<void> {
  const cpuBefore = processCpuSeconds(driver.pid);
  const round = await driver.measure(seconds);
  if (!samples) return;
  const cpuAfter = processCpuSeconds(driver.pid);
  samples.requests += round.queries;
  samples.seconds += round.seconds;
  samples.rounds.push(round.queries / round.seconds);
  for (const ms of round.latenciesMs) samples.record(ms);
  samples.serverCpuSeconds =
    cpuBefore === null || cpuAfter === null || samples.serverCpuSeconds === null
      ? null
      : samples.serverCpuSeconds + (cpuAfter - cpuBefore);
}
