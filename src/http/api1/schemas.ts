// API 1 resource schemas (spec "API 1 resources"): API 1 ids, `{code, message}` errors.
import { Type } from 'typebox';
import { DateTime, Nullable, pathParams, NullableDateTime } from '../schema-helpers.ts';

export const Api1Id = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-zA-Z0-9_-]+$' });

export const Api1Error = Type.Object({ code: Type.String(), message: Type.String() });

export const Role = Type.Object({
  id: Type.String(),
  type: Type.Literal('role'),
  name: Type.String(),
  description: Type.String(),
  color: Type.String(),
  createdAt: NullableDateTime,
  updatedAt: NullableDateTime,
  permissions: Type.Array(Type.String()),
  accountIds: Type.Array(Type.String()),
});

export const Group = Type.Object({
  id: Type.String(),
  type: Type.Literal('group'),
  name: Type.String(),
  description: Type.String(),
  color: Type.String(),
  createdAt: NullableDateTime,
  createdBy: Nullable(Type.String()),
  updatedAt: NullableDateTime,
  userIds: Type.Array(Type.String()),
  accountIds: Type.Array(Type.String()),
});

// Path ids are checked by the reference parser, which answers invalid-<type>-urn.
const PathId = Type.String({ minLength: 1, maxLength: 200, description: 'API 1 id or UUID' });
export const AccountParams = Type.Object({ accountId: PathId });
export const withParams = <K extends string>(...names: K[]) => pathParams<'accountId' | K>(PathId, 'accountId', ...names);

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
