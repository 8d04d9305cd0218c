// What a measurement measures (pure), from its points in project coordinates (metres, z up),
// in the vendor's Measurement fields (startPoint, endPoint, length, height, width) and our `area`.
//   distance  2 points: length = the straight distance; height = |Δz|; width = the horizontal distance
//   polyline  2..1000 points: length = the sum of the segments
//   area      3..1000 points, a closed polygon: length = its perimeter; `area` (our extension field) =
//             its area (Newell's vector area, exact for a planar polygon)
//   height    2 points: height = |Δz|; length = the straight distance; width = the horizontal distance
import { invalidInput } from '../../../core/errors.ts';
import type { Point3D } from '../../annotations/index.ts';
import type { MeasurementKind } from './ports.ts';

export const MEASUREMENT_LIMITS = { points: 1000, nameChars: 255, cameraStateChars: 16 * 1024, perProject: 10_000 } as const;

const POINTS: Record<MeasurementKind, { min: number; max: number }> = {
  distance: { min: 2, max: 2 },
  height: { min: 2, max: 2 },
  polyline: { min: 2, max: MEASUREMENT_LIMITS.points },
  area: { min: 3, max: MEASUREMENT_LIMITS.points },
};

export interface Measured {
  startPoint: Point3D;
  endPoint: Point3D;
  length: number | null;
  height: number | null;
  width: number | null;
  /** Square metres, for an area measurement; null otherwise. */
  area: number | null;
}

const sub = (a: Point3D, b: Point3D): Point3D => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const norm = (v: Point3D) => Math.hypot(v.x, v.y, v.z);
const dist = (a: Point3D, b: Point3D) => norm(sub(a, b));

/** 400 when the points do not fit the kind (count, finite coordinates). */
export function checkPoints(kind: MeasurementKind, points: readonly Point3D[]): void {
  const { min, max } = POINTS[kind];
  if (points.length < min || points.length > max) {
    throw invalidInput(min === max ? `a ${kind} measurement has ${min} points` : `a ${kind} measurement has ${min} to ${max} points`, { field: 'points' });
  }
  if (!points.every((p) => [p.x, p.y, p.z].every(Number.isFinite))) throw invalidInput('points must be finite numbers', { field: 'points' });
}

/** The polygon's area: half the length of the sum of its edges' cross products (Newell). */
export function polygonArea(points: readonly Point3D[]): number {
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!, b = points[(i + 1) % points.length]!;
    x += (a.y - b.y) * (a.z + b.z);
    y += (a.z - b.z) * (a.x + b.x);
    z += (a.x - b.x) * (a.y + b.y);
  }
  return Math.hypot(x, y, z) / 2;
}

const pathLength = (points: readonly Point3D[], closed: boolean): number => {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += dist(points[i - 1]!, points[i]!);
  return closed ? sum + dist(points[points.length - 1]!, points[0]!) : sum;
};

export function measure(kind: MeasurementKind, points: readonly Point3D[]): Measured {
  const startPoint = points[0]!;
  const endPoint = points[points.length - 1]!;
  const d = sub(endPoint, startPoint);
  switch (kind) {
    case 'distance':
    case 'height':
      return { startPoint, endPoint, length: norm(d), height: Math.abs(d.z), width: Math.hypot(d.x, d.y), area: null };
    case 'polyline':
      return { startPoint, endPoint, length: pathLength(points, false), height: null, width: null, area: null };
    case 'area':
      return { startPoint, endPoint, length: pathLength(points, true), height: null, width: null, area: polygonArea(points) };
  }
}
