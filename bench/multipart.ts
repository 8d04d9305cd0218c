// The large-file rows of issue 30: a file of BENCH_MULTIPART_GIB GiB (default 20; generated
// on the temporary directory's disk, deleted after) uploaded by the CLI (`scanbase upload
// --parallel 4`, multipart: 16 MiB parts) to the service (a started server, PGlite), one row
// per store (BENCH_MULTIPART_STORES, default local,s3,azure): the local disk (each part
// written at its offset of one file, the whole MD5 hashed in order as parts land), S3 through
// s3rver and Azure through Azurite as the storage contract suite runs them; each against a
// raw write + fsync of the same bytes to the same disk in the same run. Also the client's and
// the server's peak RSS growth over their baselines (sampled from /proc every 200 ms).
// Targets (printed, never asserted): local disk ≥ 0.8 of the raw write; RSS growth < 128 MiB
// each (the client's over its own footprint: the same CLI sending a 1 MiB file). Also each
// process's CPU seconds per GiB, which other load does not change, and the load average.
// Long (tens of minutes for 20 GiB): `npm run bench` runs it unless BENCH_MULTIPART=0, and
// skips it when the disk cannot hold two copies; alone: `npx tsx bench/multipart.ts`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processMemory } from './measure.ts';
import { triedServerEnv } from './servers.ts';
import { SERVICE_PROCESS_ENV } from '../src/runtime-env.ts';
import { startSdkWorld } from '../packages/sdk/test/support/server.ts';
import { startAzurite, startS3rver } from '../test/storage/emulators.ts';
import { NODE_ARGS as CLI } from '../packages/cli/test/support/run.ts';

const MiB = 1024 * 1024;
/** BENCH_MULTIPART_CLI_ARGS: more `scanbase upload` options for every row (e.g. `--part-size 64`), split at spaces. */
const cliArgs = process.env.BENCH_MULTIPART_CLI_ARGS?.trim() ? process.env.BENCH_MULTIPART_CLI_ARGS.trim().split(/\s+/) : [];
export const MULTIPART_TARGET_RATIO = 0.8;
export const MULTIPART_RSS_TARGET_MIB = 128;

export type BenchStore = 'local' | 's3' | 'azure';

export interface MultipartBenchRow {
  store: BenchStore;
  /** What the row's store is here (the emulator, the disk). */
  via: string;
  bytes: number;
  uploadMiBps: number;
  /** uploadMiBps over the raw write's MiB/s of the same run. */
  ratio: number;
  clientRssGrowthMiB: number;
  serverRssGrowthMiB: number;
  /** CPU time (user + system) of each process over the upload, per GiB sent: what other load does not change. */
  clientCpuSecondsPerGiB: number;
  serverCpuSecondsPerGiB: number;
  /**
   * The server's full (mark-compact) collections per GiB received, from its GET /metrics: what
   * the HTTP reads' external buffers start (docs/performance.md, "Where the server's collector
   * time comes from").
   */
  serverFullGcsPerGiB: number;
  /** The 1-minute load average at the start and the end of the row's upload. */
  load: [number, number];
}

export interface MultipartBenchResult {
  bytes: number;
  rawWriteMiBps: number;
  /** The raw write's CPU time per GiB (the bench process: read, write, fsync). */
  rawCpuSecondsPerGiB: number;
  /** Set when the rows were not run (not enough free disk for the file and its copies). */
  skipped?: string;
  /** Never set here: the bench runner's results file has it for a phase that failed (bench/run.ts writeResult). */
  error?: string;
  rows: MultipartBenchRow[];
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
async function rawWrite(from: string, to: string): Promise<{ seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

const CLOCK_TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

/** A process's CPU time so far (utime + stime of /proc/<pid>/stat), in seconds; null once it is gone. */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

interface Watch {
  /** Peak RSS over the RSS at the start of the watch, MiB. */
  rssGrowthMiB: number;
  /** Peak RSS, MiB. */
  peakMiB: number;
  /** CPU seconds used since the watch began (the last sample for a process that ended). */
  cpuSeconds: number;
}

/** Samples a process every 100 ms from now: its RSS (peak) and CPU time; `stop` answers them. */
function watchProcess(pid: number): () => Watch {
  const base = processMemory(pid, 'VmRSS') ?? 0;
  const cpuBase = cpuSecondsOf(pid) ?? 0;
  let peak = base;
  let cpu = cpuBase;
  const sample = () => {
    peak = Math.max(peak, processMemory(pid, 'VmRSS') ?? 0);
    cpu = cpuSecondsOf(pid) ?? cpu;
  };
  const timer = setInterval(sample, 100);
  return () => {
    sample();
    clearInterval(timer);
    return { rssGrowthMiB: (peak - base) / MiB, peakMiB: peak / MiB, cpuSeconds: cpu - cpuBase };
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

/** The service with the store of a row: STORAGE_URL and its emulator (s3rver and Azurite as the storage contract suite runs them). */
async function storeEnv(store: BenchStore): Promise<{ env: Record<string, string>; via: string; stop(): Promise<void> }> {
  if (store === 'local') return { env: {}, via: 'local disk (DATA_DIR on the temporary directory\'s disk)', stop: async () => {} };
  if (store === 's3') {
    const s3 = await startS3rver();
    return {
      env: { STORAGE_URL: `s3://bench-multipart?endpoint=${s3.endpoint}&region=eu-west-3&forcePathStyle=true`, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
      via: 's3rver (in the bench process, files on the same disk)', stop: () => s3.stop(),
    };
  }
  const azurite = await startAzurite();
  return {
    env: { STORAGE_URL: 'azure://bench-multipart', AZURE_STORAGE_CONNECTION_STRING: azurite.connectionString },
    via: 'Azurite (in memory)', stop: () => azurite.stop(),
  };
}

/** One file through `scanbase upload --parallel 4` to a started service with the row's store. */
async function uploadRow(store: BenchStore, source: string, bytes: number, rawMiBps: number, dir: string): Promise<MultipartBenchRow> {
  const backing = await storeEnv(store);
  // BENCH_MULTIPART_CPU_PROF=<dir>: both processes write a V8 CPU profile there (node --cpu-prof) for the upload.
  const profDir = process.env.BENCH_MULTIPART_CPU_PROF;
  const profile = (name: string): Record<string, string> => (profDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profDir)} --cpu-prof-name=${name}-${store}.cpuprofile` } : {});
  // BENCH_SERVER_ENV, e.g. {"GC_COUNT_EXTERNAL_MEMORY":"1"}.
  const world = await startSdkWorld({ ...backing.env, ...SERVICE_PROCESS_ENV, ...triedServerEnv(), ...profile('server') });
  try {
    const env = { ...process.env, SCANBASE_CONFIG_DIR: path.join(dir, `config-${store}`), SCANBASE_PROFILE: '', SCANBASE_BASE_URL: '', MALLOC_ARENA_MAX: '2' };
    const pair = await world.operator('POST', '/tokens', { email: world.owner.email });
    await run(process.execPath, [...CLI, 'login', '--with-token', '--base-url', world.url], env, undefined, JSON.stringify({
      access_token: pair.access_token, refresh_token: pair.refresh_token, expires_in: 86400, token_type: 'Bearer', user_id: pair.user_id,
    }));
    const upload = async (file: string, extra: Record<string, string> = {}) => {
      let client = (): Watch => ({ rssGrowthMiB: 0, peakMiB: 0, cpuSeconds: 0 });
      await run(process.execPath, [
        ...CLI, 'upload', '--account', world.accountId, '--project', world.projectId, '--zone', world.zoneId, '--parallel', '4', '--json', ...cliArgs, file,
      ], { ...env, ...extra }, (pid) => (client = watchProcess(pid)));
      return client();
    };
    // The CLI's own footprint (started, signed in, one small file sent whole): the client's growth is over it,
    // since its RSS at spawn is a bare process's.
    const small = path.join(dir, `small-${store}.e57`);
    fs.writeFileSync(small, crypto.randomBytes(MiB));
    const footprint = await upload(small);
    fs.rmSync(small);
    const fullGcs = () => world.metric('scanbase_nodejs_gc_duration_seconds_count', { kind: 'major' });
    const fullGcs0 = await fullGcs();
    const server = watchProcess(world.server.child.pid!);
    const load0 = os.loadavg()[0]!;
    const started = performance.now();
    const client = await upload(source, profile('client'));
    const seconds = (performance.now() - started) / 1000;
    const serverUse = server();
    const serverFullGcs = (await fullGcs()) - fullGcs0;
    const gib = bytes / 1024 / MiB;
    const uploadMiBps = bytes / MiB / seconds;
    return {
      store, via: backing.via, bytes, uploadMiBps, ratio: uploadMiBps / rawMiBps,
      clientRssGrowthMiB: Math.max(0, client.peakMiB - footprint.peakMiB), serverRssGrowthMiB: serverUse.rssGrowthMiB,
      clientCpuSecondsPerGiB: client.cpuSeconds / gib, serverCpuSecondsPerGiB: serverUse.cpuSeconds / gib,
      serverFullGcsPerGiB: serverFullGcs / gib, load: [load0, os.loadavg()[0]!],
    };
  } finally {
    await world.stop();
    await backing.stop();
  }
}

/**
 * Every store's row in one run, against one raw write of the same bytes. Azurite keeps its
 * blobs in memory: its row sends the first BENCH_MULTIPART_AZURE_GIB GiB (default 1) of
 * the file, its rate compared with the same raw rate.
 */
export async function runMultipartBench(
  gib = Number(process.env.BENCH_MULTIPART_GIB ?? 20),
  stores: BenchStore[] = (process.env.BENCH_MULTIPART_STORES ?? 'local,s3,azure').split(',') as BenchStore[],
): Promise<MultipartBenchResult> {
  const bytes = Math.round(gib * 1024 * MiB);
  // At most two copies at once on the disk (the file and the raw copy, then the file and the store's), plus 2 GiB.
  const fsInfo = fs.statfsSync(os.tmpdir());
  const free = fsInfo.bavail * fsInfo.bsize;
  if (free < 2 * bytes + 2 * 1024 * MiB) {
    const skipped = `${(free / 1024 / 1024 / MiB).toFixed(1)} GiB free on ${os.tmpdir()}, ${((2 * bytes) / 1024 / MiB + 2).toFixed(1)} GiB needed (BENCH_MULTIPART_GIB=${gib})`;
    return { bytes, rawWriteMiBps: 0, rawCpuSecondsPerGiB: 0, rows: [], skipped };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-multipart-'));
  try {
    const source = path.join(dir, 'scan.e57');
    await generate(source, bytes);
    const raw = await rawWrite(source, path.join(dir, 'raw-copy'));
    fs.rmSync(path.join(dir, 'raw-copy'));
    const rawWriteMiBps = bytes / MiB / raw.seconds;
    const rows: MultipartBenchRow[] = [];
    for (const store of stores) {
      let file = source;
      let size = bytes;
      if (store === 'azure') {
        size = Math.min(bytes, Math.round(Number(process.env.BENCH_MULTIPART_AZURE_GIB ?? 1) * 1024 * MiB));
        if (size < bytes) {
          file = path.join(dir, 'azure-part.e57');
          await fs.promises.copyFile(source, file);
          await fs.promises.truncate(file, size);
        }
      }
      const row = await uploadRow(store, file, size, rawWriteMiBps, dir);
      if (size < bytes) row.via += `: the first ${(size / 1024 / MiB).toFixed(1)} GiB of the file (BENCH_MULTIPART_AZURE_GIB), as it holds blobs in memory`;
      rows.push(row);
      if (file !== source) fs.rmSync(file);
    }
    return { bytes, rawWriteMiBps, rawCpuSecondsPerGiB: raw.cpuSeconds / (bytes / 1024 / MiB), rows };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printMultipartRow(r: MultipartBenchResult): void {
  const f = (n: number) => n.toFixed(1);
  if (r.skipped) {
    console.log(`multipart: skipped (${r.skipped})`);
    return;
  }
  console.log(`multipart: raw write + fsync of ${f(r.bytes / 1024 / MiB)} GiB ${f(r.rawWriteMiBps)} MiB/s, ${r.rawCpuSecondsPerGiB.toFixed(2)} CPU s/GiB (the baseline of every row)`);
  for (const row of r.rows) {
    const target = row.store === 'local' ? `, target ≥ ${MULTIPART_TARGET_RATIO}` : '';
    console.log(`multipart ${row.store} ${f(row.bytes / 1024 / MiB)} GiB (${row.via}; CLI --parallel 4 to the service): upload ${f(row.uploadMiBps)} MiB/s `
      + `(ratio ${row.ratio.toFixed(2)}${target}), RSS growth client ${f(row.clientRssGrowthMiB)} MiB, server ${f(row.serverRssGrowthMiB)} MiB `
      + `(target < ${MULTIPART_RSS_TARGET_MIB}), CPU s/GiB client ${row.clientCpuSecondsPerGiB.toFixed(2)}, server ${row.serverCpuSecondsPerGiB.toFixed(2)}, `
      + `server full GCs/GiB ${f(row.serverFullGcsPerGiB)}, load ${row.load.map((l) => l.toFixed(1)).join(' → ')}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  printMultipartRow(await runMultipartBench());
}
