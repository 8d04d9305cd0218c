// The snapshot row of `npm run bench` (issue 32): the restore of a project with 100,000 tags
// and 100 files on PGlite (target ≤ 2 s), and its save. In process: the engine is an
// adapter (src/adapters/snapshots) with no route yet, so a node is composed here on PGlite
// on disk (as `npm start` runs it: the restore takes the data-directory path) and a
// local-disk store in a temporary directory, filled through its own API (app.inject: bulk
// tag creates, signed uploads), saved once and restored RUNS times.
// Alone: `npx tsx bench/snapshots.ts`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { compose } from '../src/compose.ts';
import { buildApp } from '../src/http/app.ts';
import { openPglite } from '../src/adapters/postgres/pglite.ts';
import { createSnapshots } from '../src/adapters/snapshots/snapshots.ts';
import { median } from './measure.ts';

export const SNAPSHOT_TAGS = 100_000;
export const SNAPSHOT_FILES = 100;
const FILE_BYTES = 64 * 1024;
const RUNS = 3;
const PAUSE_MS = 3000;
const TARGET_MS = 2000;

export interface SnapshotBenchResult {
  engine: 'pglite';
  tags: number;
  files: number;
  snapshotBytes?: number;
  saveMs?: number;
  restoreMs?: number[];
  restoreMedianMs?: number;
  /** How each restore put the database back: `data-directory` (PGlite on disk, the fast path) or `copy`. */
  restoredBy?: string[];
  /** Each restore step's median (ms): where the time goes (manifest, database, events, blobs). */
  restoreStepsMs?: Record<string, number>;
  /** The machine's 1-minute load average at the start and end of the restores (it is shared). */
  loadAverage?: [number, number];
  target: number;
  error?: string;
}

const OPERATOR = 'bench-operator-token-of-24-chars+';

export async function runSnapshotBench(): Promise<SnapshotBenchResult> {
  const out: SnapshotBenchResult = { engine: 'pglite', tags: SNAPSHOT_TAGS, files: SNAPSHOT_FILES, target: TARGET_MS };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-snapshots-'));
  // On disk, as `npm start` keeps it (DATA_DIR/pglite); the in-memory engine is for tests.
  const sql = await openPglite(path.join(tmp, 'pglite'));
  const core = await compose(loadConfig({ OPERATOR_TOKEN: OPERATOR, DATA_DIR: tmp, PUBLIC_URL: 'http://localhost:8080' }), { sql });
  const app = await buildApp(core);
  let snapshots: ReturnType<typeof createSnapshots> | undefined;
  try {
    const inject = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const res = await app.inject({ method, url, payload: payload as object, headers });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.body ? JSON.parse(res.body) : null;
    };
    const op = { authorization: `Bearer ${OPERATOR}` };
    const seeded = await inject('POST', '/_operator/seed', {
      users: [{ email: 'bench@snapshots.test', password: 'bench-password-1', firstName: 'Bench', lastName: 'User' }],
      accounts: [{ name: 'Bench', owner: 'bench@snapshots.test', projectManagers: ['bench@snapshots.test'], subscriptions: [{ name: 'Pro', scanCapacity: 500, tagCapacity: 200_000, geoImageCapacity: 500 }] }],
    }, op);
    const account = seeded.accounts[0].id as string;
    const token = (await inject('POST', '/_operator/tokens', { email: 'bench@snapshots.test' }, op)).access_token as string;
    const auth = { authorization: `Bearer ${token}` };
    const A = `/api/2/accounts/${account}`;
    const subs = await inject('GET', `${A}/subscriptions`, undefined, auth);
    const project = await inject('POST', `${A}/projects`, { name: 'Snapshot bench', subscriptionId: subs[0].id }, auth);
    const P = `${A}/projects/${project.id}`;
    // A list holds at most 50,000 tags: two full lists.
    let list = { id: '' };
    for (let k = 0; k < SNAPSHOT_TAGS / 10_000; k++) {
      if (k % 5 === 0) list = await inject('POST', `${P}/tag-lists`, { workzoneId: project.rootWorkzoneId, tagListType: '3d', name: `Bench list ${k / 5 + 1}` }, auth);
      const create = Array.from({ length: 10_000 }, (_, j) => {
        const i = k * 10_000 + j;
        return { data: { id: `T-${i}`, name: `Tag ${i}`, class: 'valve', nature: 'manual', orientedBoundingBox: [i % 500, Math.floor(i / 500), 1.5, 0, 0, Math.SQRT1_2, Math.SQRT1_2, 0.4, 0.6, 0.8] } };
      });
      await inject('POST', `${P}/tag-lists/${list.id}/tags/bulk`, { create }, auth);
    }
    const contents = Array.from({ length: SNAPSHOT_FILES }, () => crypto.randomBytes(FILE_BYTES));
    const items = contents.map((c, i) => ({ name: `Scan ${i}`, extension: 'e57', size: c.length, md5: crypto.createHash('md5').update(c).digest('hex') }));
    const bulk = `${P}/workzones/${project.rootWorkzoneId.slice(project.rootWorkzoneId.lastIndexOf(':') + 1)}/bulk-files`;
    const signed = await inject('POST', bulk, items, auth);
    // The signed PUTs go through a socket, as a client's do (the blob route reads the connection).
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    for (const [i, f] of (signed.files as { url: string }[]).entries()) {
      const u = new URL(f.url);
      const res = await fetch(origin + u.pathname + u.search, {
        method: 'PUT', body: new Uint8Array(contents[i]!),
        headers: {
          'content-md5': crypto.createHash('md5').update(contents[i]!).digest('base64'), 'cache-control': 'max-age=2592000',
          'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream',
        },
      });
      if (res.status >= 300) throw new Error(`PUT ${u.pathname}: ${res.status} ${await res.text()}`);
    }
    await inject('PUT', bulk, (signed.files as { blobName: string }[]).map((f, i) => ({ ...items[i], blobName: f.blobName })), auth);

    const steps: Record<string, number[]> = {};
    snapshots = createSnapshots({
      sql, store: core.store, objectStore: core.objectStore, clock: core.clock, dir: path.join(tmp, 'snapshots'),
      onRestoreStep: (step, ms) => (steps[step] ??= []).push(ms),
    });
    let t0 = performance.now();
    const info = await snapshots.save('bench');
    out.saveMs = Math.round(performance.now() - t0);
    out.snapshotBytes = info.bytes;
    if (info.tables.find((t) => t.name === 'tags')?.rows !== SNAPSHOT_TAGS || info.blobs.count !== SNAPSHOT_FILES) {
      throw new Error(`the snapshot holds ${JSON.stringify(info.tables.find((t) => t.name === 'tags'))} and ${info.blobs.count} blobs`);
    }
    out.restoreMs = [];
    out.restoredBy = [];
    const load0 = os.loadavg()[0]!;
    for (let r = 0; r < RUNS; r++) {
      // A pause between runs, as between the tests of a suite: the spare copy of the data
      // directory a restore uses is made again in the background (the next restore waits for it).
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      t0 = performance.now();
      const restored = await snapshots.restore('bench');
      out.restoreMs.push(Math.round(performance.now() - t0));
      out.restoredBy.push(restored.restoredBy ?? 'copy');
    }
    out.loadAverage = [Math.round(load0 * 10) / 10, Math.round(os.loadavg()[0]! * 10) / 10];
    out.restoreMedianMs = median([...out.restoreMs].sort((a, b) => a - b));
    out.restoreStepsMs = Object.fromEntries(Object.entries(steps).map(([step, ms]) => [step, Math.round(median(ms))]));
    const files = await inject('GET', `${P}/files`, undefined, auth);
    if (files.length !== SNAPSHOT_FILES) throw new Error(`after the restore the project has ${files.length} files`);
  } catch (e) {
    out.error = (e as Error).message;
  } finally {
    await snapshots?.settled();
    await app.close();
    await core.close();
    await sql.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

export function printSnapshotRow(r: SnapshotBenchResult): void {
  console.log(`\nSnapshots: restore of a project with ${r.tags.toLocaleString('en')} tags and ${r.files} files of ${FILE_BYTES / 1024} KiB (${r.engine}, local disk; target ≤ ${r.target} ms)`);
  console.log(['engine', 'snapshot (MB)', 'save (ms)', `restore (ms, median of ${RUNS})`, 'runs (ms)', 'restored by', 'load average'].join(' | '));
  if (r.error) return void console.log(`${r.engine} | error: ${r.error}`);
  console.log([
    r.engine, ((r.snapshotBytes ?? 0) / 1e6).toFixed(1), r.saveMs,
    `${r.restoreMedianMs}${r.restoreMedianMs! <= r.target ? '' : ' (above target)'}`, r.restoreMs!.join(' / '),
    [...new Set(r.restoredBy)].join(', '), r.loadAverage?.join(' → ') ?? '',
  ].join(' | '));
  if (r.restoreStepsMs) console.log(`restore steps (ms, medians; queued: waiting for the spare copy the restore before it made again): ${Object.entries(r.restoreStepsMs).map(([step, ms]) => `${step} ${ms}`).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runSnapshotBench();
  printSnapshotRow(r);
  process.exitCode = r.error ? 1 : 0;
}
