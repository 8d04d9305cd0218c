// API 2 schemas of crops (vendor "Crop", "cropCreate", "cropUpdate").
import { Type } from 'typebox';
import { DateTime, Nullable } from '../../../http/schema-helpers.ts';
import { RefString } from '../../../http/api2/schemas.ts';

const Text = Type.String({ maxLength: 100_000 });
const cropFields = {
  workzoneId: RefString,
  name: Type.String({ minLength: 1, maxLength: 255 }),
  crop: Text,
  actualCrop: Text,
  rotation: Text,
  layers: Type.Optional(Nullable(Text)),
  cameraType: Type.String({ maxLength: 64 }),
  cameraState: Text,
  scan: Type.String({ maxLength: 1000 }),
  thumbnailBlobName: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  oview: Type.Optional(Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }))),
  settings: Type.Optional(Nullable(Text)),
};
export const CropWrite = Type.Object(cropFields, { additionalProperties: false });

export const Crop = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('crop'),
  workzoneId: Type.String(),
  name: Type.String(),
  crop: Type.String(),
  actualCrop: Type.String(),
  rotation: Type.String(),
  layers: Nullable(Type.String()),
  cameraType: Type.String(),
  cameraState: Type.String(),
  scan: Type.String(),
  thumbnailBlobName: Nullable(Type.String()),
  thumbnailUrl: Nullable(Type.String()),
  oview: Nullable(Type.Integer()),
  settings: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: DateTime,
  updatedBy: Type.String(),
  updatedAt: DateTime,
});
