// API 2 shapes of annotations (the vendor's "Annotation", "AnnotationComment", "annotationCreate",
// "annotationUpdate", "annotationCommentCreate"), with our input limits (docs/annotations.md).
import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schema-helpers.ts';
import { RefString } from '../../../http/api2/schemas.ts';
import { ANNOTATION_LIMITS as L, ANNOTATION_TYPES, type AnnotationType } from '../index.ts';

export const Point3D = Type.Object(
  { x: Type.Number({ format: 'double' }), y: Type.Number({ format: 'double' }), z: Type.Number({ format: 'double' }) },
  { additionalProperties: false },
);
const AnnotationTypeEnum = StringEnum<AnnotationType>(ANNOTATION_TYPES);
/** The vendor's SavedViewData: an object with a `type`, the rest the viewer's own. */
const SavedView = Type.Object({ type: Type.String({ maxLength: 100 }) }, { additionalProperties: true });
const Priority = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(5), Type.Literal(8), Type.Literal(10)]);
const BlobNames = Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 100, description: 'blob names (attachments are not supported: a non-empty list is refused)' });

const writeFields = {
  annotationType: AnnotationTypeEnum,
  title: Type.String({ minLength: 1, maxLength: L.titleChars }),
  description: Type.Optional(Nullable(Type.String({ maxLength: L.descriptionChars }))),
  assignedTo: Type.Optional(Type.Array(RefString, { maxItems: L.assignees })),
  dueDate: Type.Optional(Nullable(Type.String({ format: 'date' }))),
  priority: Type.Optional(Nullable(Priority)),
  imgBlobName: Type.Optional(Nullable(Type.String({ maxLength: L.imgBlobNameChars }))),
  position: Point3D,
  normal: Type.Optional(Nullable(Point3D)),
  savedView: Type.Optional(Nullable(SavedView)),
  modelElementGUIDs: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: L.modelElementGUIDChars }), { maxItems: L.modelElementGUIDs }))),
  labels: Type.Optional(Type.Array(Type.String({ maxLength: L.labelChars }), { maxItems: L.labels })),
  attachments: Type.Optional(BlobNames),
};

export const AnnotationCreate = Type.Object(
  { workzoneId: RefString, ...writeFields, savedView: Nullable(SavedView) },
  { additionalProperties: false },
);
/** The vendor's annotationUpdate; `workzoneId` (optional) is our extension: it moves the annotation. */
export const AnnotationUpdate = Type.Object({ workzoneId: Type.Optional(RefString), ...writeFields }, { additionalProperties: false });

export const AnnotationCommentCreate = Type.Object(
  { description: Type.String({ minLength: 1, maxLength: L.commentChars }), attachments: Type.Optional(BlobNames) },
  { additionalProperties: false },
);

const ModificationInfo = Type.Object({
  createdAt: DateTime,
  createdBy: Type.String(),
  updatedAt: Type.Optional(DateTime),
  updatedBy: Type.Optional(Type.String()),
  isDeleted: Type.Boolean(),
});

export const AnnotationComment = Type.Object({
  id: Type.String(),
  type: Type.Literal('annotation-comment'),
  modificationInfo: ModificationInfo,
  attachedTo: Type.String(),
  description: Nullable(Type.String()),
  descriptionText: Type.String(),
  attachments: Nullable(Type.Array(Type.Never())),
});

export const Annotation = Type.Object({
  id: Type.String(),
  type: Type.Literal('annotation'),
  workzoneId: Type.String(),
  modificationInfo: ModificationInfo,
  annotationType: AnnotationTypeEnum,
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  descriptionText: Type.String(),
  assignedTo: Nullable(Type.Array(Type.String())),
  dueDate: Nullable(Type.String({ format: 'date' })),
  priority: Nullable(Type.Integer()),
  number: Nullable(Type.Integer()),
  position: Nullable(Point3D),
  normal: Nullable(Point3D),
  imgBlobName: Nullable(Type.String()),
  savedView: Nullable(SavedView),
  modelElementGUIDs: Nullable(Type.Array(Type.String())),
  comments: Nullable(Type.Array(AnnotationComment)),
  attachments: Nullable(Type.Array(Type.Never())),
  labels: Type.Array(Type.String()),
  integrations: Type.Array(Type.Object({
    type: Type.String(),
    url: Nullable(Type.String()),
    status: Type.Union([Type.Literal('pending'), Type.Literal('created'), Type.Literal('failed')], {
      description: 'Scanbase extension: pending at the third party (url null), created (url set), or failed for good (url null; `failure` says why; a new bulk-create-integration request initialises it again)',
    }),
    failure: Nullable(Type.String({ description: 'Scanbase extension: why the link could not be created (failed), or why the last attempt did not answer (pending); null otherwise' })),
  })),
});

export const ReadQuery = Type.Object({
  includeComments: Type.Optional(Type.Boolean({ default: false })),
  includeAttachments: Type.Optional(Type.Boolean({ default: false })),
});
