// API 2 schemas of work zones and their copy (vendor "Workzone"; the copy's state is ours).
import { Type } from 'typebox';
import { Name, Nullable } from '../../../http/schema-helpers.ts';
import { ModificationInfo, ProjectDescription, RefString } from '../../../http/api2/schemas.ts';

export const Workzone = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('workzone'),
  projectId: Type.String(),
  parentId: Nullable(Type.String()),
  rootWorkzoneId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  roleIds: Type.Array(Type.String()),
  modificationInfo: ModificationInfo,
  statsInfo: Type.Object({ scanCount: Nullable(Type.Integer()), scanSize: Nullable(Type.Integer()), tagCount: Nullable(Type.Integer()) }),
  /** Ours (docs/projects.md "Work zones"): the caller's permissions in the zone, on one zone's get, create and update. */
  permissions: Type.Optional(Type.Array(Type.String())),
});

export const WorkzoneCreate = Type.Object(
  { name: Name, parentWorkzoneId: RefString, description: Type.Optional(Nullable(ProjectDescription)), coverUrl: Type.Optional(Type.String({ maxLength: 2048 })) },
  { additionalProperties: false },
);
export const WorkzoneUpdate = Type.Object(
  { name: Name, description: Type.Optional(Nullable(ProjectDescription)) },
  { additionalProperties: false },
);

export const WorkzoneCopy = Type.Object(
  {
    destinationName: Type.String({ minLength: 1, maxLength: 255 }),
    destinationProject: Type.Optional(Nullable(RefString)),
    destinationWorkzone: Type.Optional(Nullable(RefString)),
    destinationSubscription: Type.Optional(Nullable(RefString)),
  },
  { additionalProperties: false },
);

/** Our extension: the state of a work-zone copy, for the user who asked for it (docs/projects.md "Copy"). */
export const WorkzoneCopyStatus = Type.Object({
  jobId: Type.String(),
  state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  result: Type.Optional(
    Type.Object({
      projectId: Type.String(),
      workzoneId: Type.String(),
      copiedWorkzones: Type.Integer(),
      copiedFiles: Type.Integer(),
      /** Members of the source not copied because they hold another role in the destination. */
      skippedMembers: Type.Integer(),
    }),
  ),
  error: Type.Optional(Type.String()),
});
