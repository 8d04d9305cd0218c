// Reads a COPC file back with the `copc` package (copc.js: the maintained COPC reader of
// the COPC authors, over laz-perf) — an implementation independent of this project's writer.
import { Copc, type Getter, Hierarchy } from 'copc';

export interface CopcSummary {
  header: Awaited<ReturnType<typeof Copc.create>>['header'];
  info: Awaited<ReturnType<typeof Copc.create>>['info'];
  /** Every node of the hierarchy (all pages loaded). */
  nodes: Map<string, Hierarchy.Node>;
  pages: number;
}

export async function readCopcHierarchy(file: string): Promise<CopcSummary> {
  const copc = await Copc.create(file);
  const nodes = new Map<string, Hierarchy.Node>();
  const queue: Hierarchy.Page[] = [copc.info.rootHierarchyPage];
  let pages = 0;
  while (queue.length) {
    const page = queue.shift()!;
    pages++;
    const sub = await Copc.loadHierarchyPage(file, page);
    for (const [k, n] of Object.entries(sub.nodes)) if (n) nodes.set(k, n);
    for (const p of Object.values(sub.pages)) if (p) queue.push(p);
  }
  return { header: copc.header, info: copc.info, nodes, pages };
}

export interface PointStats {
  count: number;
  min: [number, number, number];
  max: [number, number, number];
  /** Sums over all points, an order-independent fingerprint of the content. */
  sums: Record<string, number>;
}

const DIMENSIONS = ['X', 'Y', 'Z', 'Intensity', 'ReturnNumber', 'NumberOfReturns', 'Classification', 'GpsTime', 'Red', 'Green', 'Blue', 'PointSourceId', 'ScanAngle'];

/** Decodes every node with copc.js and sums the dimensions (points must lie in their node's cube). */
export async function readCopcPoints(file: string, visit?: (node: string, get: (dim: string, i: number) => number, count: number) => void): Promise<PointStats> {
  const copc = await Copc.create(file);
  const { nodes } = await readCopcHierarchy(file);
  const stats: PointStats = { count: 0, min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity], sums: {} };
  for (const [key, node] of nodes) {
    if (!node.pointCount) continue;
    const view = await Copc.loadPointDataView(file, copc, node);
    const dims = DIMENSIONS.filter((d) => view.dimensions[d]);
    const getters = Object.fromEntries(dims.map((d) => [d, view.getter(d)]));
    for (let i = 0; i < view.pointCount; i++) {
      const xyz = [getters.X!(i), getters.Y!(i), getters.Z!(i)];
      for (let a = 0; a < 3; a++) {
        stats.min[a] = Math.min(stats.min[a]!, xyz[a]!);
        stats.max[a] = Math.max(stats.max[a]!, xyz[a]!);
      }
      for (const d of dims) stats.sums[d] = (stats.sums[d] ?? 0) + getters[d]!(i);
    }
    visit?.(key, (d, i) => getters[d]!(i), view.pointCount);
    stats.count += view.pointCount;
  }
  return stats;
}

export interface FirstFrame {
  /** Range reads before the root node's points were decoded. */
  requests: number;
  /** Bytes those reads returned. */
  bytes: number;
  /** Points of the root node (what a viewer draws first). */
  points: number;
  seconds: number;
}

/**
 * What a viewer reads before it can draw a COPC file's first points: copc.js's header and
 * VLR read, the root hierarchy page, then the root node, decoded; every read counted.
 * `getter` is any copc.js range getter (a file, or HTTP ranges on loopback in the bench).
 */
export async function readFirstFrame(getter: Getter): Promise<FirstFrame> {
  let requests = 0;
  let bytes = 0;
  const counting: Getter = async (begin, end) => {
    const got = await getter(begin, end);
    requests++;
    bytes += got.length;
    return got;
  };
  const started = performance.now();
  const copc = await Copc.create(counting);
  const page = await Copc.loadHierarchyPage(counting, copc.info.rootHierarchyPage);
  const root = page.nodes['0-0-0-0'];
  if (!root) throw new Error('the COPC file has no root node');
  const view = await Copc.loadPointDataView(counting, copc, root);
  return { requests, bytes, points: view.pointCount, seconds: (performance.now() - started) / 1000 };
}
