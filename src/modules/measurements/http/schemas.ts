// API 2 shapes of measurements: the vendor's "Measurement" (with our fields kind, points and
// area added) and our write body (docs/annotations.md "Measurements").
import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schema-helpers.ts';
import { RefString } from '../../../http/api2/schemas.ts';
import { MEASUREMENT_KINDS, MEASUREMENT_LIMITS as L, type MeasurementKind } from '../index.ts';

/** A point in project coordinates (metres, z up). */
const Point3D = Type.Object(
  { x: Type.Number({ format: 'double' }), y: Type.Number({ format: 'double' }), z: Type.Number({ format: 'double' }) },
  { additionalProperties: false },
);
const Kind = StringEnum<MeasurementKind>(MEASUREMENT_KINDS);

export const MeasurementWrite = Type.Object(
  {
    workzoneId: RefString,
    name: Type.String({ minLength: 1, maxLength: L.nameChars }),
    kind: Kind,
    points: Type.Array(Point3D, { minItems: 2, maxItems: L.points, description: 'in project coordinates (metres, z up)' }),
    cameraState: Type.Optional(Nullable(Type.String({ maxLength: L.cameraStateChars }))),
    scanId: Type.Optional(Nullable(RefString)),
  },
  { additionalProperties: false },
);

export const Measurement = Type.Object({
  id: Type.String(),
  type: Type.Literal('measurement'),
  workzoneId: Type.String(),
  name: Type.String(),
  startPoint: Nullable(Point3D),
  endPoint: Nullable(Point3D),
  length: Nullable(Type.Number()),
  height: Nullable(Type.Number()),
  width: Nullable(Type.Number()),
  thumbnailBlobName: Nullable(Type.String()),
  cameraState: Nullable(Type.String()),
  scanId: Nullable(Type.String()),
  createdAt: Nullable(DateTime),
  createdBy: Nullable(Type.String()),
  isDeleted: Type.Boolean(),
  deletedAt: Nullable(DateTime),
  // Ours: what the measurement is, its points, and an area measurement's area (m²).
  kind: Kind,
  points: Type.Array(Point3D),
  area: Nullable(Type.Number()),
  updatedAt: DateTime,
  updatedBy: Nullable(Type.String()),
});
