// A tag's box as the console's forms edit it (new tag, and a picked tag's box): an
// axis-aligned box (min and max corners: boundingBox) or an oriented one (centre, full
// sizes and a rotation about Z: orientedBoundingBox, the service computes the enclosing
// boundingBox). Pure rules, shared by both forms and checked without a browser.
import { degreesAboutZ, quaternionAboutZ } from './geometry.ts';

export type BoxKind = 'axis' | 'oriented';
export const AXIS_FIELDS = ['Min X', 'Min Y', 'Min Z', 'Max X', 'Max Y', 'Max Z'] as const;
export const ORIENTED_FIELDS = ['Centre X', 'Centre Y', 'Centre Z', 'Size X', 'Size Y', 'Size Z', 'Rotation about Z (degrees)'] as const;

export const labelsOf = (kind: BoxKind): readonly string[] => (kind === 'axis' ? AXIS_FIELDS : ORIENTED_FIELDS);

/** The geometry fields the form's numbers describe, or the reason they are not a box. */
export function boxOf(kind: BoxKind, numbers: readonly string[]): { boundingBox: number[] } | { orientedBoundingBox: number[] } | string {
  const labels = labelsOf(kind);
  const n = numbers.map((v) => (v.trim() === '' ? NaN : Number(v)));
  const bad = n.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) return `${labels[bad]} must be a number.`;
  if (kind === 'axis') {
    for (let a = 0; a < 3; a++) if (n[a]! > n[a + 3]!) return `${AXIS_FIELDS[a]} must not exceed ${AXIS_FIELDS[a + 3]}.`;
    return { boundingBox: n };
  }
  const [cx, cy, cz, sx, sy, sz, degrees] = n as [number, number, number, number, number, number, number];
  if (sx <= 0 || sy <= 0 || sz <= 0) return 'The sizes must be greater than 0.';
  return { orientedBoundingBox: [cx, cy, cz, ...quaternionAboutZ(degrees), sx, sy, sz] };
}

/** Tilt below which a quaternion counts as a rotation about Z only (its X and Y parts). */
const TILT = 1e-9;

/**
 * The form's starting fields for a tag's stored box: oriented when it has an oriented box
 * (null fields with the reason when that box is tilted: the form turns about Z only), else
 * axis-aligned from boundingBox, else a unit box at the origin.
 */
export function boxFieldsOf(data: { boundingBox?: number[] | null; orientedBoundingBox?: number[] | null }): { kind: BoxKind; numbers: string[]; tilted: string | null } {
  const o = data.orientedBoundingBox;
  const text = (v: number) => String(+v.toFixed(6));
  if (o && o.length === 10) {
    const [cx, cy, cz, qx, qy, qz, qw, sx, sy, sz] = o as [number, number, number, number, number, number, number, number, number, number];
    const tilted = Math.abs(qx) > TILT || Math.abs(qy) > TILT ? 'This box is tilted (turned about X or Y): the form turns boxes about Z only, so its rotation cannot be edited here.' : null;
    return { kind: 'oriented', numbers: [cx, cy, cz, sx, sy, sz, degreesAboutZ({ z: qz, w: qw })].map(text), tilted };
  }
  const b = data.boundingBox;
  if (b && b.length === 6) return { kind: 'axis', numbers: b.map(text), tilted: null };
  return { kind: 'axis', numbers: ['0', '0', '0', '1', '1', '1'], tilted: null };
}

/** The tag's data with its box replaced: the other kind is dropped (an oriented box's enclosure is the service's to compute). */
export function withBox<T extends { boundingBox?: unknown; orientedBoundingBox?: unknown }>(data: T, box: { boundingBox: number[] } | { orientedBoundingBox: number[] }): T {
  const { boundingBox: _b, orientedBoundingBox: _o, ...rest } = data;
  return { ...rest, ...box } as T;
}
