// The large-file rows of issue 30: a file of BENCH_MULTIPART_GIB GiB (default 20; generated
// on the temporary directory's disk, deleted after) uploaded by the CLI (`scanbase upload
// --parallel 4`, multipart: 16 MiB parts) to the service (a started server, PGlite), one row
// per store (BENCH_MULTIPART_STORES, default local,s3,azure): the local disk (each part
// written at its offset of one file, the whole MD5 hashed in order as parts land), S3 through
// s3rver and Azure through Azurite as the storage contract suite runs them; each against a
// raw write + fsync of the same bytes to the same disk in the same run. Also the client's and
// the server's peak RSS growth over their baselines (sampled from /proc every 200 ms).
// Targets (printed, never asserted): local disk ≥ 0.8 of the raw write; RSS growth < 128 MiB
// each. Long (minutes for 20 GiB): `npm run bench` runs it only with BENCH_MULTIPART=1;
// alone: `npx tsx bench/multipart.ts`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processMemory } from './measure.ts';
import { startSdkWorld } from '../packages/sdk/test/support/server.ts';
import { startAzurite, startS3rver } from '../test/storage/emulators.ts';
import { NODE_ARGS as CLI } from '../packages/cli/test/support/run.ts';

const MiB = 1024 * 1024;
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
}

export interface MultipartBenchResult {
  bytes: number;
  rawWriteMiBps: number;
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
  const profile = (name: string) => (profDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(profDir)} --cpu-prof-name=${name}-${store}.cpuprofile` } : {});
  const world = await startSdkWorld({ ...backing.env, MALLOC_ARENA_MAX: '2', ...profile('server') });
  try {
    const env = { ...process.env, SCANBASE_CONFIG_DIR: path.join(dir, `config-${store}`), SCANBASE_PROFILE: '', SCANBASE_BASE_URL: '', MALLOC_ARENA_MAX: '2' };
    const pair = await world.operator('POST', '/tokens', { email: world.owner.email });
    await run(process.execPath, [...CLI, 'login', '--with-token', '--base-url', world.url], env, undefined, JSON.stringify({
      access_token: pair.access_token, refresh_token: pair.refresh_token, expires_in: 86400, token_type: 'Bearer', user_id: pair.user_id,
    }));
    const serverRss = watchRss(world.server.child.pid!);
    let clientRss = () => 0;
    const started = performance.now();
    await run(process.execPath, [
      ...CLI, 'upload', '--account', world.accountId, '--project', world.projectId, '--zone', world.zoneId, '--parallel', '4', '--json', source,
    ], { ...env, ...profile('client') }, (pid) => (clientRss = watchRss(pid)));
    const seconds = (performance.now() - started) / 1000;
    const uploadMiBps = bytes / MiB / seconds;
    return {
      store, via: backing.via, bytes, uploadMiBps, ratio: uploadMiBps / rawMiBps, clientRssGrowthMiB: clientRss(), serverRssGrowthMiB: serverRss(),
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-multipart-'));
  try {
    const source = path.join(dir, 'scan.e57');
    await generate(source, bytes);
    const rawSeconds = await rawWrite(source, path.join(dir, 'raw-copy'));
    fs.rmSync(path.join(dir, 'raw-copy'));
    const rawWriteMiBps = bytes / MiB / rawSeconds;
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
      rows.push(await uploadRow(store, file, size, rawWriteMiBps, dir));
      if (file !== source) fs.rmSync(file);
    }
    return { bytes, rawWriteMiBps, rows };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printMultipartRow(r: MultipartBenchResult): void {
  const f = (n: number) => n.toFixed(1);
  console.log(`multipart: raw write + fsync of ${f(r.bytes / 1024 / MiB)} GiB ${f(r.rawWriteMiBps)} MiB/s (the baseline of every row)`);
  for (const row of r.rows) {
    const target = row.store === 'local' ? `, target ≥ ${MULTIPART_TARGET_RATIO}` : '';
    console.log(`multipart ${row.store} ${f(row.bytes / 1024 / MiB)} GiB (${row.via}; CLI --parallel 4 to the service): upload ${f(row.uploadMiBps)} MiB/s `
      + `(ratio ${row.ratio.toFixed(2)}${target}), RSS growth client ${f(row.clientRssGrowthMiB)} MiB, server ${f(row.serverRssGrowthMiB)} MiB `
      + `(target < ${MULTIPART_RSS_TARGET_MIB})`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  printMultipartRow(await runMultipartBench());
}
