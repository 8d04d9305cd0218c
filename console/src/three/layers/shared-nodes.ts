// A converted scan seen through a share link (docs/share-links.md "Point clouds"): the share
// session's layout (the COPC header's facts and the nodes the session may read, those
// wholly outside the link's box left out) and each node's LAZ chunk from its own route,
// boundary nodes already filtered to the box by the service. The layer streams it by level
// of detail as it does a COPC file (copc-points.ts): only the source differs.
import { Las, type Hierarchy } from 'copc';
import type { CopcOctree, CopcSource } from './copc-points.ts';

type Triple = [number, number, number];

/** GET /share/{link}/files/{file}/point-cloud. */
export interface SharedLayout {
  pointFormat: number;
  scale: Triple;
  offset: Triple;
  cube: { min: Triple; size: number };
  spacing: number;
  boxLimit: { min: Triple; max: Triple } | null;
  nodes: { key: string; pointCount: number; verdict: 'inside' | 'boundary' }[];
}

/** A node's chunk as its route answers it: the bytes and the points they hold (X-Point-Count). */
export interface SharedNodeChunk {
  bytes: Uint8Array;
  pointCount: number;
}

/** The record length of the formats the service's converter writes (LAS 1.4 formats 6 and 7, no extra bytes). */
const RECORD_LENGTH: Record<number, number> = { 6: 30, 7: 36 };

/** The part of the layout's cube inside the link's box: what the view frames. */
export function sharedBounds(layout: Pick<SharedLayout, 'cube' | 'boxLimit'>): { min: Triple; max: Triple } {
  const { min, size } = layout.cube;
  const lo = [...min] as Triple;
  const hi = min.map((v) => v + size) as Triple;
  if (!layout.boxLimit) return { min: lo, max: hi };
  return {
    min: lo.map((v, a) => Math.max(v, layout.boxLimit!.min[a]!)) as Triple,
    max: hi.map((v, a) => Math.min(v, layout.boxLimit!.max[a]!)) as Triple,
  };
}

export function copcBySharedNodes(layout: SharedLayout, fetchNode: (key: string) => Promise<SharedNodeChunk>): CopcSource {
  const recordLength = RECORD_LENGTH[layout.pointFormat];
  return {
    async open() {
      if (!recordLength) throw new Error(`Point format ${layout.pointFormat} is not one the service writes`);
      const nodes: Hierarchy.Node.Map = {};
      let pointCount = 0;
      for (const n of layout.nodes) {
        // The offset and length of a file are meaningless here: the node is read by its key.
        nodes[n.key] = { pointCount: n.pointCount, pointDataOffset: 0, pointDataLength: 0 };
        pointCount += n.pointCount;
      }
      const { min, max } = sharedBounds(layout);
      const [x, y, z] = layout.cube.min;
      const s = layout.cube.size;
      return { pointCount, pointDataRecordFormat: layout.pointFormat, min, max, cube: [x, y, z, x + s, y + s, z + s], spacing: layout.spacing, nodes, pages: {} } satisfies CopcOctree;
    },
    loadPage() {
      return Promise.reject(new Error('a shared layout has every node: no hierarchy page to read'));
    },
    async loadNode(key, _node, lazPerf, count) {
      const chunk = await fetchNode(key);
      count(chunk.bytes.byteLength);
      const header = { pointCount: chunk.pointCount, pointDataRecordFormat: layout.pointFormat, pointDataRecordLength: recordLength!, scale: layout.scale, offset: layout.offset };
      const points = chunk.pointCount ? await Las.PointData.decompressChunk(chunk.bytes, header, lazPerf) : new Uint8Array(0);
      return Las.View.create(points, header);
    },
  };
}
