// The octree of a COPC file: a cube split in eight at each level, node keys (depth, x, y,
// z), and the level-of-detail rule. Each point is stored once: a node keeps at most one
// point per cell of a GRID³ grid over its cube (the first one met, in a shuffled order),
// and passes the others to its children; a node with few points keeps them all (a leaf).
// The root's spacing is cube size / GRID; each level halves it. GRID is 64 (not Potree's
// 128) so that the root of a large terrain holds ~12 k points, not ~47 k: a first frame of
// header, hierarchy page and root node stays under 512 kB (docs/point-clouds.md).
import { RECORD_SIZE, type Quantization } from './record.ts';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Bits of a cell index along one axis of a node's sampling grid. */
const GRID_BITS = 6;
/** Cells per axis of a node's sampling grid. */
export const GRID = 1 << GRID_BITS;
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
export function normalizedCoordinates(
  records: Uint8Array,
  count: number,
  q: Quantization,
  root: Cube,
  order?: Uint32Array,
  into?: [Float64Array, Float64Array, Float64Array],
): [Float64Array, Float64Array, Float64Array] {
  // `into`: arrays of at least `count` values to fill (a caller's scratch, reused batch after batch).
  const out: [Float64Array, Float64Array, Float64Array] = into ?? [new Float64Array(count), new Float64Array(count), new Float64Array(count)];
  // An Int32Array over the records where they are 4-byte aligned (they are, but for a
  // pooled Buffer): the words are read directly, little-endian as on every host Node runs on.
  const aligned = records.byteOffset % 4 === 0 && LITTLE_ENDIAN;
  const words = aligned ? new Int32Array(records.buffer, records.byteOffset, records.byteLength >>> 2) : null;
  const v = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const stride = RECORD_SIZE >>> 2;
  const [us, vs, ws] = out;
  const [sx, sy, sz] = q.scale;
  const [ox, oy, oz] = q.offset;
  const [mx, my, mz] = root.min;
  const size = root.size;
  // The three axes of a record in one visit: in a shuffled order each record is a cache
  // miss, paid once rather than once per axis.
  for (let i = 0; i < count; i++) {
    const r = order ? order[i]! : i;
    let x: number, y: number, z: number;
    if (words) {
      const w = r * stride;
      x = words[w]!;
      y = words[w + 1]!;
      z = words[w + 2]!;
    } else {
      x = v.getInt32(r * RECORD_SIZE, true);
      y = v.getInt32(r * RECORD_SIZE + 4, true);
      z = v.getInt32(r * RECORD_SIZE + 8, true);
    }
    us[i] = (x * sx + ox - mx) / size;
    vs[i] = (y * sy + oy - my) / size;
    ws[i] = (z * sz + oz - mz) / size;
  }
  return out;
}

/** The normalized coordinate of one real value. */
export const normalize = (real: number, root: Cube, axis: number) => (real - root.min[axis]!) / root.size;

/** Index along one axis of the cell holding u at depth d (2^d cells), clamped to the cube. */
export const cellAt = (u: number, d: number): number => cellAlong(u, 2 ** d);

/** cellAt with the depth's cell count given: hot loops compute 2^d once, not per point and axis. */
export function cellAlong(u: number, cells: number): number {
  const c = Math.floor(u * cells);
  return c < 0 ? 0 : c >= cells ? cells - 1 : c;
}

/** Records per block of shuffledOrder(): 1,024 records (36 KiB) stay in the core's cache. */
const SHUFFLE_BLOCK = 1024;

/**
 * A deterministic shuffle (xorshift32): the same input gives the same octree, run after run.
 * Shuffled by blocks: the blocks of SHUFFLE_BLOCK consecutive indices come in a random
 * order, each block's indices in a random order. The first point met in a cell is still a
 * random one (from a random block among those holding the cell's points, then at random
 * within it), but reading the records in this order stays in cache within a block: a fully
 * shuffled order paid a cache miss per record (12 % of a worker's time on 10 M points).
 */
export function shuffledOrder(count: number, seed: number): Uint32Array {
  let s = seed >>> 0 || 0x9e3779b9;
  const next = (bound: number) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % bound;
  };
  const shuffle = (a: Uint32Array, from: number, to: number) => {
    for (let i = to - 1; i > from; i--) {
      const j = from + next(i - from + 1);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
  };
  const blocks = new Uint32Array(Math.ceil(count / SHUFFLE_BLOCK));
  for (let b = 0; b < blocks.length; b++) blocks[b] = b;
  shuffle(blocks, 0, blocks.length);
  const order = new Uint32Array(count);
  let at = 0;
  for (const b of blocks) {
    const from = at;
    for (let i = b * SHUFFLE_BLOCK, end = Math.min(count, i + SHUFFLE_BLOCK); i < end; i++) order[at++] = i;
    shuffle(order, from, at);
  }
  return order;
}

/**
 * A node's cell of a point (normalized coordinates), packed as (cx·GRID + cy)·GRID + cz: the
 * node's grid is cells x0…x0+GRID−1 (and y, z) of a grid of `cells` per axis over the whole
 * cube (its depth + GRID_BITS); each index is clamped to the node. The top bit of an index
 * (GRID_BITS − 1) is the point's child half on that axis, so cellOctant() follows from it.
 */
export function nodeCell(cells: number, x0: number, y0: number, z0: number, ux: number, uy: number, uz: number): number {
  let cx = Math.floor(ux * cells) - x0;
  let cy = Math.floor(uy * cells) - y0;
  let cz = Math.floor(uz * cells) - z0;
  cx = cx < 0 ? 0 : cx > GRID - 1 ? GRID - 1 : cx;
  cy = cy < 0 ? 0 : cy > GRID - 1 ? GRID - 1 : cy;
  cz = cz < 0 ? 0 : cz > GRID - 1 ? GRID - 1 : cz;
  return (cx * GRID + cy) * GRID + cz;
}

/**
 * One node's sampling grid as a bit per cell (GRID³ bits, 32 KiB), for holding many at
 * once: the upper levels claim cells for every ancestor of a chunk in one pass over its root
 * (convert.ts). A cell is claimed as SamplingGrid's is, by the first point met in it.
 */
export class CellBits {
  private readonly bits = new Uint32Array((GRID * GRID * GRID) >>> 5);
  private readonly cells: number;
  private readonly x0: number;
  private readonly y0: number;
  private readonly z0: number;

  constructor(key: NodeKey) {
    this.cells = GRID * 2 ** key.d;
    this.x0 = key.x * GRID;
    this.y0 = key.y * GRID;
    this.z0 = key.z * GRID;
  }

  /** Claims the point's cell; true when it was free. */
  claim(ux: number, uy: number, uz: number): boolean {
    const cell = nodeCell(this.cells, this.x0, this.y0, this.z0, ux, uy, uz);
    const word = cell >>> 5;
    const bit = 1 << (cell & 31);
    if (this.bits[word]! & bit) return false;
    this.bits[word]! |= bit;
    return true;
  }
}

/**
 * A sampling grid reused across nodes: a stamp per cell instead of clearing GRID³ cells
 * for each node.
 */
export class SamplingGrid {
  readonly stamps = new Uint32Array(GRID * GRID * GRID);
  generation = 0;
  /** Cells per axis of the whole cube at the node's sampling depth (node depth + GRID_BITS). */
  cells = GRID;
  x0 = 0;
  y0 = 0;
  z0 = 0;

  /** Starts a node: its cells are those of depth d + GRID_BITS inside it. */
  reset(key: NodeKey): void {
    if (++this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    this.cells = GRID * 2 ** key.d;
    this.x0 = key.x * GRID;
    this.y0 = key.y * GRID;
    this.z0 = key.z * GRID;
  }

  /** The node's cell of a point (normalized coordinates): nodeCell(). */
  cell(ux: number, uy: number, uz: number): number {
    return nodeCell(this.cells, this.x0, this.y0, this.z0, ux, uy, uz);
  }

  /** Claims a cell; true when it was free (the point stays in the node). */
  claimCell(cell: number): boolean {
    if (this.stamps[cell] === this.generation) return false;
    this.stamps[cell] = this.generation;
    return true;
  }
}

/** The child octant (0–7) of a packed cell: the top bit of each axis index. */
export const cellOctant = (cell: number) =>
  ((cell >> (3 * GRID_BITS - 1)) & 1) | (((cell >> (2 * GRID_BITS - 1)) & 1) << 1) | (((cell >> (GRID_BITS - 1)) & 1) << 2);

export interface BuiltNode {
  key: NodeKey;
  /** Indices of the node's points in the chunk's records. */
  points: Uint32Array;
}

/**
 * Builds the subtree of `rootKey` over points held in memory, visiting them in `order` (a
 * shuffle: the first point met in a cell is a random one); `coords` are the normalized
 * coordinates of order[0], order[1], … (normalizedCoordinates(…, order)). Each node samples
 * its GRID³ grid, the rest go to the children. Visits the nodes (root first, depth first)
 * through `onNode`, each with its point indices, so that the caller can encode and drop
 * them. Coordinates are partitioned along with the indices (in place: `order` and `coords`
 * are reordered), so every pass reads memory sequentially.
 */
export function buildSubtree(
  rootKey: NodeKey,
  coords: [Float64Array, Float64Array, Float64Array],
  order: Uint32Array,
  maxNodePoints: number,
  grid: SamplingGrid,
  onNode: (node: BuiltNode) => void,
): void {
  const n = order.length;
  const ids = order;
  const [px, py, pz] = coords;
  const sIds = new Uint32Array(n);
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  const sz = new Float64Array(n);
  const octants = new Uint8Array(n);
  const kept = new Uint32Array(Math.min(n, GRID * GRID * GRID));
  const visit = (key: NodeKey, start: number, end: number) => {
    const count = end - start;
    if (count === 0) return;
    if (count <= maxNodePoints || key.d - rootKey.d >= MAX_DEPTH_BELOW_CHUNK) {
      onNode({ key, points: ids.slice(start, end) });
      return;
    }
    grid.reset(key);
    const counts = new Uint32Array(8);
    // Sample: kept indices go to `kept`; the rest are compacted at the range's start.
    let keptCount = 0;
    let rest = start;
    for (let i = start; i < end; i++) {
      const cell = grid.cell(px[i]!, py[i]!, pz[i]!);
      if (grid.claimCell(cell)) kept[keptCount++] = ids[i]!;
      else {
        const o = cellOctant(cell);
        octants[rest] = o;
        ids[rest] = ids[i]!;
        px[rest] = px[i]!;
        py[rest] = py[i]!;
        pz[rest] = pz[i]!;
        rest++;
        counts[o]!++;
      }
    }
    onNode({ key, points: kept.slice(0, keptCount) });
    // Partition the rest by octant (counting sort through the scratch arrays).
    const starts = new Uint32Array(9);
    for (let o = 0; o < 8; o++) starts[o + 1] = starts[o]! + counts[o]!;
    const fill = starts.slice(0, 8);
    for (let i = start; i < rest; i++) {
      const at = start + fill[octants[i]!]!++;
      sIds[at] = ids[i]!;
      sx[at] = px[i]!;
      sy[at] = py[i]!;
      sz[at] = pz[i]!;
    }
    ids.set(sIds.subarray(start, rest), start);
    px.set(sx.subarray(start, rest), start);
    py.set(sy.subarray(start, rest), start);
    pz.set(sz.subarray(start, rest), start);
    for (let o = 0; o < 8; o++) visit(childKey(key, o), start + starts[o]!, start + starts[o + 1]!);
  };
  visit(rootKey, 0, n);
}
