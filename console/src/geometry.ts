// Rotations the console's forms offer: about the vertical (Z) axis only, as the unit
// quaternion (x, y, z, w) the API takes (tags' orientedBoundingBox, files' rotation).

/** The unit quaternion of a rotation of `degrees` about Z: (0, 0, sin θ/2, cos θ/2). */
export function quaternionAboutZ(degrees: number): [number, number, number, number] {
  const half = (degrees * Math.PI) / 360;
  return [0, 0, Math.sin(half), Math.cos(half)];
}

/** The angle about Z of a quaternion (its X and Y parts ignored), in degrees from -180 to 180. */
export function degreesAboutZ(q: { z: number; w: number }): number {
  return +((2 * Math.atan2(q.z, q.w) * 180) / Math.PI).toFixed(6);
}
