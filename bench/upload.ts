// The files issue's storage measurement: a large upload and download through the local
// disk store's signed URL, against the real server (a child process), compared with a raw
// write of the same bytes to the same disk in the same run (write + fsync, like the
// server's). Also the server's peak RSS growth while it streams (sampled from /proc).
// Targets are reported, never asserted: upload and download ≥ 0.8 of the raw write,
// RSS growth < 64 MiB.
//
// The raw write's speed on a virtual machine depends on the state of the guest's memory
// (the first write into memory the host has not yet backed runs several times slower than
// the next), so one sample of each is noise: the bench runs ROUNDS rounds of raw write,
// upload and download, interleaved, and compares medians. It also prints the speed of MD5
// on one core over the same bytes: the upload must hash every byte, so where the disk (or
// the page cache in front of it) is faster than that, no upload reaches the raw write.
//
// The bench signs the URLs itself with the deployment's key: it creates the database
// (migrations make the key) before starting the server on it, and reads the key back.
//
// The SDK issue's measurement, in the same rounds: curl's PUT of the file to a signed URL,
// and the SDK's (putFile, what uploadFiles sends, in a child process of its own) to another
// signed URL of the same server. Targets: the SDK ≥ 0.8 of curl, the SDK process's peak RSS
// growth over its baseline < 64 MiB. Each uploaded object is deleted once measured.
//
// Environment: BENCH_UPLOAD_MIB (1024), BENCH_UPLOAD_ROUNDS (3), BENCH_UPLOAD=0 to skip.
// Alone: `npx tsx bench/upload.ts`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { freePort, registerCleanup, startChild, cleanUpEverything } from './children.ts';
import { ROOT } from './servers.ts';
import { median, processMemory } from './measure.ts';
import { openPglite } from '../src/adapters/postgres/pglite.ts';
import { migrate } from '../src/adapters/postgres/migrate.ts';
import { LocalDiskStore } from '../src/adapters/storage/local-disk.ts';
import { SERVICE_PROCESS_ENV } from '../src/runtime-env.ts';

export const UPLOAD_TARGET_RATIO = 0.8;
export const RSS_TARGET_MIB = 64;

export interface UploadBenchResult {
  bytes: number;
  rounds?: number;
  /** Medians over the rounds. */
  rawWriteMiBps?: number;
  uploadMiBps?: number;
  curlMiBps?: number;
  sdkMiBps?: number;
  /** SDK / curl (medians). */
  sdkRatio?: number;
  /** The SDK process's peak RSS growth over its baseline, the largest of the rounds. */
  sdkRssPeakGrowthMiB?: number;
  downloadMiBps?: number;
  /** Every round's samples, in order. */
  samples?: { rawWriteMiBps: number; uploadMiBps: number; downloadMiBps: number; curlMiBps: number; sdkMiBps: number; sdkRssGrowthMiB: number }[];
  /** MD5 over the same bytes on one core (the upload's floor of work per byte). */
  md5MiBps?: number;
  uploadRatio?: number;
  downloadRatio?: number;
  rssBaselineMiB?: number;
  rssPeakGrowthMiB?: number;
  error?: string;
  skipped?: string;
}

const MiB = 1024 * 1024;
const CHUNK = 8 * MiB;

const rssOf = (pid: number) => processMemory(pid, 'VmRSS');

/** Samples a process's RSS every 20 ms until stopped; answers the peak. */
function sampleRss(pid: number) {
  let peak = rssOf(pid) ?? 0;
  const timer = setInterval(() => {
    const v = rssOf(pid);
    if (v !== null && v > peak) peak = v;
  }, 20);
  return () => {
    clearInterval(timer);
    const v = rssOf(pid);
    return Math.max(peak, v ?? 0);
  };
}


/** PUTs the file to a signed URL with its headers; answers MiB/s (throws unless 201). */
async function timeUpload(signed: { url: string; headers: Record<string, string> }, bytes: number, file: string, mib: number) {
  const u0 = process.hrtime.bigint();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(signed.url, { method: 'PUT', headers: { ...signed.headers, 'content-length': String(bytes) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    const src = fs.createReadStream(file, { highWaterMark: MiB });
    src.on('error', reject);
    src.pipe(req);
  });
  const seconds = Number(process.hrtime.bigint() - u0) / 1e9;
  if (status !== 201) throw new Error(`the upload answered ${status}`);
  return mib / seconds;
}

/** GETs a signed URL, counting the bytes; answers MiB/s (throws unless all arrived). */
async function timeDownload(url: string, bytes: number, mib: number) {
  const d0 = process.hrtime.bigint();
  const received = await new Promise<number>((resolve, reject) => {
    http
      .get(url, (res) => {
        if (res.statusCode !== 200) reject(new Error(`the download answered ${res.statusCode}`));
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  const seconds = Number(process.hrtime.bigint() - d0) / 1e9;
  if (received !== bytes) throw new Error(`the download answered ${received} bytes of ${bytes}`);
  return mib / seconds;
}

type Signed = { url: string; headers: Record<string, string> };

/** curl's PUT of the file (-T) with the signed headers; answers MiB/s (throws unless 201). */
function timeCurl(signed: Signed, file: string, mib: number): number {
  const headers = Object.entries(signed.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  // No "Expect: 100-continue" round trip: the SDK does not wait for one either.
  const r = spawnSync('curl', ['-sS', '-T', file, ...headers, '-H', 'Expect:', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', signed.url], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const [code, seconds] = r.stdout.trim().split(' ');
  if (r.status !== 0 || code !== '201') throw new Error(`curl answered ${code} (exit ${r.status}): ${r.stderr}`);
  return mib / Number(seconds);
}

/** The SDK's PUT in a child process; answers MiB/s and the child's peak RSS growth (bytes). */
async function timeSdk(signed: Signed, bytes: number, file: string, mib: number): Promise<{ mibps: number; rssGrowth: number }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/sdk-put-child.ts'), signed.url, JSON.stringify({ ...signed.headers, 'content-length': String(bytes), 'content-type': 'application/octet-stream' }), file], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  while (!out.includes('ready\n')) {
    if (child.exitCode !== null) throw new Error('the SDK child exited before it was ready');
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300));
  const baseline = rssOf(child.pid!) ?? 0;
  const stop = sampleRss(child.pid!);
  child.stdin.write('go\n');
  while (!out.trim().endsWith('}') && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  const peak = stop();
  if ((await exited) !== 0) throw new Error(`the SDK child failed: ${out}`);
  const r = JSON.parse(out.trim().split('\n').pop()!) as { status: number; seconds: number };
  if (r.status !== 201) throw new Error(`the SDK's upload answered ${r.status}`);
  return { mibps: mib / r.seconds, rssGrowth: Math.max(0, peak - baseline) };
}

export async function runUploadBench(): Promise<UploadBenchResult> {
  const mib = Number(process.env.BENCH_UPLOAD_MIB || 1024);
  const bytes = mib * MiB;
  if (process.env.BENCH_UPLOAD === '0') return { bytes, skipped: 'BENCH_UPLOAD=0' };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-upload-'));
  const cleanup = registerCleanup(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const result: UploadBenchResult = { bytes };
  try {
    // The database first: its migrations create the URL key the bench signs with.
    const sql = await openPglite(path.join(dataDir, 'pglite'));
    let key: string;
    try {
      await migrate(sql);
      const rows = await sql.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'storage.signing_key'`);
      key = rows[0]!.value;
    } finally {
      await sql.close();
    }

    // The payload and its MD5 (timed), and the raw write of it to the same disk (write + fsync).
    const block = crypto.randomBytes(CHUNK);
    const m0 = process.hrtime.bigint();
    const hash = crypto.createHash('md5');
    for (let n = 0; n < bytes; n += CHUNK) hash.update(block.subarray(0, Math.min(CHUNK, bytes - n)));
    const md5Hex = hash.digest('hex');
    result.md5MiBps = mib / (Number(process.hrtime.bigint() - m0) / 1e9);
    const rawFile = path.join(dataDir, 'raw-write.bin');
    const rawWrite = async (file: string): Promise<number> => {
      const t0 = process.hrtime.bigint();
      const fh = await fsp.open(file, 'w');
      for (let n = 0; n < bytes; n += CHUNK) await fh.write(block, 0, Math.min(CHUNK, bytes - n));
      await fh.sync();
      await fh.close();
      return mib / (Number(process.hrtime.bigint() - t0) / 1e9);
    };
    // The upload's source: written once, read by the client from the page cache.
    await rawWrite(rawFile);

    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const child = await startChild({
      name: 'Scanbase (upload bench, PGlite file, local disk)',
      args: [path.join(ROOT, 'src/main.ts')],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...SERVICE_PROCESS_ENV, // as npm start and the image run it
      },
      cwd: ROOT,
      port,
      ready: async (url) => {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        return res.ok;
      },
      timeoutMs: 120_000,
    });
    try {
      const signer = new LocalDiskStore({
        root: path.join(dataDir, 'bench-signer-unused'),
        publicUrl,
        clock: { now: () => new Date(), nowMs: () => Date.now() },
        signingKey: async () => Buffer.from(key, 'utf8'),
      });
      // Let the server settle, then measure its RSS growth over the transfers.
      await new Promise((r) => setTimeout(r, 1000));
      const baseline = rssOf(child.pid);
      const stopSampling = sampleRss(child.pid);
      const rounds = Math.max(1, Number(process.env.BENCH_UPLOAD_ROUNDS || 3));
      result.rounds = rounds;
      result.samples = [];
      for (let round = 0; round < rounds; round++) {
        const scratch = path.join(dataDir, `raw-write-${round}.bin`);
        const rawWriteMiBps = await rawWrite(scratch);
        fs.rmSync(scratch);
        const blob = `${crypto.randomUUID()}/bench-${mib}MiB.bin`;
        const signed = await signer.signUpload({ key: blob, size: bytes, md5Hex, expiresInSeconds: 3600 }, new Date());
        const uploadMiBps = await timeUpload(signed, bytes, rawFile, mib);
        const url = await signer.signDownload({ key: blob, contentType: 'application/octet-stream', expiresInSeconds: 3600 }, new Date());
        const downloadMiBps = await timeDownload(url, bytes, mib);
        // curl and the SDK, each to a signed URL of its own, in alternating order.
        const sign = async () => {
          const prefix = crypto.randomUUID();
          return { prefix, signed: await signer.signUpload({ key: `${prefix}/bench-${mib}MiB.bin`, size: bytes, md5Hex, expiresInSeconds: 3600 }, new Date()) };
        };
        const drop = (prefix: string) => fs.rmSync(path.join(dataDir, 'blobs', prefix), { recursive: true, force: true });
        drop(blob.slice(0, blob.indexOf('/')));
        let curlMiBps = 0;
        let sdk = { mibps: 0, rssGrowth: 0 };
        for (const which of round % 2 ? ['sdk', 'curl'] : ['curl', 'sdk']) {
          const { prefix, signed: s } = await sign();
          if (which === 'curl') curlMiBps = timeCurl(s, rawFile, mib);
          else sdk = await timeSdk(s, bytes, rawFile, mib);
          drop(prefix);
        }
        result.samples.push({ rawWriteMiBps, uploadMiBps, downloadMiBps, curlMiBps, sdkMiBps: sdk.mibps, sdkRssGrowthMiB: sdk.rssGrowth / MiB });
      }
      result.rawWriteMiBps = median(result.samples.map((x) => x.rawWriteMiBps));
      result.uploadMiBps = median(result.samples.map((x) => x.uploadMiBps));
      result.downloadMiBps = median(result.samples.map((x) => x.downloadMiBps));
      result.curlMiBps = median(result.samples.map((x) => x.curlMiBps));
      result.sdkMiBps = median(result.samples.map((x) => x.sdkMiBps));
      result.sdkRatio = result.sdkMiBps / result.curlMiBps;
      result.sdkRssPeakGrowthMiB = Math.max(...result.samples.map((x) => x.sdkRssGrowthMiB));

      const peak = stopSampling();
      if (baseline !== null) {
        result.rssBaselineMiB = baseline / MiB;
        result.rssPeakGrowthMiB = Math.max(0, peak - baseline) / MiB;
      }
      result.uploadRatio = result.uploadMiBps / result.rawWriteMiBps;
      result.downloadRatio = result.downloadMiBps / result.rawWriteMiBps;
    } finally {
      await child.stop();
    }
  } catch (e) {
    result.error = e instanceof Error ? e.message : String(e);
  } finally {
    await cleanup();
  }
  return result;
}

export function printUploadTable(r: UploadBenchResult): void {
  const f = (n: number | undefined, d = 0) => (n === undefined ? '-' : n.toFixed(d));
  const mark = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? '  ok' : '  BELOW TARGET');
  console.log(`\nLocal-disk signed URL, ${f(r.bytes / MiB)} MiB through the real server (targets reported, not asserted)`);
  if (r.skipped) return void console.log(`  skipped: ${r.skipped}`);
  if (r.error) console.log(`  error: ${r.error}`);
  const each = (k: 'rawWriteMiBps' | 'uploadMiBps' | 'downloadMiBps' | 'curlMiBps' | 'sdkMiBps') =>
    r.samples && r.samples.length > 1 ? `  (median of ${r.samples.map((x) => f(x[k])).join(', ')})` : '';
  console.log(`  MD5 alone, one core          : ${f(r.md5MiBps)} MiB/s  (every uploaded byte is hashed: an upload cannot beat this)`);
  console.log(`  raw write + fsync, same disk : ${f(r.rawWriteMiBps)} MiB/s${each('rawWriteMiBps')}`);
  console.log(
    `  upload (PUT, MD5, fsync)     : ${f(r.uploadMiBps)} MiB/s  ratio ${f(r.uploadRatio, 2)} (target >= ${UPLOAD_TARGET_RATIO})` +
      mark(r.uploadRatio === undefined ? undefined : r.uploadRatio >= UPLOAD_TARGET_RATIO) + each('uploadMiBps'),
  );
  console.log(
    `  download (GET)               : ${f(r.downloadMiBps)} MiB/s  ratio ${f(r.downloadRatio, 2)} (target >= ${UPLOAD_TARGET_RATIO})` +
      mark(r.downloadRatio === undefined ? undefined : r.downloadRatio >= UPLOAD_TARGET_RATIO) + each('downloadMiBps'),
  );
  console.log(`  curl PUT (same server)       : ${f(r.curlMiBps)} MiB/s${each('curlMiBps')}`);
  console.log(
    `  SDK PUT (putFile)            : ${f(r.sdkMiBps)} MiB/s  ratio to curl ${f(r.sdkRatio, 2)} (target >= ${UPLOAD_TARGET_RATIO})` +
      mark(r.sdkRatio === undefined ? undefined : r.sdkRatio >= UPLOAD_TARGET_RATIO) + each('sdkMiBps'),
  );
  console.log(
    `  SDK process peak RSS growth  : ${f(r.sdkRssPeakGrowthMiB, 1)} MiB (target < ${RSS_TARGET_MIB} MiB)` +
      mark(r.sdkRssPeakGrowthMiB === undefined ? undefined : r.sdkRssPeakGrowthMiB < RSS_TARGET_MIB),
  );
  console.log(
    `  server peak RSS growth       : ${f(r.rssPeakGrowthMiB, 1)} MiB over ${f(r.rssBaselineMiB)} MiB (target < ${RSS_TARGET_MIB} MiB)` +
      mark(r.rssPeakGrowthMiB === undefined ? undefined : r.rssPeakGrowthMiB < RSS_TARGET_MIB),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runUploadBench()
    .then(async (r) => {
      printUploadTable(r);
      await cleanUpEverything();
      process.exit(r.error ? 1 : 0);
    })
    .catch(async (e: unknown) => {
      console.error('bench: upload failed:', e);
      await cleanUpEverything();
      process.exit(1);
    });
}
