// The COPC 1.0 file (copc.io): a LAS 1.4 file, point format 6 or 7, LAZ-compressed with
// one variable-size chunk per octree node; the "copc" info VLR first, the LASzip VLR, the
// LAZ chunk table after the points, and the octree hierarchy as an EVLR of 32-byte entries
// (key, offset, size, count), split into pages so that a reader's first requests stay small.
// The file is written to `<output>.part`, synced, then renamed: a reader never sees half.
import fs from 'node:fs/promises';
import { encodeChunkTable } from './laz/chunk-encoder.ts';
import { evlrHeader, LAS_HEADER_14_SIZE, vlrBytes, writeLas14Header, EVLR_HEADER_SIZE } from './las-format.ts';
import { keyString, parentKey, type Cube, type NodeKey } from './octree.ts';
import type { Bounds, Quantization } from './record.ts';

/** Where a node's compressed chunk is while the file is assembled. */
export interface NodeSource {
  key: NodeKey;
  pointCount: number;
  /** The chunk's bytes in a work file (absent for an empty node). */
  file?: string;
  offset?: number;
  bytes?: number;
}

export interface CopcFileParams {
  format: 6 | 7;
  quantization: Quantization;
  bounds: Bounds;
  cube: Cube;
  /** Root spacing: cube size / GRID. */
  spacing: number;
  pointCount: number;
  pointsByReturn: number[];
  gpsTime: { min: number; max: number };
  wkt?: string;
  /** Bit 0 of the input's global encoding (GPS time type), kept. */
  gpsTimeStandard: boolean;
}

/** One hierarchy entry: a node's chunk, or (pointCount −1) a child page. */
export interface HierarchyEntry {
  key: NodeKey;
  offset: number;
  byteSize: number;
  pointCount: number;
}

export const HIERARCHY_ENTRY_SIZE = 32;
/** One page holds this many levels of a subtree; deeper nodes go to child pages. */
export const PAGE_LEVELS = 4;
/** A hierarchy this small stays in one page. */
export const SINGLE_PAGE_NODES = 4096;

export function encodeEntries(entries: HierarchyEntry[]): Uint8Array {
  const out = new Uint8Array(entries.length * HIERARCHY_ENTRY_SIZE);
  const v = new DataView(out.buffer);
  entries.forEach((e, i) => {
    const o = i * HIERARCHY_ENTRY_SIZE;
    v.setInt32(o, e.key.d, true);
    v.setInt32(o + 4, e.key.x, true);
    v.setInt32(o + 8, e.key.y, true);
    v.setInt32(o + 12, e.key.z, true);
    v.setBigUint64(o + 16, BigInt(e.offset), true);
    v.setInt32(o + 24, e.byteSize, true);
    v.setInt32(o + 28, e.pointCount, true);
  });
  return out;
}

/**
 * Lays the hierarchy out in pages: the root page holds the nodes of depth < PAGE_LEVELS
 * (every node when there are at most SINGLE_PAGE_NODES), and an entry of pointCount −1 for
 * each node at depth PAGE_LEVELS, whose own page holds it and its next levels, and so on.
 * Pages are written children first; `baseOffset` is where the first page starts in the
 * file. Answers the pages' bytes in order and the root page's offset and size.
 */
export function layoutHierarchy(nodes: HierarchyEntry[], baseOffset: number): { bytes: Uint8Array; rootOffset: number; rootSize: number } {
  const byKey = new Map(nodes.map((n) => [keyString(n.key), n]));
  const children = new Map<string, HierarchyEntry[]>();
  for (const n of nodes) {
    if (n.key.d === 0) continue;
    const pk = keyString(parentKey(n.key));
    if (!byKey.has(pk)) throw new Error(`hierarchy: node ${keyString(n.key)} has no parent`);
    (children.get(pk) ?? children.set(pk, []).get(pk)!).push(n);
  }
  const root = byKey.get('0-0-0-0');
  if (!root) throw new Error('hierarchy: no root node');
  const pages: Uint8Array[] = [];
  let cursor = baseOffset;
  const levels = nodes.length <= SINGLE_PAGE_NODES ? Infinity : PAGE_LEVELS;
  const writePage = (top: HierarchyEntry): { offset: number; size: number } => {
    const entries: HierarchyEntry[] = [];
    const walk = (n: HierarchyEntry) => {
      if (n !== top && n.key.d - top.key.d >= levels) {
        const page = writePage(n);
        entries.push({ key: n.key, offset: page.offset, byteSize: page.size, pointCount: -1 });
        return;
      }
      entries.push(n);
      for (const c of children.get(keyString(n.key)) ?? []) walk(c);
    };
    walk(top);
    const bytes = encodeEntries(entries);
    const offset = cursor;
    pages.push(bytes);
    cursor += bytes.length;
    return { offset, size: bytes.length };
  };
  const rootPage = writePage(root);
  const total = new Uint8Array(cursor - baseOffset);
  let o = 0;
  for (const p of pages) {
    total.set(p, o);
    o += p.length;
  }
  return { bytes: total, rootOffset: rootPage.offset, rootSize: rootPage.size };
}

function copcInfo(p: CopcFileParams, rootOffset: number, rootSize: number): Uint8Array {
  const out = new Uint8Array(160);
  const v = new DataView(out.buffer);
  const half = p.cube.size / 2;
  v.setFloat64(0, p.cube.min[0] + half, true);
  v.setFloat64(8, p.cube.min[1] + half, true);
  v.setFloat64(16, p.cube.min[2] + half, true);
  v.setFloat64(24, half, true);
  v.setFloat64(32, p.spacing, true);
  v.setBigUint64(40, BigInt(rootOffset), true);
  v.setBigUint64(48, BigInt(rootSize), true);
  v.setFloat64(56, p.gpsTime.min, true);
  v.setFloat64(64, p.gpsTime.max, true);
  return out;
}

function lazVlrData(format: 6 | 7): Uint8Array {
  const items = format === 7 ? [[10, 30, 3], [11, 6, 3]] : [[10, 30, 3]];
  const out = new Uint8Array(34 + items.length * 6);
  const v = new DataView(out.buffer);
  v.setUint16(0, 3, true); // compressor: layered chunked
  v.setUint16(2, 0, true); // coder: arithmetic
  v.setUint8(4, 3);
  v.setUint8(5, 4);
  v.setUint16(6, 3, true);
  v.setUint32(8, 0, true);
  v.setUint32(12, 0xffffffff, true); // variable chunk size
  v.setBigInt64(16, -1n, true);
  v.setBigInt64(24, -1n, true);
  v.setUint16(32, items.length, true);
  items.forEach(([type, size, version], i) => {
    v.setUint16(34 + i * 6, type!, true);
    v.setUint16(36 + i * 6, size!, true);
    v.setUint16(38 + i * 6, version!, true);
  });
  return out;
}

const COPY_SLICE = 8 << 20;

/**
 * Writes the COPC file: header, VLRs, the nodes' chunks copied from their work files in
 * the order given, the chunk table, the hierarchy. Answers the file's size and the
 * hierarchy entries as written (absolute offsets).
 */
export async function writeCopcFile(output: string, p: CopcFileParams, nodes: NodeSource[]): Promise<{ bytes: number; entries: HierarchyEntry[] }> {
  const part = `${output}.part`;
  const fh = await fs.open(part, 'w');
  let open = true;
  try {
    const info = vlrBytes('copc', 1, 'COPC info', new Uint8Array(160));
    const laz = vlrBytes('laszip encoded', 22204, 'Scanbase LAZ 1.4', lazVlrData(p.format));
    const wkt = p.wkt ? vlrBytes('LASF_Projection', 2112, 'WKT', new TextEncoder().encode(`${p.wkt}\0`)) : null;
    const vlrs = [info, laz, ...(wkt ? [wkt] : [])];
    const pointDataOffset = LAS_HEADER_14_SIZE + vlrs.reduce((s, v) => s + v.length, 0);
    let position = pointDataOffset + 8;
    const entries: HierarchyEntry[] = [];
    const chunks: { points: number; bytes: number }[] = [];
    const buffer = new Uint8Array(COPY_SLICE);
    const sources = new Map<string, fs.FileHandle>();
    try {
      for (const n of nodes) {
        if (!n.file || !n.bytes) {
          entries.push({ key: n.key, offset: 0, byteSize: 0, pointCount: 0 });
          continue;
        }
        let src = sources.get(n.file);
        if (!src) sources.set(n.file, (src = await fs.open(n.file, 'r')));
        entries.push({ key: n.key, offset: position, byteSize: n.bytes, pointCount: n.pointCount });
        chunks.push({ points: n.pointCount, bytes: n.bytes });
        for (let done = 0; done < n.bytes; ) {
          const len = Math.min(COPY_SLICE, n.bytes - done);
          const { bytesRead } = await src.read(buffer, 0, len, n.offset! + done);
          if (bytesRead !== len) throw new Error(`work file ${n.file} is shorter than its index says`);
          await fh.write(buffer, 0, len, position);
          position += len;
          done += len;
        }
      }
    } finally {
      for (const src of sources.values()) await src.close();
    }
    const tableOffset = position;
    const table = encodeChunkTable(chunks);
    await fh.write(table, 0, table.length, position);
    position += table.length;
    const evlrOffset = position;
    const hierarchy = layoutHierarchy(entries, evlrOffset + EVLR_HEADER_SIZE);
    const evlr = evlrHeader('copc', 1000, 'EPT hierarchy', hierarchy.bytes.length);
    await fh.write(evlr, 0, evlr.length, position);
    position += evlr.length;
    await fh.write(hierarchy.bytes, 0, hierarchy.bytes.length, position);
    position += hierarchy.bytes.length;
    const tableAt = new Uint8Array(8);
    new DataView(tableAt.buffer).setBigInt64(0, BigInt(tableOffset), true);
    await fh.write(tableAt, 0, 8, pointDataOffset);
    info.set(copcInfo(p, hierarchy.rootOffset, hierarchy.rootSize), 54);
    const header = writeLas14Header({
      pointFormat: p.format,
      recordLength: p.format === 7 ? 36 : 30,
      compressed: true,
      pointCount: p.pointCount,
      pointsByReturn: p.pointsByReturn,
      scale: p.quantization.scale,
      offset: p.quantization.offset,
      min: p.bounds.min,
      max: p.bounds.max,
      pointDataOffset,
      vlrCount: vlrs.length,
      evlrOffset,
      evlrCount: 1,
      globalEncoding: 0x10 | (p.gpsTimeStandard ? 1 : 0),
      generatingSoftware: 'Scanbase',
    });
    let o = 0;
    const head = new Uint8Array(pointDataOffset);
    head.set(header, o);
    o += header.length;
    for (const v of vlrs) {
      head.set(v, o);
      o += v.length;
    }
    await fh.write(head, 0, head.length, 0);
    await fh.sync();
    open = false;
    await fh.close();
    await fs.rename(part, output);
    return { bytes: position, entries };
  } catch (e) {
    // The half-written file goes; the error that stopped it is the one reported.
    if (open) await fh.close();
    await fs.rm(part, { force: true });
    throw e;
  }
}
