// The pointclouds module's error codes (declaration merging into the kernel's catalogue type,
// src/core/error-codes.ts ModuleErrorCodes; their rows go to the catalogue through module.ts; docs/point-clouds.md).
export const POINT_CLOUD_CODES = {
  /** A file that is not a point cloud (its extension is not E57, LAS, LAZ or PLY). */
  'point-cloud-not-found': { status: [404], defined: ['ours'] },
  /** Its COPC output is not converted yet (or the conversion failed). */
  'point-cloud-not-ready': { status: [409], defined: ['ours'] },
  /** A conversion job's failure: the content is not what the extension says, cut short or corrupt. Never an HTTP answer. */
  'point-cloud-unreadable': { status: [400], defined: ['ours'] },
  /** A share session asked for a node its hierarchy does not hold. */
  'point-cloud-node-not-found': { status: [404], defined: ['ours'] },
  /** A share session asked for a node wholly outside its link's box limit. */
  'point-cloud-node-outside-box': { status: [403], defined: ['ours'] },
} as const;

type PointCloudCodesRows = typeof POINT_CLOUD_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends PointCloudCodesRows {}
}
