// API 2 schemas of files, uploads, blobs and covers (vendor "File" per category, "bulk-files",
// "FileFormat", "filesTransformationUpdate"); a crop's are the crops module's (src/modules/crops/http/schemas.ts).
import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum, NullableDateTime } from '../../../http/schema-helpers.ts';
import { CATEGORIES } from '../core/formats.ts';
import { RefString } from '../../../http/api2/schemas.ts';

const Size = Type.Integer({ minimum: 0, maximum: 5 * 1024 ** 4 });

const Vector3D = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() }, { additionalProperties: false });
const QuaternionT = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number(), w: Type.Number() }, { additionalProperties: false });

/** One file of a sign or register call; the sign answer's fields (url, blobName) may be sent back as they are. */
export const UploadItem = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  extension: Type.String({ minLength: 1, maxLength: 17 }),
  size: Size,
  md5: Type.String({ minLength: 1, maxLength: 64 }),
  blobName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  url: Type.Optional(Type.String({ maxLength: 8192 })),
  // The vendor's own sign/register samples send `isAttachment: false`; attachments (of annotations)
  // are out of scope, so only false is accepted (docs/files.md).
  isAttachment: Type.Optional(Type.Literal(false)),
});
export const UploadItems = Type.Array(UploadItem, { minItems: 1, maxItems: 1000 });

export const CoverItem = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  extension: StringEnum(['png', 'jpg', 'jpeg']),
  size: Type.Integer({ minimum: 1, maximum: 10 * 1024 * 1024 }),
  md5: Type.String({ minLength: 1, maxLength: 64 }),
  blobName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  url: Type.Optional(Type.String({ maxLength: 8192 })),
});

const Signed = Type.Object({
  name: Type.String(), extension: Type.String(), size: Type.Integer(), md5: Type.String(), url: Type.String(), blobName: Type.String(),
});
export const SignAnswer = Type.Object({ provider: Type.String(), expiresIn: Type.Integer(), files: Type.Array(Signed) });
export const CoverSignAnswer = Type.Object({ provider: Type.String(), expiresIn: Type.Integer(), file: Signed });

export const Registered = Type.Object({
  name: Type.String(), extension: Type.String(), size: Type.Integer(), md5: Type.String(), id: Type.String(), blobName: Type.String(),
});

export const FileFormat = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  extension: Type.String(),
  icon: Type.String(),
  canBeUploaded: Type.Boolean(),
  shareUrlType: Type.String(),
  categoryName: Type.String(),
  categoryDescription: Type.String(),
  categoryType: StringEnum(CATEGORIES),
});

/** Every category's fields in one object: `type` says which ones are present (vendor File oneOf). */
export const File = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: StringEnum(CATEGORIES),
  projectId: Type.String(),
  workzoneId: Type.String(),
  name: Type.String(),
  extension: Type.String(),
  formatId: Type.String(),
  size: Type.Integer(),
  md5: Type.String(),
  createdAt: DateTime,
  createdBy: Type.String(),
  updatedAt: NullableDateTime,
  updatedBy: Nullable(Type.String()),
  blob: Type.String(),
  blobName: Type.String(),
  url: Type.String(),
  importedAt: Type.Optional(NullableDateTime),
  translation: Type.Optional(Nullable(Vector3D)),
  rotation: Type.Optional(Nullable(QuaternionT)),
  scale: Type.Optional(Nullable(Vector3D)),
  contentId: Type.Optional(Type.String()),
  resolution: Type.Optional(Type.Object({ w: Type.Integer(), h: Type.Integer() })),
  urlPreview: Type.Optional(Type.String()),
  panoramaWidth: Type.Optional(Type.Number()),
  panoramaHeight: Type.Optional(Type.Number()),
});

export const FileUpdate = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });

export const Transformation = Type.Array(
  Type.Object(
    {
      id: RefString,
      translation: Type.Optional(Nullable(Vector3D)),
      rotation: Type.Optional(Nullable(QuaternionT)),
      scale: Type.Optional(Nullable(Vector3D)),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 1000 },
);

export const BlobNames = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 });
export const BlobUrls = Type.Object({ expiresIn: Type.Integer(), urls: Type.Record(Type.String(), Type.String()) });
