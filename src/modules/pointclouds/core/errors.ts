// The pointclouds module's error codes (declaration merging into the kernel's catalogue type,
// src/core/error-codes.ts ModuleErrorCodes; their rows are in module.ts, docs/point-clouds.md).
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    /** A file that is not a point cloud (its extension is not E57, LAS, LAZ or PLY). */
    'point-cloud-not-found': { status: readonly [404]; defined: readonly ['ours'] };
    /** Its COPC output is not converted yet (or the conversion failed). */
    'point-cloud-not-ready': { status: readonly [409]; defined: readonly ['ours'] };
    /** A share session asked for a node its hierarchy does not hold. */
    'point-cloud-node-not-found': { status: readonly [404]; defined: readonly ['ours'] };
    /** A share session asked for a node wholly outside its link's box limit. */
    'point-cloud-node-outside-box': { status: readonly [403]; defined: readonly ['ours'] };
    /** A conversion job's failure: the content is not what the extension says, cut short or corrupt. Never an HTTP answer. */
    'point-cloud-unreadable': { status: readonly [400]; defined: readonly ['ours'] };
  }
}

export const POINT_CLOUD_CODES = {
  'point-cloud-not-found': { status: [404], defined: ['ours'] },
  'point-cloud-not-ready': { status: [409], defined: ['ours'] },
  'point-cloud-unreadable': { status: [400], defined: ['ours'] },
  'point-cloud-node-not-found': { status: [404], defined: ['ours'] },
  'point-cloud-node-outside-box': { status: [403], defined: ['ours'] },
} as const;
