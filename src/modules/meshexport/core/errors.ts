// The meshexport module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
export const MESH_EXPORT_CODES = {
  /** Ours, with the vendor's postExportToMesh status 503 (its "technical stack" failure names no code): no mesher on this node. */
  'mesher-unavailable': { status: [503] as const, defined: ['ours'] as const },
  'create-export-to-mesh-forbidden': { status: [403] as const, defined: ['spec'] as const },
} as const;

type MeshExportCodesRows = typeof MESH_EXPORT_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends MeshExportCodesRows {}
}
