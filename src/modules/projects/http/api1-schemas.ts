// API 1 schemas of projects (spec "API 1 resources": API 1 ids): a project with its work
// zones and members, the answer of API 1's project routes.
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../../http/schema-helpers.ts';

/** A project's or a work zone's location. */
export const Location = Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() }));

/** A work zone as a project's details show it. */
export const Workzone = Type.Object({
  projectId: Type.String(), id: Type.String(), uuid: Type.String(), type: Type.Literal('workzone'), root: Type.Boolean(),
  name: Type.String(), roleIds: Type.Array(Type.String()), description: Type.String(), imageBlob: Nullable(Type.String()),
  location: Location, startAt: NullableDateTime, createdBy: Nullable(Type.String()), createdAt: DateTime,
  updatedAt: DateTime, updatedBy: Nullable(Type.String()),
  userContributors: Type.Array(Type.Object({ userId: Type.String(), roleId: Type.String() })),
  groupContributors: Type.Array(Type.Object({ groupId: Type.String(), roleId: Type.String() })),
  scanCount: Type.Integer(), scanSize: Type.Integer(),
});

/** A project with its work zones and members (API 1 "project details"). */
export const Project = Type.Object({
  id: Type.String(), type: Type.Literal('project'), accountId: Type.String(), planId: Type.String(), isdemo: Type.Boolean(),
  region: Type.String(), projectIdV0: Type.String(), projectIdDefault: Type.String(), ownerId: Type.String(),
  createdAt: DateTime, createdBy: Nullable(Type.String()), updatedAt: DateTime, updatedBy: Nullable(Type.String()),
  name: Type.String(), description: Type.String(), location: Location, isDeleted: Type.Boolean(),
  deletedBy: Nullable(Type.String()), deletedAt: NullableDateTime, scanCount: Type.Integer(), scanSize: Type.Integer(),
  workzoneCount: Type.Integer(), rootWorkzoneCount: Type.Integer(), userIds: Type.Array(Type.String()),
  groupIds: Type.Array(Type.String()), roleIds: Type.Array(Type.String()),
  settings: Type.Object({ spatialReference: Nullable(Type.Object({ authName: Type.String(), code: Type.String() })) }),
  workzones: Type.Array(Workzone),
  permissions: Type.Object({ administrator: Type.Boolean(), manager: Type.Boolean(), contributor: Type.Boolean() }),
});
