// The count and distribution passes' work on one range of the input, run in a worker
// thread so that every core reads (worker-pool.ts).
//  - count: the range's tally (points per level-7 cell, bounds, returns, GPS-time range);
//    the converter adds the ranges' tallies up.
//  - distribute: each point of the range goes to the file of its chunk (the octree node the
//    counting grid assigned its level-7 cell to). Each range writes its own segment of each
//    chunk (`chunk-<c>.<segment>.bin`), so the ranges never share a file, and a chunk's
//    points, read segment after segment, come in input order: the output does not depend on
//    the number of workers.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PointCloudError } from './errors.ts';
import { cellAlong, normalizedCoordinates, type Cube } from './octree.ts';
import { openPointCloud } from './readers/open.ts';
import type { InputFormat } from './readers/reader.ts';
import { emptyBounds, gatherRecords, growBounds, RECORD_SIZE, type Bounds, type Quantization, type RecordBatch } from './record.ts';

/** Counting grid: 128³ cells, i.e. octree level 7. */
export const COUNT_LEVEL = 7;
export const COUNT_CELLS = 1 << COUNT_LEVEL;
const STAGING_POINTS = 1 << 20;

export const cellIndex = (cx: number, cy: number, cz: number) => (cx * COUNT_CELLS + cy) * COUNT_CELLS + cz;

/** The normalized coordinates of a batch, in arrays kept for the next batch of this thread (count and distribute read batch after batch). */
let scratch: [Float64Array, Float64Array, Float64Array] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];

/** Level-7 cell of each record of a batch (cellAt at COUNT_LEVEL on each axis). */
export function cellsOf(batch: RecordBatch, q: Quantization, cube: Cube): Int32Array {
  const n = batch.count;
  if (scratch[0].length < n) scratch = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const [xs, ys, zs] = normalizedCoordinates(batch.bytes, n, q, cube, undefined, scratch);
  const cells = new Int32Array(n);
  for (let i = 0; i < n; i++) cells[i] = cellIndex(cellAlong(xs[i]!, COUNT_CELLS), cellAlong(ys[i]!, COUNT_CELLS), cellAlong(zs[i]!, COUNT_CELLS));
  return cells;
}

/** What counting points gives. */
export interface Tally {
  /** Points per level-7 cell of the cube (cellIndex). */
  histogram: Uint32Array;
  bounds: Bounds;
  /** Points of return number 1–15. */
  pointsByReturn: number[];
  gps: { min: number; max: number };
  count: number;
}

export const emptyTally = (): Tally => ({
  histogram: new Uint32Array(COUNT_CELLS ** 3),
  bounds: emptyBounds(),
  pointsByReturn: new Array<number>(15).fill(0),
  gps: { min: Infinity, max: -Infinity },
  count: 0,
});

/** Adds a batch's points to a tally over `cube`. */
export function tallyBatch(t: Tally, batch: RecordBatch, q: Quantization, cube: Cube): void {
  const v = new DataView(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  for (let i = 0; i < batch.count; i++) {
    const o = i * RECORD_SIZE;
    growBounds(t.bounds, v.getInt32(o, true) * q.scale[0] + q.offset[0], v.getInt32(o + 4, true) * q.scale[1] + q.offset[1], v.getInt32(o + 8, true) * q.scale[2] + q.offset[2]);
    const r = batch.bytes[o + 14]! & 0xf;
    if (r >= 1) t.pointsByReturn[r - 1]!++;
    const time = v.getFloat64(o + 22, true);
    if (time < t.gps.min) t.gps.min = time;
    if (time > t.gps.max) t.gps.max = time;
  }
  const cells = cellsOf(batch, q, cube);
  for (let i = 0; i < cells.length; i++) t.histogram[cells[i]!]!++;
  t.count += batch.count;
}

/** Adds `from` (another range's tally over the same cube) to `into`. */
export function mergeTally(into: Tally, from: Tally): void {
  for (let i = 0; i < into.histogram.length; i++) into.histogram[i]! += from.histogram[i]!;
  growBounds(into.bounds, ...from.bounds.min);
  growBounds(into.bounds, ...from.bounds.max);
  from.pointsByReturn.forEach((n, r) => (into.pointsByReturn[r]! += n));
  into.gps.min = Math.min(into.gps.min, from.gps.min);
  into.gps.max = Math.max(into.gps.max, from.gps.max);
  into.count += from.count;
}

/** Batches of a spill file (raw records), from record `first` on, `count` records at most. */
export async function* spillBatches(file: string, first = 0, count = Infinity, batchPoints = 65_536): AsyncGenerator<RecordBatch> {
  const fh = await fs.open(file, 'r');
  try {
    for (let done = 0; done < count; ) {
      const n = Math.min(batchPoints, count - done);
      const bytes = new Uint8Array(n * RECORD_SIZE);
      const { bytesRead } = await fh.read(bytes, 0, bytes.length, (first + done) * RECORD_SIZE);
      if (bytesRead === 0) {
        if (Number.isFinite(count)) throw new Error(`spill file ${file} ends at record ${first + done}, ${count - done} short`);
        return;
      }
      const records = Math.floor(bytesRead / RECORD_SIZE);
      yield { bytes: bytes.subarray(0, records * RECORD_SIZE), count: records };
      done += records;
    }
  } finally {
    await fh.close();
  }
}

/** Where the points of a range come from: the input itself (a raw LAS) or the count pass's spill of it. */
export type RecordSource = { input: string; format: InputFormat } | { spill: string };

/** A range of points of a source, and the cube and quantization they are counted or distributed over. */
export interface RangeTask {
  source: RecordSource;
  first: number;
  count: number;
  cube: Cube;
  quantization: Quantization;
}

export interface DistributeTask extends RangeTask {
  /** Chunk of each level-7 cell (−1: no chunk; the count pass saw no point there). */
  chunkOfCell: Int32Array;
  chunks: number;
  workDir: string;
  segment: number;
}

export interface DistributeResult {
  /** Points written to each chunk's segment (0: no segment file). */
  written: number[];
}

export const chunkSegmentFile = (workDir: string, chunk: number, segment: number) => path.join(workDir, `chunk-${chunk}.${segment}.bin`);

async function* rangeBatches(task: RangeTask): AsyncGenerator<RecordBatch> {
  if ('spill' in task.source) {
    yield* spillBatches(task.source.spill, task.first, task.count);
    return;
  }
  const reader = await openPointCloud(task.source.input, task.source.format);
  try {
    if (!reader.rangeBatches) throw new Error(`a ${reader.format.toUpperCase()} file is not read by range`);
    yield* reader.rangeBatches(task.first, task.count);
  } finally {
    await reader.close();
  }
}

/** Tallies the task's range; `onProgress` gets the points done so far, `aborted` is asked between batches. */
export async function countRange(task: RangeTask, onProgress: (points: number) => void, aborted: () => boolean): Promise<Tally> {
  const tally = emptyTally();
  for await (const batch of rangeBatches(task)) {
    if (aborted()) throw new Error('conversion aborted');
    tallyBatch(tally, batch, task.quantization, task.cube);
    onProgress(tally.count);
  }
  if (tally.count !== task.count) throw new PointCloudError('truncated', `the input holds ${tally.count} of the ${task.count} points of records ${task.first}–${task.first + task.count - 1}`);
  return tally;
}

/**
 * Distributes the task's range. Points are staged a million at a time, sorted by chunk
 * (a counting sort) and appended to the segment files; the files are synced before the
 * answer, so a checkpoint written after it finds them on disk. `onProgress` gets the points
 * done so far; `aborted` is asked between batches.
 */
export async function distributeRange(task: DistributeTask, onProgress: (points: number) => void, aborted: () => boolean): Promise<DistributeResult> {
  const { chunkOfCell, chunks } = task;
  const files = new Map<number, fs.FileHandle>();
  const written = new Array<number>(chunks).fill(0);
  const staging = new Uint8Array(STAGING_POINTS * RECORD_SIZE);
  const stagedChunk = new Int32Array(STAGING_POINTS);
  const byChunk = new Uint32Array(STAGING_POINTS);
  // Reused by every flush: a fresh 36 MiB buffer each time cost its page faults and zeroing.
  const sorted = new Uint8Array(STAGING_POINTS * RECORD_SIZE);
  let staged = 0;
  const flush = async () => {
    const counts = new Uint32Array(chunks + 1);
    for (let i = 0; i < staged; i++) counts[stagedChunk[i]! + 1]!++;
    for (let i = 1; i <= chunks; i++) counts[i]! += counts[i - 1]!;
    const starts = counts.slice(0, chunks);
    const fill = starts.slice();
    for (let i = 0; i < staged; i++) byChunk[fill[stagedChunk[i]!]!++] = i;
    gatherRecords(staging, byChunk, staged, sorted);
    for (let c = 0; c < chunks; c++) {
      const n = (c + 1 < chunks ? starts[c + 1]! : staged) - starts[c]!;
      if (!n) continue;
      let fh = files.get(c);
      if (!fh) files.set(c, (fh = await fs.open(chunkSegmentFile(task.workDir, c, task.segment), 'w')));
      const bytes = sorted.subarray(starts[c]! * RECORD_SIZE, (starts[c]! + n) * RECORD_SIZE);
      await fh.write(bytes, 0, bytes.length, written[c]! * RECORD_SIZE);
      written[c]! += n;
    }
    staged = 0;
  };
  try {
    let done = 0;
    for await (const batch of rangeBatches(task)) {
      if (aborted()) throw new Error('conversion aborted');
      const cells = cellsOf(batch, task.quantization, task.cube);
      // Staged a run at a time (one copy), the chunk of each point beside it.
      for (let i = 0; i < batch.count; ) {
        const run = Math.min(batch.count - i, STAGING_POINTS - staged);
        staging.set(batch.bytes.subarray(i * RECORD_SIZE, (i + run) * RECORD_SIZE), staged * RECORD_SIZE);
        for (let k = 0; k < run; k++) {
          const chunk = chunkOfCell[cells[i + k]!]!;
          if (chunk < 0) throw new PointCloudError('corrupt', 'a point falls in a cell the count pass did not see (the input changed during the conversion?)');
          stagedChunk[staged++] = chunk;
        }
        i += run;
        if (staged === STAGING_POINTS) await flush();
      }
      done += batch.count;
      onProgress(done);
    }
    await flush();
    if (done !== task.count) throw new PointCloudError('truncated', `the input holds ${done} of the ${task.count} points the count pass read in records ${task.first}–${task.first + task.count - 1}`);
    // On disk before the checkpoint says they are.
    for (const fh of files.values()) await fh.sync();
  } finally {
    for (const fh of files.values()) await fh.close();
  }
  return { written };
}
