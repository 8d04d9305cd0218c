// Rotations the console's forms offer: about the vertical (Z) axis only, as the unit
// quaternion (x, y, z, w) the API takes (tags' orientedBoundingBox, files' rotation); and
// the measuring tool's live value (distance, height, polyline, area).

/** The unit quaternion of a rotation of `degrees` about Z: (0, 0, sin θ/2, cos θ/2). */
export function quaternionAboutZ(degrees: number): [number, number, number, number] {
  const half = (degrees * Math.PI) / 360;
  return [0, 0, Math.sin(half), Math.cos(half)];
}

/** The angle about Z of a quaternion (its X and Y parts ignored), in degrees from -180 to 180. */
export function degreesAboutZ(q: { z: number; w: number }): number {
  return +((2 * Math.atan2(q.z, q.w) * 180) / Math.PI).toFixed(6);
}

export type Point = { x: number; y: number; z: number };
export type MeasureKind = 'distance' | 'polyline' | 'area' | 'height';

/** Points a measurement of each kind takes: at least `min`, at most `max` (the API's rule: docs/annotations.md). */
export const MEASURE_POINTS: Record<MeasureKind, { min: number; max: number }> = {
  distance: { min: 2, max: 2 },
  height: { min: 2, max: 2 },
  polyline: { min: 2, max: 1000 },
  area: { min: 3, max: 1000 },
};

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/**
 * The value the measuring tool shows while points are clicked (the service computes the saved
 * one by the same rule: docs/annotations.md): distance the straight length, height |Δz|,
 * polyline the sum of its segments, area the closed polygon's area (Newell's vector area) with
 * its perimeter. Null until the kind has its minimum of points.
 */
export function liveMeasure(kind: MeasureKind, points: readonly Point[]): { value: number; unit: 'm' | 'm²'; perimeter?: number } | null {
  if (points.length < MEASURE_POINTS[kind].min) return null;
  const a = points[0]!;
  const b = points[points.length - 1]!;
  if (kind === 'distance') return { value: dist(a, b), unit: 'm' };
  if (kind === 'height') return { value: Math.abs(b.z - a.z), unit: 'm' };
  let length = 0;
  for (let i = 1; i < points.length; i++) length += dist(points[i - 1]!, points[i]!);
  if (kind === 'polyline') return { value: length, unit: 'm' };
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!, q = points[(i + 1) % points.length]!;
    x += (p.y - q.y) * (p.z + q.z);
    y += (p.z - q.z) * (p.x + q.x);
    z += (p.x - q.x) * (p.y + q.y);
  }
  return { value: Math.hypot(x, y, z) / 2, unit: 'm²', perimeter: length + dist(b, a) };
}

/** The points after a click: a kind that has all its points (distance, height) starts again from the new one. */
export function withPoint(kind: MeasureKind, points: readonly Point[], p: Point): Point[] {
  return points.length >= MEASURE_POINTS[kind].max ? [p] : [...points, p];
}
