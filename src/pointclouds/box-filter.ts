// Limiting a COPC file to a box (a share link's or a crop's view): which nodes are refused,
// served as they are, or filtered. A node whose cube misses the box is refused; a node whose
// cube lies inside it is served byte for byte; a node whose cube crosses the box's faces is
// decoded, its points outside the box dropped, and re-encoded — so no point outside the box
// ever leaves the server. The classification is pure; the filtering decodes with laz-perf
// and encodes with this library's LAZ encoder.
import { encodeLazChunk } from './laz/chunk-encoder.ts';
import { nodeCube, type Cube, type NodeKey } from './octree.ts';
import { lazPerf } from './readers/las.ts';
import { POINT14_SIZE, RECORD_SIZE, type Quantization } from './record.ts';

/** An axis-aligned box in the cloud's coordinates (both corners inclusive). */
export interface Box {
  min: [number, number, number];
  max: [number, number, number];
}

export type NodeVerdict = 'outside' | 'inside' | 'boundary';

/**
 * The verdict for one node. `cube` is the COPC root cube (info VLR: centre ± halfsize).
 * A node's points can sit a rounding error outside its cube, so "inside" needs the cube
 * inside the box by a margin of 1e-9 of the root's size, and "outside" a gap of as much;
 * anything closer is a boundary node, filtered point by point.
 */
export function nodeVerdict(root: Cube, key: NodeKey, box: Box): NodeVerdict {
  const c = nodeCube(root, key);
  const eps = root.size * 1e-9;
  let inside = true;
  for (let a = 0; a < 3; a++) {
    const lo = c.min[a]!;
    const hi = lo + c.size;
    if (hi < box.min[a]! - eps || lo > box.max[a]! + eps) return 'outside';
    if (lo < box.min[a]! + eps || hi > box.max[a]! - eps) inside = false;
  }
  return inside ? 'inside' : 'boundary';
}

/** Verdicts for a whole hierarchy (nodes by key), e.g. to answer a viewer's node list. */
export function classifyNodes<T extends { key: NodeKey }>(nodes: T[], root: Cube, box: Box): { node: T; verdict: NodeVerdict }[] {
  return nodes.map((node) => ({ node, verdict: nodeVerdict(root, node.key, box) }));
}

/**
 * Decodes a node's LAZ chunk (point format 6 or 7), keeps the points inside `box`, and
 * re-encodes them. Answers the new chunk and its point count (0 points: an empty chunk).
 */
export async function filterChunkToBox(
  chunk: Uint8Array,
  pointCount: number,
  format: 6 | 7,
  quantization: Quantization,
  box: Box,
): Promise<{ chunk: Uint8Array; pointCount: number }> {
  const lp = await lazPerf();
  const recordLength = format === 7 ? RECORD_SIZE : POINT14_SIZE;
  const input = lp._malloc(chunk.length + 64);
  const out = lp._malloc(recordLength);
  const decoder = new lp.ChunkDecoder();
  const kept = new Uint8Array(pointCount * RECORD_SIZE);
  let n = 0;
  try {
    lp.HEAPU8.set(chunk, input);
    lp.HEAPU8.fill(0, input + chunk.length, input + chunk.length + 64);
    decoder.open(format, recordLength, input);
    const [sx, sy, sz] = quantization.scale;
    const [ox, oy, oz] = quantization.offset;
    for (let i = 0; i < pointCount; i++) {
      decoder.getPoint(out);
      const rec = lp.HEAPU8.subarray(out, out + recordLength);
      const v = new DataView(rec.buffer, rec.byteOffset, recordLength);
      const x = v.getInt32(0, true) * sx + ox;
      const y = v.getInt32(4, true) * sy + oy;
      const z = v.getInt32(8, true) * sz + oz;
      if (x < box.min[0] || x > box.max[0] || y < box.min[1] || y > box.max[1] || z < box.min[2] || z > box.max[2]) continue;
      kept.set(rec, n++ * RECORD_SIZE);
    }
  } finally {
    decoder.delete();
    lp._free(input);
    lp._free(out);
  }
  return { chunk: encodeLazChunk(format, kept, n), pointCount: n };
}
