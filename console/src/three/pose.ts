// A scan placed by its file's pose (layer.ts `Pose`: a project point is R·p + t). Shared by
// the layers that draw a scan, the COPC streamed by level of detail (layers/copc-points.ts)
// and the preview drawn while it converts (layers/scan-points.ts), so that the COPC lands
// exactly where its preview was. Both hold their points relative to the scan's own centre
// (its file's coordinates) and move their group: a pose far from the view's origin costs no
// precision.
import { Quaternion, Vector3, type Object3D } from 'three';
import type { Pose } from './layer.ts';

/** Whether two poses place a scan alike (a layer told the pose it has does nothing). */
export function samePose(a: Pose | null, b: Pose | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The pose's rotation, normalised (none, or a zero quaternion: no rotation). */
export function poseRotation(pose: Pose | null): Quaternion {
  const r = pose?.rotation;
  const q = r ? new Quaternion(r.x, r.y, r.z, r.w) : new Quaternion();
  return q.lengthSq() > 0 ? q.normalize() : new Quaternion();
}

/** Where a point of the scan's own coordinates lands in the project: R·p + t. */
export function posedPoint(pose: Pose | null, p: Vector3): Vector3 {
  const t = pose?.translation;
  return p.clone().applyQuaternion(poseRotation(pose)).add(new Vector3(t?.x ?? 0, t?.y ?? 0, t?.z ?? 0));
}

/**
 * Places a scan's group, whose points are held as p − centre, so that each lands at
 * R·p + t − origin in the view (origin: the view's, in survey coordinates).
 */
export function placeByPose(object: Object3D, pose: Pose | null, centre: Vector3, origin: Vector3): void {
  object.quaternion.copy(poseRotation(pose));
  object.position.copy(posedPoint(pose, centre)).sub(origin);
  object.updateMatrix();
  object.updateMatrixWorld(true);
}
