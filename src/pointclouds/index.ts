// The point-cloud library's public face (docs/point-clouds.md): readers of E57, LAS, LAZ
// and PLY, the COPC converter, and the box limit. Pure TypeScript over node:fs and worker
// threads; no HTTP, no database. The module that registers conversion jobs and serves the
// output wires these in.
export { convertToCopc, planChunks, type ConversionProgress, type ConversionResult, type ConvertOptions } from './convert.ts';
export { PointCloudError, type PointCloudErrorReason } from './errors.ts';
export { formatOfName, openPointCloud, sniff } from './readers/open.ts';
export type { InputFormat, PointCloudReader } from './readers/reader.ts';
export type { Bounds, CloudInfo, Quantization, RecordBatch } from './record.ts';
export { classifyNodes, filterChunkToBox, nodeVerdict, type Box, type NodeVerdict } from './box-filter.ts';
export type { Cube, NodeKey } from './octree.ts';
