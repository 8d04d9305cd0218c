// Request schemas of tags shared by both generations (spec TagData, cameraState, "Tag
// geometry"; vendor TagData field limits). Shapes only: geometry rules live in the core.
import { Type } from 'typebox';

const Num = Type.Number();
const Vec = (n: number) => Type.Array(Num, { minItems: n, maxItems: n });

export const CameraState = Type.Object(
  {
    position: Type.Optional(Vec(3)), target: Type.Optional(Vec(3)), rotation: Type.Optional(Vec(3)),
    overviewAngle: Type.Optional(Type.String({ maxLength: 10 })), viewDirection: Type.Optional(Type.String({ maxLength: 10 })),
    camType: Type.Optional(Type.String({ maxLength: 10 })),
    far: Type.Optional(Num), near: Type.Optional(Num), fov: Type.Optional(Num), overviewScale: Type.Optional(Num),
    rotationQuaternion: Type.Optional(Vec(4)), ortho: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

// The model's arrays are checked by the core (it names the failing box); here only their outline.
export const TagModel = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 50 }),
    list: Type.Optional(Type.Array(Type.Array(Num), { maxItems: 1000 })),
    orientedBoundingBoxList: Type.Optional(Type.Array(Type.Array(Num), { maxItems: 500 })),
    groupedOBBList: Type.Optional(Type.Array(Type.Array(Num), { maxItems: 500 })),
    data: Type.Optional(Type.String({ maxLength: 100_000 })),
  },
  { additionalProperties: false },
);

const tagDataFields = {
  subId: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  uuid: Type.Optional(Type.String({ format: 'uuid' })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  pageId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  pageLinkId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  tagLinkIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 })),
  boundingBox: Type.Optional(Vec(6)),
  orientedBoundingBox: Type.Optional(Vec(10)),
  model: Type.Optional(TagModel),
  class: Type.Optional(Type.String({ maxLength: 50 })),
  cameraState: Type.Optional(CameraState),
  unit: Type.Optional(Num),
  functionalSystem: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  url: Type.Optional(Type.String({ maxLength: 1000, format: 'uri' })),
  confidence: Type.Optional(Num),
  scanUuids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 10000 })),
  needValidation: Type.Optional(Type.Boolean()),
  nature: Type.Optional(Type.Union([Type.Literal('AI'), Type.Literal('file'), Type.Literal('manual'), Type.Literal('model')])),
  // Limits (10 custom fields, 50 metadata values) are the core's, so the answer names the tag.
  customFields: Type.Optional(Type.Array(
    Type.Object({ name: Type.String({ maxLength: 50 }), value: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }),
    { maxItems: 1000 },
  )),
  metadata: Type.Optional(Type.Array(
    Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }), value: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }),
    { maxItems: 1000 },
  )),
};

/** API 2 TagData: `id` required (vendor). */
export const TagData = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }), ...tagDataFields }, { additionalProperties: false });
/** API 1 update values: TagData without metadata (the stored metadata stays). */
const { metadata: _metadata, ...withoutMetadata } = tagDataFields;
export const TagDataApi1Update = Type.Object({ id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), ...withoutMetadata }, { additionalProperties: false });
/** API 1 TagData: `id` optional (the tag's own id when absent). */
export const TagDataApi1 = Type.Object({ id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), ...tagDataFields }, { additionalProperties: false });

export const MetadataDefinition = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 255 }), name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const Detect = Type.Object(
  {
    classes: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }),
    fileIds: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);

/** Tag writes are large (a bulk of 50,000 tags): their routes accept bodies up to this. */
export const TAG_BODY_LIMIT = 96 * 1024 * 1024;
