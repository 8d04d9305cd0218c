// The large-file row of issue 30 (groundwork until the service's routes exist): a file of
// BENCH_MULTIPART_GIB GiB (default 20; generated on the temporary directory's disk, deleted
// after) uploaded by the CLI (`scanbase upload --parallel 4`, multipart: 16 MiB parts)
// to the multipart test server over the local-disk store (each part written at its
// offset of one file, the whole MD5 hashed in order as parts land; bench/multipart-server-child.ts),
// against a raw write + fsync of the same bytes to the same disk in the same run. Also the
// client's and the server's peak RSS growth over their baselines (sampled from /proc every
// 200 ms). Targets (printed, never asserted): upload ≥ 0.8 of the raw write; RSS growth
// < 128 MiB each. Long (minutes for 20 GiB): `npm run bench` runs it only with
// BENCH_MULTIPART=1; alone: `npx tsx bench/multipart.ts`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processMemory } from './measure.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, '../packages/cli/src/main.ts');
const MiB = 1024 * 1024;
export const MULTIPART_TARGET_RATIO = 0.8;
export const MULTIPART_RSS_TARGET_MIB = 128;

export interface MultipartBenchResult {
  bytes: number;
  rawWriteMiBps: number;
  uploadMiBps: number;
  ratio: number;
  clientRssGrowthMiB: number;
  serverRssGrowthMiB: number;
}

/** Writes `bytes` of generated data: a random 64 MiB block, each copy stamped with its index (no two parts alike). */
async function generate(file: string, bytes: number): Promise<void> {
  const block = crypto.randomBytes(64 * MiB);
  const fh = await fs.promises.open(file, 'w');
  try {
    for (let at = 0, i = 0; at < bytes; at += block.length, i++) {
      block.writeUInt32LE(i, 0);
      const n = Math.min(block.length, bytes - at);
      await fh.write(block, 0, n, at);
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Copies `from` to a new file beside it with one reused buffer, then fsyncs: the disk's raw write of the same bytes. */
async function rawWrite(from: string, to: string): Promise<number> {
  const started = performance.now();
  const src = await fs.promises.open(from, 'r');
  const dst = await fs.promises.open(to, 'w');
  const buf = Buffer.allocUnsafe(4 * MiB);
  try {
    for (let at = 0; ;) {
      const { bytesRead } = await src.read(buf, 0, buf.length, at);
      if (!bytesRead) break;
      await dst.write(buf, 0, bytesRead, at);
      at += bytesRead;
    }
    await dst.sync();
  } finally {
    await src.close();
    await dst.close();
  }
  return (performance.now() - started) / 1000;
}

/** Peak RSS growth of a process over its RSS at the start of the watch. */
function watchRss(pid: number): () => number {
  const base = processMemory(pid, 'VmRSS') ?? 0;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, processMemory(pid, 'VmRSS') ?? 0)), 200);
  return () => {
    clearInterval(timer);
    return (peak - base) / MiB;
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, onSpawn?: (pid: number) => void, stdin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.stdin.end(stdin ?? '');
    onSpawn?.(child.pid!);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')}: exit ${code}\n${err}`))));
  });
}

export async function runMultipartBench(gib = Number(process.env.BENCH_MULTIPART_GIB ?? 20)): Promise<MultipartBenchResult> {
  const bytes = Math.round(gib * 1024 * MiB);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-multipart-'));
  const server = spawn(process.execPath, [path.join(HERE, 'multipart-server-child.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, MALLOC_ARENA_MAX: '2' } });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.once('data', (d) => resolve((JSON.parse(String(d)) as { url: string }).url));
      server.once('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
    const source = path.join(dir, 'scan.e57');
    await generate(source, bytes);
    const rawSeconds = await rawWrite(source, path.join(dir, 'raw-copy'));
    fs.rmSync(path.join(dir, 'raw-copy'));

    const env = { ...process.env, SCANBASE_CONFIG_DIR: path.join(dir, 'config'), SCANBASE_PROFILE: '', SCANBASE_BASE_URL: '', MALLOC_ARENA_MAX: '2' };
    const pair = { access_token: 'bench', refresh_token: 'bench', expires_in: 86400, token_type: 'Bearer', user_id: 'urn:svc:user:bench' };
    await run(process.execPath, [CLI, 'login', '--with-token', '--base-url', url], env, undefined, JSON.stringify(pair));
    const serverRss = watchRss(server.pid!);
    let clientRss = () => 0;
    const started = performance.now();
    await run(process.execPath, [
      CLI, 'upload', '--account', 'urn:svc:account:bench', '--project', `urn:svc:project:${crypto.randomUUID()}`, '--zone', 'urn:svc:workzone:bench',
      '--parallel', '4', '--json', source,
    ], env, (pid) => (clientRss = watchRss(pid)));
    const uploadSeconds = (performance.now() - started) / 1000;
    const result = {
      bytes,
      rawWriteMiBps: bytes / MiB / rawSeconds,
      uploadMiBps: bytes / MiB / uploadSeconds,
      ratio: rawSeconds / uploadSeconds,
      clientRssGrowthMiB: clientRss(),
      serverRssGrowthMiB: serverRss(),
    };
    return result;
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printMultipartRow(r: MultipartBenchResult): void {
  const f = (n: number) => n.toFixed(1);
  console.log(`multipart ${f(r.bytes / 1024 / MiB)} GiB (local disk, CLI --parallel 4): raw write + fsync ${f(r.rawWriteMiBps)} MiB/s, `
    + `upload ${f(r.uploadMiBps)} MiB/s (ratio ${r.ratio.toFixed(2)}, target ≥ ${MULTIPART_TARGET_RATIO}), `
    + `RSS growth client ${f(r.clientRssGrowthMiB)} MiB, server ${f(r.serverRssGrowthMiB)} MiB (target < ${MULTIPART_RSS_TARGET_MIB})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  printMultipartRow(await runMultipartBench());
}
