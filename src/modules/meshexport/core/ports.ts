// The meshexport module's port: the mesher (adapters/open3d-mesher.ts: the scans' points
// read in this process, the surface built by Open3D in a Python worker process).

/** A plane [a, b, c, d]: a point (x, y, z) is on its kept side when a·x + b·y + c·z + d ≥ 0. */
export type CropPlane = readonly [number, number, number, number];
/** A region: the points on the kept side of each of its planes. */
export type CropRegion = readonly CropPlane[];

export interface MeshInput {
  /** The object store key of the scan's bytes. */
  key: string;
  /** e57, las, laz or ply. */
  extension: string;
  /** The file's name as its owner knows it (failure messages name it). */
  name: string;
}

export interface BuiltMesh {
  size: number;
  md5: string;
  vertices: number;
  triangles: number;
  points: number;
}

export interface Mesher {
  /** Whether a mesher is installed on this node (asked once, then remembered). */
  available(): Promise<boolean>;
  /**
   * Reads the inputs' points (only those inside one of `regions` when any is given), builds a
   * triangle mesh at `resolution` metres and stores it as an OBJ object at `outputKey`.
   * Fails with MeshFailure when the input cannot make a mesh.
   */
  build(o: { inputs: readonly MeshInput[]; regions: readonly CropRegion[]; resolution: number; outputKey: string; workDir: string }): Promise<BuiltMesh>;
}

/** The input makes no mesh (no points, unreadable, too few points in the regions): final, its message for the requester. */
export class MeshFailure extends Error {
  override name = 'MeshFailure';
}

/** The extensions whose points this service reads (src/pointclouds). */
export const MESHABLE_EXTENSIONS: ReadonlySet<string> = new Set(['e57', 'las', 'laz', 'ply']);
