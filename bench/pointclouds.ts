// Point-cloud conversion rates (issue 31): a generated LAS (default 100 million points) and
// a generated E57 (default 20 million) converted to COPC on this machine, each in its own
// process so that its peak RSS (worker threads included) is the conversion's. Inputs are
// streamed to a temporary directory and deleted after. Targets (reported, never asserted):
// LAS ≥ 2 M points/s; RSS < 1 GiB. Each output's first frame is then read by copc.js over
// HTTP range requests on loopback (header, root hierarchy page, root node decoded): the
// reads, bytes and time before the first points could be drawn (targets ≤ 4 reads,
// ≤ 512 kB, ≤ 1 s; bench/console-copc.ts measures the same in Chromium through the service).
//
// Long (minutes), so off by default: BENCH_POINTCLOUDS=1 adds it to `npm run bench`;
// BENCH_ONLY=pointclouds runs it alone. BENCH_PC_LAS_POINTS and BENCH_PC_E57_POINTS set the
// sizes (0 skips one). Alone: `npx tsx bench/pointclouds.ts`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSyntheticLas, syntheticPoint } from '../test/pointclouds/support/synthetic.ts';
import { writeE57 } from '../test/pointclouds/support/e57-writer.ts';
import { readFirstFrame, type FirstFrame } from '../test/pointclouds/support/copc-read.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LAS_TARGET_POINTS_PER_SECOND = 2_000_000;
export const RSS_TARGET_BYTES = 1 << 30;
export const FIRST_FRAME_TARGET = { requests: 4, bytes: 512_000, seconds: 1 };

export interface PointCloudBenchRow {
  input: string;
  points: number;
  inputBytes: number;
  seconds: number;
  pointsPerSecond: number;
  peakRssBytes: number;
  outputBytes: number;
  nodes: number;
  /** copc.js over HTTP ranges on loopback, until the root node's points are decoded. */
  firstFrame?: FirstFrame;
  error?: string;
}

const CHILD = `
import { convertToCopc } from ${JSON.stringify(path.join(ROOT, 'src/pointclouds/index.ts'))};
const [input, output] = process.argv.slice(-2);
const r = await convertToCopc({ input, output });
console.log(JSON.stringify({ ...r, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

async function convertInChild(input: string, output: string): Promise<{ seconds: number; pointCount: number; nodes: number; bytes: number; maxRss: number }> {
  const script = path.join(path.dirname(output), 'convert.mts');
  fs.writeFileSync(script, CHILD);
  return new Promise((resolve, reject) => {
    // Plain Node (its own type stripping), as the service runs the converter: through tsx's
    // loader a 10 M-point conversion took 10.9 s instead of 7.7 (2026-11-29).
    const child = spawn(process.execPath, [script, input, output], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`conversion exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!));
    });
  });
}

/** Serves one file by single byte ranges on loopback (what a static host or the service answers). */
async function serveRanges(file: string): Promise<{ url: string; close: () => Promise<void> }> {
  const size = fs.statSync(file).size;
  const server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) {
      res.writeHead(400).end('a single bytes=a-b range is expected');
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), size - 1);
    res.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}` });
    fs.createReadStream(file, { start, end }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))) };
}

async function firstFrameOverHttp(file: string): Promise<FirstFrame> {
  const server = await serveRanges(file);
  try {
    return await readFirstFrame(async (begin, end) => {
      const res = await fetch(server.url, { headers: { range: `bytes=${begin}-${end - 1}` } });
      if (res.status !== 206) throw new Error(`range ${begin}-${end - 1}: ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    });
  } finally {
    await server.close();
  }
}

async function measure(input: string, points: number, dir: string): Promise<PointCloudBenchRow> {
  const inputBytes = fs.statSync(input).size;
  const output = path.join(dir, `${path.basename(input)}.copc.laz`);
  try {
    const r = await convertInChild(input, output);
    const firstFrame = await firstFrameOverHttp(output);
    return { input: path.basename(input), points: r.pointCount, inputBytes, seconds: r.seconds, pointsPerSecond: r.pointCount / r.seconds, peakRssBytes: r.maxRss, outputBytes: r.bytes, nodes: r.nodes, firstFrame };
  } catch (e) {
    return { input: path.basename(input), points, inputBytes, seconds: 0, pointsPerSecond: 0, peakRssBytes: 0, outputBytes: 0, nodes: 0, error: (e as Error).message };
  } finally {
    fs.rmSync(output, { force: true });
  }
}

export async function runPointCloudBench(): Promise<PointCloudBenchRow[]> {
  const lasPoints = Number(process.env.BENCH_PC_LAS_POINTS ?? 100_000_000);
  const e57Points = Number(process.env.BENCH_PC_E57_POINTS ?? 20_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-pc-'));
  const rows: PointCloudBenchRow[] = [];
  try {
    if (lasPoints > 0) {
      const input = path.join(dir, `generated-${lasPoints}.las`);
      console.log(`bench: writing a ${lasPoints}-point LAS`);
      await writeSyntheticLas(input, { version: '1.4', format: 7, count: lasPoints });
      console.log('bench: converting it to COPC');
      rows.push(await measure(input, lasPoints, dir));
      fs.rmSync(input, { force: true });
    }
    if (e57Points > 0) {
      const input = path.join(dir, `generated-${e57Points}.e57`);
      console.log(`bench: writing a ${e57Points}-point E57 (two posed scans)`);
      const half = Math.floor(e57Points / 2);
      const scan = (n: number, dx: number) => ({
        // With its bounds in the XML, as scanner software writes them (the reader then has no
        // measuring pass: 18.3–18.6 s without them, 15.7–15.9 s with, 2026-11-29).
        name: `scan at ${dx}`, count: n, coordinates: 'scaled' as const, intensity: 'integer' as const, color: true, bounds: 'measured' as const,
        pose: { rotation: [1, 0, 0, 0] as [number, number, number, number], translation: [dx, 0, 0] as [number, number, number] },
        point: (i: number) => {
          const p = syntheticPoint(i, n, 200, [0, 0, 0]);
          return { a: p.x, b: p.y, c: p.z, intensity: p.intensity % 4096, red: p.red >> 8, green: p.green >> 8, blue: p.blue >> 8 };
        },
      });
      writeE57(input, [scan(half, 0), scan(e57Points - half, 150)]);
      console.log('bench: converting it to COPC');
      rows.push(await measure(input, e57Points, dir));
      fs.rmSync(input, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export function printPointCloudTable(rows: PointCloudBenchRow[]): void {
  console.log('\nPoint-cloud conversion to COPC (this machine, %d cores)', os.availableParallelism());
  console.log('input                          points   seconds   points/s   peak RSS   output    nodes   first frame: reads  kB  ms');
  for (const r of rows) {
    if (r.error) {
      console.log(`${r.input.padEnd(28)} error: ${r.error}`);
      continue;
    }
    const target = r.input.endsWith('.las') ? ` (targets ≥ ${LAS_TARGET_POINTS_PER_SECOND / 1e6} M/s; first frame ≤ ${FIRST_FRAME_TARGET.requests} reads, ≤ ${FIRST_FRAME_TARGET.bytes / 1000} kB, ≤ ${FIRST_FRAME_TARGET.seconds * 1000} ms)` : '';
    const f = r.firstFrame;
    const frame = f ? `${String(f.requests).padStart(20)} ${(f.bytes / 1000).toFixed(0).padStart(4)} ${(f.seconds * 1000).toFixed(0).padStart(4)}` : '';
    console.log(
      `${r.input.padEnd(28)} ${(r.points / 1e6).toFixed(1).padStart(7)}M ${r.seconds.toFixed(1).padStart(8)} ${(r.pointsPerSecond / 1e6).toFixed(2).padStart(8)}M ${(r.peakRssBytes / 2 ** 20).toFixed(0).padStart(7)} MiB ${(r.outputBytes / 2 ** 20).toFixed(0).padStart(6)} MiB ${String(r.nodes).padStart(7)}${frame}${target}`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = await runPointCloudBench();
  printPointCloudTable(rows);
  fs.writeFileSync(path.join(ROOT, 'bench/results/pointclouds.json'), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
}
