// The octree of a COPC file: a cube split in eight at each level, node keys (depth, x, y,
// z), and the level-of-detail rule. Each point is stored once: a node keeps at most one
// point per cell of a GRID³ grid over its cube (the first one met, in a shuffled order),
// and passes the others to its children; a node with few points keeps them all (a leaf).
// The root's spacing is cube size / GRID; each level halves it.
import { RECORD_SIZE, type Quantization } from './record.ts';

/** Cells per axis of a node's sampling grid. */
export const GRID = 128;
/** Deepest level below a chunk root the in-memory build goes (deeper points stay in their leaf). */
export const MAX_DEPTH_BELOW_CHUNK = 16;

export interface Cube {
  /** Minimum corner. */
  min: [number, number, number];
  /** Edge length. */
  size: number;
}

export interface NodeKey {
  d: number;
  x: number;
  y: number;
  z: number;
}

export const keyString = (k: NodeKey) => `${k.d}-${k.x}-${k.y}-${k.z}`;
export const parseKey = (s: string): NodeKey => {
  const [d, x, y, z] = s.split('-').map(Number) as [number, number, number, number];
  return { d, x, y, z };
};
export const childKey = (k: NodeKey, octant: number): NodeKey => ({
  d: k.d + 1,
  x: k.x * 2 + (octant & 1),
  y: k.y * 2 + ((octant >> 1) & 1),
  z: k.z * 2 + ((octant >> 2) & 1),
});
export const parentKey = (k: NodeKey): NodeKey => ({ d: k.d - 1, x: k.x >> 1, y: k.y >> 1, z: k.z >> 1 });
/** True when `a` is `b` or one of its ancestors. */
export const isAncestorOrSelf = (a: NodeKey, b: NodeKey) => a.d <= b.d && b.x >> (b.d - a.d) === a.x && b.y >> (b.d - a.d) === a.y && b.z >> (b.d - a.d) === a.z;

/** The cube of a node. */
export function nodeCube(root: Cube, k: NodeKey): Cube {
  const size = root.size / 2 ** k.d;
  return { min: [root.min[0] + k.x * size, root.min[1] + k.y * size, root.min[2] + k.z * size], size };
}

/** The root cube of a bounds: centred, edge = the largest extent (1 unit for a single point). */
export function cubeOf(min: readonly number[], max: readonly number[]): Cube {
  const extent = Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
  const size = extent > 0 ? extent * 1.000001 : 1;
  const c = [0, 1, 2].map((i) => (min[i]! + max[i]!) / 2);
  return { min: [c[0]! - size / 2, c[1]! - size / 2, c[2]! - size / 2], size };
}

/**
 * Where a point sits in the root cube, each axis scaled to [0, 1): u = (real − min) / size.
 * Every rule below (the node a point belongs to, its sampling cell, its octant) is a floor
 * of u × 2^k, so the levels agree exactly: multiplying by a power of two never rounds.
 */
export function normalizedCoordinates(records: Uint8Array, count: number, q: Quantization, root: Cube): [Float64Array, Float64Array, Float64Array] {
  const v = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const out: [Float64Array, Float64Array, Float64Array] = [new Float64Array(count), new Float64Array(count), new Float64Array(count)];
  for (let axis = 0; axis < 3; axis++) {
    const u = out[axis]!;
    const scale = q.scale[axis]!;
    const offset = q.offset[axis]!;
    const min = root.min[axis]!;
    const size = root.size;
    for (let i = 0; i < count; i++) u[i] = (v.getInt32(i * RECORD_SIZE + axis * 4, true) * scale + offset - min) / size;
  }
  return out;
}

/** The normalized coordinate of one real value. */
export const normalize = (real: number, root: Cube, axis: number) => (real - root.min[axis]!) / root.size;

/** Index along one axis of the cell holding u at depth d (2^d cells), clamped to the cube. */
export function cellAt(u: number, d: number): number {
  const cells = 2 ** d;
  const c = Math.floor(u * cells);
  return c < 0 ? 0 : c >= cells ? cells - 1 : c;
}

/** A deterministic shuffle (xorshift32): the same input gives the same octree, run after run. */
export function shuffledOrder(count: number, seed: number): Uint32Array {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let s = seed >>> 0 || 0x9e3779b9;
  for (let i = count - 1; i > 0; i--) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    const j = s % (i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}

/**
 * A sampling grid reused across nodes: a stamp per cell instead of clearing GRID³ cells
 * for each node.
 */
export class SamplingGrid {
  private readonly stamps = new Uint32Array(GRID * GRID * GRID);
  private generation = 0;
  private d = 0;
  private x0 = 0;
  private y0 = 0;
  private z0 = 0;

  /** Starts a node: its cells are those of depth d + 7 inside it. */
  reset(key: NodeKey): void {
    if (++this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    this.d = key.d + Math.log2(GRID);
    this.x0 = key.x * GRID;
    this.y0 = key.y * GRID;
    this.z0 = key.z * GRID;
  }

  /** Claims the cell of a point (normalized coordinates); true when it was free (the point stays in the node). */
  claim(ux: number, uy: number, uz: number): boolean {
    const cx = Math.min(GRID - 1, Math.max(0, cellAt(ux, this.d) - this.x0));
    const cy = Math.min(GRID - 1, Math.max(0, cellAt(uy, this.d) - this.y0));
    const cz = Math.min(GRID - 1, Math.max(0, cellAt(uz, this.d) - this.z0));
    const cell = (cx * GRID + cy) * GRID + cz;
    if (this.stamps[cell] === this.generation) return false;
    this.stamps[cell] = this.generation;
    return true;
  }
}

/** The octant (0–7) of the child of node `key` holding a point. */
export const octantOf = (key: NodeKey, ux: number, uy: number, uz: number) =>
  (cellAt(ux, key.d + 1) & 1) | ((cellAt(uy, key.d + 1) & 1) << 1) | ((cellAt(uz, key.d + 1) & 1) << 2);

export interface BuiltNode {
  key: NodeKey;
  /** Indices of the node's points in the chunk's records. */
  points: Uint32Array;
}

/**
 * Builds the subtree of `rootKey` over points held in memory (normalized coordinates):
 * each node samples its GRID³ grid, the rest go to the children. Visits the nodes (root
 * first, depth first) through `onNode`, each with its point indices, so that the caller
 * can encode and drop them.
 */
export function buildSubtree(
  rootKey: NodeKey,
  coords: [Float64Array, Float64Array, Float64Array],
  order: Uint32Array,
  maxNodePoints: number,
  grid: SamplingGrid,
  onNode: (node: BuiltNode) => void,
): void {
  const [xs, ys, zs] = coords;
  const scratch = new Uint32Array(order.length);
  const visit = (key: NodeKey, start: number, end: number) => {
    const n = end - start;
    if (n === 0) return;
    if (n <= maxNodePoints || key.d - rootKey.d >= MAX_DEPTH_BELOW_CHUNK) {
      onNode({ key, points: order.slice(start, end) });
      return;
    }
    grid.reset(key);
    const kept: number[] = [];
    const counts = new Uint32Array(8);
    const octants = new Uint8Array(n);
    // Sample: kept points go to `kept`; the rest are compacted in place at the range's start.
    let rest = start;
    for (let i = start; i < end; i++) {
      const p = order[i]!;
      if (grid.claim(xs[p]!, ys[p]!, zs[p]!)) kept.push(p);
      else {
        const o = octantOf(key, xs[p]!, ys[p]!, zs[p]!);
        octants[rest - start] = o;
        order[rest++] = p;
        counts[o]!++;
      }
    }
    onNode({ key, points: Uint32Array.from(kept) });
    // Partition the rest by octant (counting sort through the scratch array).
    const starts = new Uint32Array(9);
    for (let o = 0; o < 8; o++) starts[o + 1] = starts[o]! + counts[o]!;
    const fill = starts.slice(0, 8);
    for (let i = start; i < rest; i++) scratch[start + fill[octants[i - start]!]!++] = order[i]!;
    order.set(scratch.subarray(start, rest), start);
    for (let o = 0; o < 8; o++) visit(childKey(key, o), start + starts[o]!, start + starts[o + 1]!);
  };
  visit(rootKey, 0, order.length);
}
