// Indexes one chunk of the cloud (the points of one octree node and its subtree, from the
// distribution pass): builds its subtree, LAZ-encodes every node but the chunk's root into
// one work file, and keeps the root's points raw (the levels above sample from them). A
// chunk larger than `maxInMemory` points is split on disk first (the node samples its grid
// while streaming, its other points go to eight child files), so memory stays bounded
// whatever a cell's density. Runs in a worker thread (chunk-worker.ts); synchronous I/O.
import fs from 'node:fs';
import { encodeLazChunk } from './laz/chunk-encoder.ts';
import {
  buildSubtree, childKey, MAX_DEPTH_BELOW_CHUNK, cellOctant, keyString, normalizedCoordinates, SamplingGrid, shuffledOrder, type Cube, type NodeKey,
} from './octree.ts';
import { gatherRecords, RECORD_SIZE, type Quantization } from './record.ts';
import { sortIndices } from './sort-indices.ts';

export interface ChunkTask {
  /** The chunk's points: its segment files (range-passes.ts), read one after the other. */
  chunkFiles: string[];
  count: number;
  key: NodeKey;
  root: Cube;
  quantization: Quantization;
  format: 6 | 7;
  maxNodePoints: number;
  maxInMemory: number;
  /** Encoded nodes (all but the chunk root) are appended here. */
  outFile: string;
  /** The chunk root's points, raw records. */
  rootFile: string;
}

export interface IndexedNode {
  key: NodeKey;
  pointCount: number;
  offset: number;
  bytes: number;
}

export interface ChunkResult {
  nodes: IndexedNode[];
  rootCount: number;
}

const STREAM_POINTS = 262_144;

class Appender {
  private readonly fd: number;
  position = 0;
  constructor(file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  write(bytes: Uint8Array): number {
    const at = this.position;
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
    return at;
  }
  close(): void {
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
  }
}

/**
 * The `count` records of `files` (read one after the other), `runPoints` at most at a time,
 * each run in a fresh buffer. Fails when the files hold fewer records than `count`.
 */
function* recordRuns(files: string[], count: number, runPoints: number): Generator<Uint8Array> {
  let left = count;
  for (const file of files) {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      let position = 0;
      while (left > 0 && position < size) {
        const bytes = new Uint8Array(Math.min(runPoints, left, Math.floor((size - position) / RECORD_SIZE)) * RECORD_SIZE);
        if (!bytes.length) break;
        for (let done = 0; done < bytes.length; ) {
          const n = fs.readSync(fd, bytes, done, bytes.length - done, position + done);
          if (n === 0) throw new Error(`chunk file ${file} ends at byte ${position + done}`);
          done += n;
        }
        position += bytes.length;
        left -= bytes.length / RECORD_SIZE;
        yield bytes;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  if (left > 0) throw new Error(`chunk files ${files.join(', ')} hold ${count - left} of ${count} points`);
}

function readRecords(files: string[], count: number): Uint8Array {
  const bytes = new Uint8Array(count * RECORD_SIZE);
  let at = 0;
  for (const run of recordRuns(files, count, count)) {
    bytes.set(run, at);
    at += run.length;
  }
  return bytes;
}

function gather(records: Uint8Array, points: Uint32Array): Uint8Array {
  const out = new Uint8Array(points.length * RECORD_SIZE);
  gatherRecords(records, points, points.length, out);
  return out;
}

export function indexChunk(task: ChunkTask): ChunkResult {
  const out = new Appender(task.outFile);
  const grid = new SamplingGrid();
  const nodes: IndexedNode[] = [];
  let rootCount = 0;
  const emit = (key: NodeKey, records: Uint8Array, count: number, order?: Uint32Array) => {
    // A node's points were picked in a shuffled order (buildSubtree samples at random) but
    // are stored in the chunk's order, which is the input's: the LAZ predictors (deltas,
    // GPS time, returns) then see the scan's coherence: the generated 10 M-point cloud
    // took 6.2 bytes a point instead of 15. `order` is the node's own copy (buildSubtree's).
    if (order) sortIndices(order);
    if (keyString(key) === keyString(task.key)) {
      fs.writeFileSync(task.rootFile, order ? gather(records, order) : records.subarray(0, count * RECORD_SIZE));
      rootCount = count;
      return;
    }
    const chunk = encodeLazChunk(task.format, records, count, order);
    nodes.push({ key, pointCount: count, offset: out.write(chunk), bytes: chunk.length });
  };

  const inMemory = (files: string[], count: number, key: NodeKey) => {
    const records = readRecords(files, count);
    const order = shuffledOrder(count, key.d * 73856093 + key.x * 19349663 + key.y * 83492791 + key.z);
    const coords = normalizedCoordinates(records, count, task.quantization, task.root, order);
    buildSubtree(key, coords, order, task.maxNodePoints, grid, (node) => emit(node.key, records, node.points.length, node.points));
  };

  const split = (files: string[], count: number, key: NodeKey) => {
    // The node samples while streaming; the others go to its eight children's files.
    grid.reset(key);
    const kept: Uint8Array[] = [];
    let keptCount = 0;
    const childFiles = Array.from({ length: 8 }, (_, o) => `${files[0]!}.${o}`);
    const childFds = childFiles.map((f) => fs.openSync(f, 'w'));
    const childCounts = new Array<number>(8).fill(0);
    try {
      for (const records of recordRuns(files, count, STREAM_POINTS)) {
        const n = records.length / RECORD_SIZE;
        const [xs, ys, zs] = normalizedCoordinates(records, n, task.quantization, task.root);
        const keep: number[] = [];
        const byOctant: number[][] = [[], [], [], [], [], [], [], []];
        for (let i = 0; i < n; i++) {
          const cell = grid.cell(xs[i]!, ys[i]!, zs[i]!);
          if (grid.claimCell(cell)) keep.push(i);
          else byOctant[cellOctant(cell)]!.push(i);
        }
        kept.push(gather(records, Uint32Array.from(keep)));
        keptCount += keep.length;
        byOctant.forEach((list, o) => {
          if (!list.length) return;
          fs.writeSync(childFds[o]!, gather(records, Uint32Array.from(list)));
          childCounts[o]! += list.length;
        });
      }
    } finally {
      for (const c of childFds) fs.closeSync(c);
    }
    const records = new Uint8Array(keptCount * RECORD_SIZE);
    let o = 0;
    for (const k of kept) {
      records.set(k, o);
      o += k.length;
    }
    emit(key, records, keptCount);
    removeWorkFiles(files);
    for (let c = 0; c < 8; c++) {
      if (childCounts[c]) visit([childFiles[c]!], childCounts[c]!, childKey(key, c));
      else fs.rmSync(childFiles[c]!);
    }
  };

  // The chunk's own files stay until the converter's checkpoint says the chunk is done.
  const removeWorkFiles = (files: string[]) => {
    if (files !== task.chunkFiles) for (const f of files) fs.rmSync(f);
  };
  const visit = (files: string[], count: number, key: NodeKey) => {
    // Past the depth limit the points are (nearly) one location: they stay together in memory.
    if (count > task.maxInMemory && key.d - task.key.d < MAX_DEPTH_BELOW_CHUNK) split(files, count, key);
    else {
      inMemory(files, count, key);
      removeWorkFiles(files);
    }
  };

  try {
    visit(task.chunkFiles, task.count, task.key);
  } finally {
    out.close();
  }
  return { nodes, rootCount };
}
