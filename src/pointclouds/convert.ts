// Converts a point-cloud file (E57, LAS, LAZ, PLY) to COPC, streaming, with bounded memory
// whatever the input's size, on every core (worker threads), and resumable: the work
// directory keeps a checkpoint after each pass and each indexed chunk, so a run killed at
// any point (kill -9 included) resumes where it stopped, and the output appears only whole
// (written beside it, then renamed).
//
// The passes, after PotreeConverter 2's counting sort (docs/point-clouds.md):
//  1. count: read the input once; points per cell of a 128³ grid over the cloud's cube, the
//     bounds, returns and GPS-time range; a raw LAS is counted a range per worker, inputs
//     that are costly to decode again (LAZ, PLY, E57) are decoded here and spilled to a raw
//     record file on the way;
//  2. plan and distribute: the grid's counts give chunks (octree nodes of at most
//     maxChunkPoints points); a second read, a range of the input (or its spill) per
//     worker, appends each point to its chunk's segment of that range (range-passes.ts);
//  3. index: each chunk's subtree is built and LAZ-encoded in a worker; its root's points
//     stay raw;
//  4. upper levels: the nodes above the chunks sample from the chunks' roots;
//  5. write: the COPC file is assembled from the work files.
import fs from 'node:fs/promises';
import fssync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCopcFile, type NodeSource } from './copc-writer.ts';
import { PointCloudError } from './errors.ts';
import { loadLazEncoder } from './laz/chunk-encoder.ts';
import {
  CellBits, cubeOf, GRID, isAncestorOrSelf, keyString, normalizedCoordinates, parentKey, shuffledOrder, type Cube, type NodeKey,
} from './octree.ts';
import { openPointCloud } from './readers/open.ts';
import { DeclaredBoundsExceeded, type InputFormat, type PointCloudReader } from './readers/reader.ts';
import { copyRecord, RECORD_SIZE, RecordSink, type Bounds, type Quantization } from './record.ts';
import {
  cellIndex, chunkSegmentFile, COUNT_CELLS, COUNT_LEVEL, emptyTally, mergeTally, tallyBatch, type DistributeTask, type RangeTask, type RecordSource, type Tally,
} from './range-passes.ts';
import type { ChunkResult } from './chunk-indexer.ts';
import { WorkerPool } from './worker-pool.ts';

export interface ConversionProgress {
  phase: 'counting' | 'distributing' | 'indexing' | 'writing' | 'done';
  /** Points read from the input so far (the counting pass). */
  pointsRead: number;
  /** Points in the input (the header's count until the count pass ends, then the count read). */
  pointsTotal: number;
  /** Of the whole conversion, 0–100. */
  percent: number;
  /** Seconds left at the rate so far; null until there is a rate. */
  etaSeconds: number | null;
}

export interface ConvertOptions {
  input: string;
  /** Default: from the extension. */
  format?: InputFormat;
  /** The COPC file to write (conventionally *.copc.laz). */
  output: string;
  /** Checkpoints and temporary files; kept across a crash, removed on success. Default: `<output>.work`. */
  workDir?: string;
  /** Worker threads (default: the machine's available parallelism). */
  workers?: number;
  /**
   * Each worker's old generation, MiB (default: V8's). The points are in typed arrays,
   * outside the JS heap: this bounds how long freed ones wait where V8 counts external
   * memory in its global limit (GC_COUNT_EXTERNAL_MEMORY, src/main.ts).
   */
  workerOldGenerationMb?: number;
  onProgress?: (p: ConversionProgress) => void;
  signal?: AbortSignal;
  /** Points per chunk (a worker holds one chunk, ~150 bytes a point). Default 1,000,000. */
  maxChunkPoints?: number;
  /** A node with at most this many points is a leaf. Default 100,000. */
  maxNodePoints?: number;
}

export interface ConversionResult {
  output: string;
  format: InputFormat;
  pointCount: number;
  bounds: Bounds;
  nodes: number;
  bytes: number;
  seconds: number;
  /** True when the run continued from a checkpoint. */
  resumed: boolean;
}

// 2: a chunk is a list of segment files (distributed by every worker).
const STATE_VERSION = 2;
const PHASE_SHARE = { counting: [0, 20], distributing: [20, 35], indexing: [35, 95], writing: [95, 100] } as const;

interface Counted {
  pointCount: number;
  bounds: Bounds;
  cube: Cube;
  quantization: Quantization;
  pointsByReturn: number[];
  gpsTime: { min: number; max: number };
  hasColor: boolean;
  wkt?: string;
  /** Raw record spill of the input (absent when the input itself is read again). */
  spill?: string;
  gpsTimeStandard: boolean;
}

interface PlannedChunk {
  key: NodeKey;
  count: number;
  /** Its segment files, in input order (range-passes.ts). */
  files: string[];
}

interface State {
  version: number;
  fingerprint: string;
  counted?: Counted;
  chunks?: PlannedChunk[];
}

/** Writes a file whole or not at all (temporary name, fsync, rename). */
async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.tmp`;
  const fh = await fs.open(tmp, 'w');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fs.rename(tmp, file);
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

class Progress {
  private readonly started = Date.now();
  private last = 0;
  pointsRead = 0;
  pointsTotal: number;
  private readonly onProgress: ((p: ConversionProgress) => void) | undefined;
  constructor(total: number, onProgress?: (p: ConversionProgress) => void) {
    this.pointsTotal = total;
    this.onProgress = onProgress;
  }
  report(phase: ConversionProgress['phase'], fraction: number, force = false): void {
    if (!this.onProgress) return;
    const now = Date.now();
    if (!force && now - this.last < 200) return;
    this.last = now;
    const [from, to] = phase === 'done' ? [100, 100] : PHASE_SHARE[phase];
    const percent = Math.min(100, from + (to - from) * Math.min(1, Math.max(0, fraction)));
    const elapsed = (now - this.started) / 1000;
    const etaSeconds = percent >= 1 && percent < 100 ? Math.round((elapsed / percent) * (100 - percent)) : percent >= 100 ? 0 : null;
    this.onProgress({ phase, pointsRead: this.pointsRead, pointsTotal: this.pointsTotal, percent: Math.round(percent * 10) / 10, etaSeconds });
  }
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('conversion aborted');
}

/** `total` points as `parts` contiguous ranges (the first ones one point shorter at most). */
function splitRanges(total: number, parts: number): { first: number; count: number }[] {
  return Array.from({ length: parts }, (_, i) => {
    const first = Math.floor((total * i) / parts);
    return { first, count: Math.floor((total * (i + 1)) / parts) - first };
  });
}

/**
 * Runs `work` on `total` points split into one range per worker (at most one range per
 * point), in the pool; `onPoints` gets the points the ranges have done together. An abort
 * stops the workers (the pool's flag), whose requests then fail: the abort's reason is then
 * the error.
 */
async function byRanges<T>(
  pool: WorkerPool,
  total: number,
  signal: AbortSignal | undefined,
  onPoints: (points: number) => void,
  work: (range: { first: number; count: number }, index: number, onRangePoints: (points: number) => void) => Promise<T>,
): Promise<T[]> {
  const ranges = splitRanges(total, Math.max(1, Math.min(pool.size, total)));
  const done = new Array<number>(ranges.length).fill(0);
  try {
    return await Promise.all(
      ranges.map((range, i) =>
        work(range, i, (points) => {
          done[i] = points;
          onPoints(done.reduce((s, n) => s + n, 0));
        }),
      ),
    );
  } catch (e) {
    throwIfAborted(signal);
    throw e;
  }
}

/** Decodes the input once, in file order, on this thread, to the spill the later reads read; answers its tally. */
async function spillPass(reader: PointCloudReader, spill: string, progress: Progress, signal: AbortSignal | undefined): Promise<Tally> {
  const { quantization, bounds, pointCount } = reader.info;
  const cube = cubeOf(bounds.min, bounds.max);
  const tally = emptyTally();
  const spillFh = await fs.open(spill, 'w');
  try {
    for await (const batch of reader.batches()) {
      throwIfAborted(signal);
      tallyBatch(tally, batch, quantization, cube);
      await spillFh.write(batch.bytes, 0, batch.count * RECORD_SIZE);
      progress.pointsRead = tally.count;
      progress.report('counting', pointCount ? Math.min(1, tally.count / pointCount) : 0);
    }
    await spillFh.sync();
  } finally {
    await spillFh.close();
  }
  return tally;
}

/** Tallies a source read by range, a range per worker, and adds the tallies up; `onPoints` gets the points done. */
async function countByRanges(
  pool: WorkerPool,
  task: Omit<RangeTask, 'first' | 'count'>,
  total: number,
  signal: AbortSignal | undefined,
  onPoints: (points: number) => void = () => undefined,
): Promise<Tally> {
  const tallies = await byRanges(pool, total, signal, onPoints, (range, _, onRangePoints) => pool.count({ ...task, ...range }, onRangePoints));
  for (const t of tallies.slice(1)) mergeTally(tallies[0]!, t);
  return tallies[0]!;
}

async function countPass(
  reader: PointCloudReader,
  input: string,
  workDir: string,
  pool: WorkerPool,
  progress: Progress,
  signal?: AbortSignal,
): Promise<{ counted: Counted; histogram: Uint32Array }> {
  // A reader that reads by range is read again by the workers; the others are spilled.
  const spill = reader.rangeBatches ? undefined : path.join(workDir, 'spill.bin');
  let tally: Tally;
  if (!spill) {
    const info = reader.info;
    tally = await countByRanges(pool, { source: { input, format: reader.format }, cube: cubeOf(info.bounds.min, info.bounds.max), quantization: info.quantization }, info.pointCount, signal, (points) => {
      progress.pointsRead = points;
      progress.report('counting', points / info.pointCount);
    });
  } else {
    try {
      tally = await spillPass(reader, spill, progress, signal);
    } catch (e) {
      if (!(e instanceof DeclaredBoundsExceeded && reader.measure)) throw e;
      // The file's declared bounds were wrong: measured (a pass more), then spilled again.
      await reader.measure();
      tally = await spillPass(reader, spill, progress, signal);
    }
  }
  const info = reader.info;
  const q = info.quantization;
  const headerBounds = info.bounds;
  let cube = cubeOf(headerBounds.min, headerBounds.max);
  const { bounds, pointsByReturn, gps, count } = tally;
  let histogram = tally.histogram;
  if (count === 0) throw new PointCloudError('empty', `the ${reader.format.toUpperCase()} file has no points`);
  const slack = (i: number) => q.scale[i]! * 2;
  const outside = [0, 1, 2].some((i) => bounds.min[i]! < headerBounds.min[i]! - slack(i) || bounds.max[i]! > headerBounds.max[i]! + slack(i));
  const loose = [0, 1, 2].some((i) => bounds.max[i]! - bounds.min[i]! < (headerBounds.max[i]! - headerBounds.min[i]!) / 2);
  if (outside || loose || !Number.isFinite(cube.size)) {
    // The header's bounds were wrong (or far too wide): count again over the measured ones.
    cube = cubeOf(bounds.min, bounds.max);
    const source: RecordSource = spill ? { spill } : { input, format: reader.format };
    histogram = (await countByRanges(pool, { source, cube, quantization: q }, count, signal)).histogram;
  }
  progress.pointsTotal = count;
  if (gps.min > gps.max) gps.min = gps.max = 0;
  return {
    counted: {
      pointCount: count,
      bounds,
      cube,
      quantization: q,
      pointsByReturn,
      gpsTime: gps,
      hasColor: info.hasColor,
      gpsTimeStandard: info.gpsTimeStandard ?? false,
      ...(info.wkt ? { wkt: info.wkt } : {}),
      ...(spill ? { spill } : {}),
    },
    histogram,
  };
}

/**
 * Chunks from the counting grid: from the root down, a node with at most `maxChunk`
 * points (or a level-7 cell, whatever its count) is a chunk.
 */
export function planChunks(histogram: Uint32Array, maxChunk: number): { key: NodeKey; count: number }[] {
  const levels: Float64Array[] = [];
  levels[COUNT_LEVEL] = Float64Array.from(histogram);
  for (let d = COUNT_LEVEL - 1; d >= 0; d--) {
    const n = 1 << d;
    const child = levels[d + 1]!;
    const cur = new Float64Array(n * n * n);
    for (let x = 0; x < 2 * n; x++)
      for (let y = 0; y < 2 * n; y++)
        for (let z = 0; z < 2 * n; z++) cur[((x >> 1) * n + (y >> 1)) * n + (z >> 1)]! += child[(x * 2 * n + y) * 2 * n + z]!;
    levels[d] = cur;
  }
  const chunks: { key: NodeKey; count: number }[] = [];
  const visit = (k: NodeKey) => {
    const n = 1 << k.d;
    const count = levels[k.d]![(k.x * n + k.y) * n + k.z]!;
    if (count === 0) return;
    if (count <= maxChunk || k.d === COUNT_LEVEL) {
      chunks.push({ key: k, count });
      return;
    }
    for (let o = 0; o < 8; o++) visit({ d: k.d + 1, x: k.x * 2 + (o & 1), y: k.y * 2 + ((o >> 1) & 1), z: k.z * 2 + ((o >> 2) & 1) });
  };
  visit({ d: 0, x: 0, y: 0, z: 0 });
  return chunks;
}

/**
 * Splits the input (or its spill) into one range per worker; each worker appends its
 * range's points to its own segment of each chunk (range-passes.ts). The segments of a chunk,
 * in range order, hold its points in input order.
 */
async function distributePass(
  options: ConvertOptions,
  format: InputFormat,
  counted: Counted,
  planned: { key: NodeKey; count: number }[],
  workDir: string,
  pool: WorkerPool,
  progress: Progress,
  signal?: AbortSignal,
): Promise<PlannedChunk[]> {
  const chunkOfCell = new Int32Array(COUNT_CELLS ** 3).fill(-1);
  planned.forEach((c, i) => {
    const span = 1 << (COUNT_LEVEL - c.key.d);
    for (let x = c.key.x * span; x < (c.key.x + 1) * span; x++)
      for (let y = c.key.y * span; y < (c.key.y + 1) * span; y++)
        for (let z = c.key.z * span; z < (c.key.z + 1) * span; z++) chunkOfCell[cellIndex(x, y, z)] = i;
  });
  const source: RecordSource = counted.spill ? { spill: counted.spill } : { input: options.input, format };
  const total = counted.pointCount;
  const onPoints = (points: number) => progress.report('distributing', points / total);
  const results = await byRanges(pool, total, signal, onPoints, (range, segment, onRangePoints) => {
    const task: DistributeTask = { source, ...range, cube: counted.cube, quantization: counted.quantization, chunkOfCell, chunks: planned.length, workDir, segment };
    return pool.distribute(task, onRangePoints);
  });
  const chunks = planned.map((c, i) => {
    const files: string[] = [];
    let written = 0;
    results.forEach((r, segment) => {
      if (!r.written[i]) return;
      files.push(chunkSegmentFile(workDir, i, segment));
      written += r.written[i]!;
    });
    if (written !== c.count) throw new Error(`distribution: chunk ${keyString(c.key)} got ${written} points, the count pass saw ${c.count} (the input changed?)`);
    return { ...c, files };
  });
  if (counted.spill) await fs.rm(counted.spill, { force: true });
  return chunks;
}

interface ChunkDone extends ChunkResult {
  rootFile: string;
  outFile: string;
}

async function indexPass(
  counted: Counted,
  chunks: PlannedChunk[],
  workDir: string,
  options: Required<Pick<ConvertOptions, 'maxChunkPoints' | 'maxNodePoints'>>,
  pool: WorkerPool,
  progress: Progress,
  signal?: AbortSignal,
): Promise<ChunkDone[]> {
  const results: (ChunkDone | undefined)[] = new Array(chunks.length);
  let indexed = 0;
  const todo: number[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const done = await readJson<ChunkDone>(path.join(workDir, `chunk-${i}.done.json`));
    if (done) {
      results[i] = done;
      indexed += chunks[i]!.count;
    } else todo.push(i);
  }
  todo.sort((a, b) => chunks[b]!.count - chunks[a]!.count);
  let failure: unknown = null;
    await Promise.all(
      todo.map(async (i) => {
        const chunk = chunks[i]!;
        const outFile = path.join(workDir, `chunk-${i}.nodes`);
        const rootFile = path.join(workDir, `chunk-${i}.root`);
        if (failure || signal?.aborted) return;
        try {
          const result = await pool.index({
            chunkFiles: chunk.files,
            count: chunk.count,
            key: chunk.key,
            root: counted.cube,
            quantization: counted.quantization,
            format: counted.hasColor ? 7 : 6,
            maxNodePoints: options.maxNodePoints,
            maxInMemory: options.maxChunkPoints,
            outFile,
            rootFile,
          });
          const done: ChunkDone = { ...result, rootFile, outFile };
          await writeAtomic(path.join(workDir, `chunk-${i}.done.json`), JSON.stringify(done));
          for (const file of chunk.files) await fs.rm(file, { force: true });
          results[i] = done;
          indexed += chunk.count;
          progress.report('indexing', indexed / counted.pointCount);
        } catch (e) {
          failure ??= e;
        }
      }),
    );
  if (failure) throw failure;
  throwIfAborted(signal);
  return results as ChunkDone[];
}

function readFileRecords(file: string, count: number): Uint8Array {
  const bytes = fssync.readFileSync(file);
  if (bytes.length !== count * RECORD_SIZE) throw new Error(`${file}: ${bytes.length} bytes, expected ${count * RECORD_SIZE}`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/**
 * The nodes above the chunks, top-down: each samples its grid from the not-yet-taken
 * points of the chunk roots below it. Then the chunk roots keep what is left. Answers
 * the node sources of both (encoded into `upper.nodes`).
 */
async function upperPass(counted: Counted, chunks: PlannedChunk[], done: ChunkDone[], workDir: string, pool: WorkerPool): Promise<NodeSource[]> {
  const format: 6 | 7 = counted.hasColor ? 7 : 6;
  const upperFile = path.join(workDir, 'upper.nodes');
  const fh = await fs.open(upperFile, 'w');
  let position = 0;
  const sources: NodeSource[] = [];
  // The nodes are encoded in the pool while this thread picks the next ones, and written in
  // the order they were picked (the file's layout does not depend on which worker is first).
  // At most two per worker wait, so memory stays bounded whatever the number of chunks.
  const pending: { key: NodeKey; count: number; encoded: Promise<{ bytes: Uint8Array } | { error: unknown }> | null }[] = [];
  const writeOldest = async () => {
    const { key, count, encoded } = pending.shift()!;
    if (!encoded) {
      sources.push({ key, pointCount: 0 });
      return;
    }
    const outcome = await encoded;
    if ('error' in outcome) throw outcome.error;
    const { bytes } = outcome;
    await fh.write(bytes, 0, bytes.length, position);
    sources.push({ key, pointCount: count, file: upperFile, offset: position, bytes: bytes.length });
    position += bytes.length;
  };
  const append = async (key: NodeKey, records: Uint8Array, count: number) => {
    // Each outcome is kept, failed or not, until its turn: a failure is thrown in order, never left unhandled.
    const encoded =
      count === 0
        ? null
        : pool.encode(format, records, count).then(
            (bytes) => ({ bytes }),
            (error: unknown) => ({ error }),
          );
    pending.push({ key, count, encoded });
    if (pending.length >= 2 * pool.size) await writeOldest();
  };
  try {
    const upper = new Map<string, NodeKey>();
    for (const c of chunks) for (let k = c.key; k.d > 0; ) upper.set(keyString((k = parentKey(k))), k);
    const ordered = [...upper.values()].sort((a, b) => a.d - b.d || a.x - b.x || a.y - b.y || a.z - b.z);
    // The claims, one pass over each chunk root. Node by node (top-down, each over its chunks
    // in order, each chunk's points in its shuffled order) a point went to the first node
    // whose cell for it was free, its ancestors first; a node's cells are filled by the
    // points met before in that same order. Walking the points once, chunk after chunk, and
    // offering each to its ancestors top-down gives every node the same claims, so the output
    // is the same bytes; but a chunk root is read, shuffled and normalized once, not once per
    // ancestor (on the main thread, while the workers wait: the upper levels and the write of
    // a 100 M-point LAS took 5.3–5.4 s instead of 6.4–6.5).
    // `takenBy[i][p]`: the depth + 1 of the node that took point p of chunk i's root (0: none).
    const takenBy = done.map((d) => new Uint8Array(d.rootCount));
    const grids = new Map(ordered.map((k) => [keyString(k), new CellBits(k)]));
    for (let i = 0; i < chunks.length; i++) {
      const count = done[i]!.rootCount;
      if (!count) continue;
      // One node per depth, root first: `ordered` is by depth.
      const ancestors = ordered.filter((n) => isAncestorOrSelf(n, chunks[i]!.key));
      const cells = ancestors.map((n) => grids.get(keyString(n))!);
      const marks = ancestors.map((n) => n.d + 1);
      const records = readFileRecords(done[i]!.rootFile, count);
      // Claimed in a shuffled order (the first point met in a cell is a random one).
      const order = shuffledOrder(count, i + 1);
      const [xs, ys, zs] = normalizedCoordinates(records, count, counted.quantization, counted.cube, order);
      const t = takenBy[i]!;
      for (let k = 0; k < count; k++) {
        for (let a = 0; a < cells.length; a++) {
          if (!cells[a]!.claim(xs[k]!, ys[k]!, zs[k]!)) continue;
          t[order[k]!] = marks[a]!;
          break;
        }
      }
    }
    // Each node, in order, gathers what it took, chunk by chunk, in the root's order, which
    // is the input's (see chunk-indexer.ts). Copies, not views: a view would keep every chunk
    // root's buffer alive until the node is written.
    const mine = new Uint32Array(done.reduce((most, d) => Math.max(most, d.rootCount), 0));
    for (const node of ordered) {
      const mark = node.d + 1;
      const picked = new RecordSink(1 << 15);
      for (let i = 0; i < chunks.length; i++) {
        const count = done[i]!.rootCount;
        if (!count || !isAncestorOrSelf(node, chunks[i]!.key)) continue;
        const t = takenBy[i]!;
        let n = 0;
        for (let p = 0; p < count; p++) if (t[p] === mark) mine[n++] = p;
        if (n) picked.append(readFileRecords(done[i]!.rootFile, count), mine, n);
      }
      await append(node, picked.view(), picked.count);
    }
    for (let i = 0; i < chunks.length; i++) {
      const d = done[i]!;
      const records = d.rootCount ? readFileRecords(d.rootFile, d.rootCount) : new Uint8Array(0);
      const t = takenBy[i]!;
      let leftCount = 0;
      for (let p = 0; p < t.length; p++) if (!t[p]) leftCount++;
      const left = new Uint8Array(leftCount * RECORD_SIZE);
      let n = 0;
      for (let p = 0; p < t.length; p++) if (!t[p]) copyRecord(records, p, left, n++);
      await append(chunks[i]!.key, left, n);
    }
    while (pending.length) await writeOldest();
    await fh.sync();
  } finally {
    await fh.close();
  }
  return sources;
}

async function fingerprintOf(options: ConvertOptions, maxChunkPoints: number, maxNodePoints: number): Promise<string> {
  const st = await fs.stat(options.input);
  return JSON.stringify({ v: STATE_VERSION, input: path.resolve(options.input), size: st.size, mtime: st.mtimeMs, format: options.format ?? null, maxChunkPoints, maxNodePoints, grid: GRID });
}

/** Converts one file to COPC (see the file's header). */
export async function convertToCopc(options: ConvertOptions): Promise<ConversionResult> {
  const started = Date.now();
  loadLazEncoder();
  const maxChunkPoints = options.maxChunkPoints ?? 1_000_000;
  const maxNodePoints = options.maxNodePoints ?? 100_000;
  const workers = options.workers ?? os.availableParallelism();
  const workDir = options.workDir ?? `${options.output}.work`;
  const fingerprint = await fingerprintOf(options, maxChunkPoints, maxNodePoints);
  await fs.mkdir(workDir, { recursive: true });
  const stateFile = path.join(workDir, 'state.json');
  let state = await readJson<State>(stateFile);
  const resumed = state?.fingerprint === fingerprint && Boolean(state.counted);
  if (state?.fingerprint !== fingerprint) {
    // Another input or other settings: nothing here can be reused.
    await fs.rm(workDir, { recursive: true, force: true });
    await fs.mkdir(workDir, { recursive: true });
    state = { version: STATE_VERSION, fingerprint };
  }
  const reader = await openPointCloud(options.input, options.format);
  const progress = new Progress(reader.info.pointCount, options.onProgress);
  const pool = new WorkerPool(Math.max(1, workers), options.workerOldGenerationMb);
  const abortWorkers = () => pool.abort();
  options.signal?.addEventListener('abort', abortWorkers, { once: true });
  try {
    if (!state.counted) {
      progress.report('counting', 0, true);
      const { counted, histogram } = await countPass(reader, options.input, workDir, pool, progress, options.signal);
      state.counted = counted;
      await writeAtomic(path.join(workDir, 'histogram.bin'), new Uint8Array(histogram.buffer));
      await writeAtomic(stateFile, JSON.stringify(state));
    }
    const counted = state.counted;
    progress.pointsRead = progress.pointsTotal = counted.pointCount;
    if (!state.chunks) {
      const histogram = new Uint32Array(new Uint8Array(await fs.readFile(path.join(workDir, 'histogram.bin'))).buffer);
      const planned = planChunks(histogram, maxChunkPoints);
      progress.report('distributing', 0, true);
      state.chunks = await distributePass(options, reader.format, counted, planned, workDir, pool, progress, options.signal);
      throwIfAborted(options.signal);
      await writeAtomic(stateFile, JSON.stringify(state));
    }
    const chunks = state.chunks;
    progress.report('indexing', 0, true);
    const done = await indexPass(counted, chunks, workDir, { maxChunkPoints, maxNodePoints }, pool, progress, options.signal);
    progress.report('writing', 0, true);
    const upper = await upperPass(counted, chunks, done, workDir, pool);
    await pool.close();
    const nodes: NodeSource[] = [...upper];
    done.forEach((d) => nodes.push(...d.nodes.map((n) => ({ ...n, file: d.outFile }))));
    const total = nodes.reduce((s, n) => s + n.pointCount, 0);
    if (total !== counted.pointCount) throw new Error(`conversion: the octree holds ${total} points, the input ${counted.pointCount}`);
    const written = await writeCopcFile(
      options.output,
      {
        format: counted.hasColor ? 7 : 6,
        quantization: counted.quantization,
        bounds: counted.bounds,
        cube: counted.cube,
        spacing: counted.cube.size / GRID,
        pointCount: counted.pointCount,
        pointsByReturn: counted.pointsByReturn,
        gpsTime: counted.gpsTime,
        gpsTimeStandard: counted.gpsTimeStandard,
        ...(counted.wkt ? { wkt: counted.wkt } : {}),
      },
      nodes,
    );
    progress.report('done', 1, true);
    await fs.rm(workDir, { recursive: true, force: true });
    return {
      output: options.output,
      format: reader.format,
      pointCount: counted.pointCount,
      bounds: counted.bounds,
      nodes: nodes.length,
      bytes: written.bytes,
      seconds: (Date.now() - started) / 1000,
      resumed,
    };
  } finally {
    options.signal?.removeEventListener('abort', abortWorkers);
    await pool.close();
    await reader.close();
  }
}
