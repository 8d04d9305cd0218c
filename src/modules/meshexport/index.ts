// The meshexport module's public face (docs/mesh-export.md): export to mesh jobs.
export type { MeshExports, MeshExportRequest, MeshExportStarted } from './core/mesh-export.ts';
export { MESH_JOB, MESH_FORMATS, MIN_RESOLUTION, MAX_RESOLUTION } from './core/mesh-export.ts';
export type { Mesher, BuiltMesh, CropRegion, CropPlane, MeshInput } from './core/ports.ts';
