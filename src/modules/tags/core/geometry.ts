// Tag geometry (spec "Tag geometry", all lengths in metres): axis-aligned boxes, oriented
// boxes and complex models, checked in pure code; the enclosing `boundingBox` is computed
// when absent and checked when present. Failures name the tag and the field.
import { invalidInput } from '../../../core/errors.ts';

/** minX, minY, minZ, maxX, maxY, maxZ */
export type Box = [number, number, number, number, number, number];

/** |‖q‖ − 1| allowed for a rotation quaternion (clients round to float32 and to a few decimals). */
export const QUATERNION_TOLERANCE = 1e-3;
/** Coordinates and sizes beyond ±1e9 m are refused: sums of such values could overflow to Infinity. */
export const MAX_COORDINATE = 1e9;
/** Boxes per AxisAlignedList (CONTRACT §8); the vendor's limits for the OrientedList arrays. */
export const MAX_AXIS_ALIGNED_BOXES = 1000;
export const MAX_ORIENTED_PARTS = 500;
/** groupedOBBList entries: a quaternion then 1 to 83 groups of six (vendor maxItems 505). */
export const MAX_GROUPED_LENGTH = 505;

/** Which tag, for error messages: its index in the request and its `data.id` when known. */
export interface TagWhere {
  index?: number;
  id?: string;
}

export class GeometryError extends Error {
  readonly field: string;
  readonly reason: string;

  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}

const fail = (field: string, reason: string): never => {
  throw new GeometryError(field, reason);
};

function numbers(v: unknown, n: number, field: string): number[] {
  if (!Array.isArray(v)) fail(field, `must be an array of ${n} numbers`);
  const a = v as unknown[];
  if (a.length !== n) fail(field, `must have ${n} numbers, not ${a.length}`);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${field}[${i}]`, 'must be a finite number');
    if (Math.abs(x as number) > MAX_COORDINATE) fail(`${field}[${i}]`, `must be within ±${MAX_COORDINATE}`);
  }
  return a as number[];
}

/** Six numbers, min ≤ max on each axis. */
export function checkAxisAligned(v: unknown, field: string): Box {
  const b = numbers(v, 6, field);
  for (let i = 0; i < 3; i++) {
    if (b[i]! > b[i + 3]!) fail(`${field}[${i}]`, `min (${b[i]}) is greater than max (${b[i + 3]})`);
  }
  return b as Box;
}

/** The axis-aligned box enclosing a box of centre p, rotation q (x, y, z, w) and full sizes s. */
export function encloseOriented(p: readonly number[], q: readonly number[], s: readonly number[]): Box {
  const n = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  const [x, y, z, w] = [q[0]! / n, q[1]! / n, q[2]! / n, q[3]! / n];
  // Rotation matrix of the unit quaternion; the half-extent on each world axis is Σ|R_ij|·s_j/2.
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  const out = [0, 0, 0, 0, 0, 0] as Box;
  for (let i = 0; i < 3; i++) {
    const row = r[i]!;
    const h = (Math.abs(row[0]!) * s[0]! + Math.abs(row[1]!) * s[1]! + Math.abs(row[2]!) * s[2]!) / 2;
    out[i] = p[i]! - h;
    out[i + 3] = p[i]! + h;
  }
  return out;
}

function checkQuaternion(q: readonly number[], field: string, offset: number): void {
  const n = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  if (!(Math.abs(n - 1) <= QUATERNION_TOLERANCE)) {
    fail(`${field}[${offset}..${offset + 3}]`, `the quaternion must be of unit length (±${QUATERNION_TOLERANCE}), not ${n}`);
  }
}

function checkSizes(s: readonly number[], field: string, offset: number): void {
  for (let i = 0; i < 3; i++) if (!(s[i]! > 0)) fail(`${field}[${offset + i}]`, 'a size must be positive');
}

/** Ten numbers: posX, posY, posZ, quatX, quatY, quatZ, quatW, sizeX, sizeY, sizeZ. Answers its enclosing box. */
export function checkOriented(v: unknown, field: string): Box {
  const o = numbers(v, 10, field);
  checkQuaternion(o.slice(3, 7), field, 3);
  checkSizes(o.slice(7, 10), field, 7);
  return encloseOriented(o.slice(0, 3), o.slice(3, 7), o.slice(7, 10));
}

/** quatX, quatY, quatZ, quatW, then groups of posX, posY, posZ, sizeX, sizeY, sizeZ. Answers the boxes' enclosures. */
export function checkGrouped(v: unknown, field: string): Box[] {
  if (!Array.isArray(v)) return fail(field, 'must be an array of numbers');
  const len = (v as unknown[]).length;
  if (len < 10 || (len - 4) % 6 !== 0) fail(field, `must hold a quaternion then groups of 6 numbers (4 + 6k, k ≥ 1), not ${len}`);
  if (len > MAX_GROUPED_LENGTH) fail(field, `must have at most ${MAX_GROUPED_LENGTH} numbers`);
  const a = numbers(v, len, field);
  const q = a.slice(0, 4);
  checkQuaternion(q, field, 0);
  const out: Box[] = [];
  for (let k = 4; k < len; k += 6) {
    checkSizes(a.slice(k + 3, k + 6), field, k + 3);
    out.push(encloseOriented(a.slice(k, k + 3), q, a.slice(k + 3, k + 6)));
  }
  return out;
}

function list(v: unknown, field: string, max: number, min = 0): unknown[] {
  if (!Array.isArray(v)) return fail(field, 'must be an array');
  const a = v as unknown[];
  if (a.length > max) fail(field, `must have at most ${max} entries, not ${a.length}`);
  if (a.length < min) fail(field, `must have at least ${min} entr${min === 1 ? 'y' : 'ies'}`);
  return a;
}

/** A konva model's `data` (its shapes as JSON text): 100,000 characters at most. */
export const MAX_KONVA_DATA_CHARS = 100_000;

/** A complex tag's `model`: its parts' enclosures (a 2D konva model has none). */
export function checkModel(v: unknown, field = 'model'): Box[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return fail(field, 'must be an object with a type');
  const m = v as Record<string, unknown>;
  const boxes: Box[] = [];
  if (m.type === 'AxisAlignedList') {
    for (const k of Object.keys(m)) if (k !== 'type' && k !== 'list') fail(`${field}.${k}`, 'is not a property of an AxisAlignedList');
    list(m.list, `${field}.list`, MAX_AXIS_ALIGNED_BOXES, 1).forEach((b, i) => boxes.push(checkAxisAligned(b, `${field}.list[${i}]`)));
    return boxes;
  }
  if (m.type === 'OrientedList') {
    for (const k of Object.keys(m)) {
      if (!['type', 'list', 'orientedBoundingBoxList', 'groupedOBBList'].includes(k)) fail(`${field}.${k}`, 'is not a property of an OrientedList');
    }
    if (m.list !== undefined) {
      list(m.list, `${field}.list`, MAX_ORIENTED_PARTS).forEach((b, i) => boxes.push(checkAxisAligned(b, `${field}.list[${i}]`)));
    }
    if (m.orientedBoundingBoxList !== undefined) {
      list(m.orientedBoundingBoxList, `${field}.orientedBoundingBoxList`, MAX_ORIENTED_PARTS).forEach((b, i) =>
        boxes.push(checkOriented(b, `${field}.orientedBoundingBoxList[${i}]`)),
      );
    }
    if (m.groupedOBBList !== undefined) {
      list(m.groupedOBBList, `${field}.groupedOBBList`, MAX_ORIENTED_PARTS).forEach((g, i) =>
        boxes.push(...checkGrouped(g, `${field}.groupedOBBList[${i}]`)),
      );
    }
    if (!boxes.length) fail(field, 'an OrientedList needs at least one box (list, orientedBoundingBoxList or groupedOBBList)');
    return boxes;
  }
  if (m.type === 'konva') {
    // A 2D shape (vendor TagDataModel2DKonva) on a page of a 2d list: no 3D enclosure.
    for (const k of Object.keys(m)) if (k !== 'type' && k !== 'data') fail(`${field}.${k}`, 'is not a property of a konva model');
    if (typeof m.data !== 'string' || m.data.length > MAX_KONVA_DATA_CHARS) fail(`${field}.data`, `must be a string of at most ${MAX_KONVA_DATA_CHARS} characters`);
    return boxes;
  }
  return fail(`${field}.type`, 'must be AxisAlignedList, OrientedList or konva');
}

export function union(boxes: readonly Box[]): Box {
  const out = [...boxes[0]!] as Box;
  for (const b of boxes) {
    for (let i = 0; i < 3; i++) {
      if (b[i]! < out[i]!) out[i] = b[i]!;
      if (b[i + 3]! > out[i + 3]!) out[i + 3] = b[i + 3]!;
    }
  }
  return out;
}

/** True when `outer` encloses `inner`, allowing float rounding (relative 1e-6, at least 1 µm). */
export function encloses(outer: readonly number[], inner: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    const eps = (v: number) => Math.max(1e-6, Math.abs(v) * 1e-6);
    if (outer[i]! > inner[i]! + eps(inner[i]!)) return false;
    if (outer[i + 3]! < inner[i + 3]! - eps(inner[i + 3]!)) return false;
  }
  return true;
}

export interface GeometryInput {
  boundingBox?: unknown;
  orientedBoundingBox?: unknown;
  model?: unknown;
}

/**
 * Checks a tag's geometry; answers its `boundingBox` (given, or computed from the oriented
 * box and model parts), or undefined for a tag without geometry. Throws GeometryError.
 */
export function tagBoundingBox(g: GeometryInput): Box | undefined {
  const parts: Box[] = [];
  if (g.orientedBoundingBox !== undefined) parts.push(checkOriented(g.orientedBoundingBox, 'orientedBoundingBox'));
  if (g.model !== undefined) parts.push(...checkModel(g.model));
  if (g.boundingBox === undefined) return parts.length ? union(parts) : undefined;
  const given = checkAxisAligned(g.boundingBox, 'boundingBox');
  if (parts.length && !encloses(given, union(parts))) {
    fail('boundingBox', `does not enclose the ${g.model !== undefined ? 'model' : 'oriented box'} (it should be ${JSON.stringify(union(parts))})`);
  }
  return given;
}

/** tagBoundingBox as the core's 400 invalid-input naming the tag and the field. */
export function withBoundingBox<T extends object>(data: T, where: TagWhere): T {
  try {
    const g = data as GeometryInput;
    const box = tagBoundingBox(g);
    return box && g.boundingBox === undefined ? { ...data, boundingBox: box } : data;
  } catch (e) {
    if (!(e instanceof GeometryError)) throw e;
    const who = [where.index !== undefined ? `#${where.index}` : null, where.id !== undefined ? `"${where.id}"` : null].filter(Boolean).join(' ');
    throw invalidInput(`Tag ${who || ''}: ${e.field} ${e.reason}`.replace('Tag :', 'Tag:'), {
      field: e.field,
      ...(where.index !== undefined ? { tagIndex: where.index } : {}),
      ...(where.id !== undefined ? { tagId: where.id } : {}),
    });
  }
}
