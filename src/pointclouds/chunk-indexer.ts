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

export interface ChunkTask {
  chunkFile: string;
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

function readRecords(file: string, count: number): Uint8Array {
  const bytes = new Uint8Array(count * RECORD_SIZE);
  const fd = fs.openSync(file, 'r');
  try {
    let done = 0;
    while (done < bytes.length) {
      const n = fs.readSync(fd, bytes, done, bytes.length - done, done);
      if (n === 0) throw new Error(`chunk file ${file} holds ${done} of ${bytes.length} bytes`);
      done += n;
    }
  } finally {
    fs.closeSync(fd);
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
    if (keyString(key) === keyString(task.key)) {
      fs.writeFileSync(task.rootFile, order ? gather(records, order) : records.subarray(0, count * RECORD_SIZE));
      rootCount = count;
      return;
    }
    const chunk = encodeLazChunk(task.format, records, count, order);
    nodes.push({ key, pointCount: count, offset: out.write(chunk), bytes: chunk.length });
  };

  const inMemory = (file: string, count: number, key: NodeKey) => {
    const records = readRecords(file, count);
    const order = shuffledOrder(count, key.d * 73856093 + key.x * 19349663 + key.y * 83492791 + key.z);
    const coords = normalizedCoordinates(records, count, task.quantization, task.root, order);
    buildSubtree(key, coords, order, task.maxNodePoints, grid, (node) => emit(node.key, records, node.points.length, node.points));
  };

  const split = (file: string, count: number, key: NodeKey) => {
    // The node samples while streaming; the others go to its eight children's files.
    grid.reset(key);
    const kept: Uint8Array[] = [];
    let keptCount = 0;
    const childFiles = Array.from({ length: 8 }, (_, o) => `${file}.${o}`);
    const childFds = childFiles.map((f) => fs.openSync(f, 'w'));
    const childCounts = new Array<number>(8).fill(0);
    const fd = fs.openSync(file, 'r');
    try {
      for (let done = 0; done < count; ) {
        const n = Math.min(STREAM_POINTS, count - done);
        const records = new Uint8Array(n * RECORD_SIZE);
        fs.readSync(fd, records, 0, records.length, done * RECORD_SIZE);
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
        done += n;
      }
    } finally {
      fs.closeSync(fd);
      for (const c of childFds) fs.closeSync(c);
    }
    const records = new Uint8Array(keptCount * RECORD_SIZE);
    let o = 0;
    for (const k of kept) {
      records.set(k, o);
      o += k.length;
    }
    emit(key, records, keptCount);
    if (file !== task.chunkFile) fs.rmSync(file);
    for (let c = 0; c < 8; c++) {
      if (childCounts[c]) visit(childFiles[c]!, childCounts[c]!, childKey(key, c));
      else fs.rmSync(childFiles[c]!);
    }
  };

  const visit = (file: string, count: number, key: NodeKey) => {
    // Past the depth limit the points are (nearly) one location: they stay together in memory.
    if (count > task.maxInMemory && key.d - task.key.d < MAX_DEPTH_BELOW_CHUNK) split(file, count, key);
    else {
      inMemory(file, count, key);
      if (file !== task.chunkFile) fs.rmSync(file);
    }
  };

  try {
    visit(task.chunkFile, task.count, task.key);
  } finally {
    out.close();
  }
  return { nodes, rootCount };
}
