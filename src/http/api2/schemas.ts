// API 2 resource schemas (spec "API 2 resources"; vendor field shapes). They drive
// validation, serialisation and the OpenAPI document.
import { Type } from 'typebox';
import { DateTime, Name, Nullable, pathParams, StringEnum, NullableDateTime } from '../schema-helpers.ts';
import { ROLE_PERMISSIONS, LEGACY_PERMISSIONS, type LegacyPermission, type RolePermission, ACCOUNT_ROLES, type AccountRoleName } from '../../core/http-face.ts';

export const Color = Type.String({ pattern: '^#[0-9a-f]{6}$' });

export const Problem = Type.Object(
  {
    type: Type.Optional(Type.String()),
    status: Type.Integer(),
    title: Type.String(),
    detail: Type.Optional(Type.String()),
    errorCode: Type.Optional(Type.String()),
    errorValues: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

/** A string enum (one JSON-schema `enum`, typed as the union of its values). */

export const RolePermissionEnum = StringEnum<RolePermission>(ROLE_PERMISSIONS);
export const LegacyPermissionEnum = StringEnum<LegacyPermission>(LEGACY_PERMISSIONS);

export const Role = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('role'),
  name: Type.String(),
  description: Type.String(),
  color: Color,
  createdBy: Nullable(Type.String()),
  createdAt: NullableDateTime,
  updatedAt: NullableDateTime,
  permissions: Type.Array(RolePermissionEnum),
  legacyPermissions: Type.Array(LegacyPermissionEnum),
  isBase: Type.Boolean(),
});

const Description = Type.String({ maxLength: 4096 });

export const RoleCreate = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    color: Type.Optional(Color),
    permissions: Type.Optional(Type.Array(RolePermissionEnum, { minItems: 1, maxItems: 64 })),
    legacyPermissions: Type.Optional(Type.Array(LegacyPermissionEnum, { minItems: 1, maxItems: 32 })),
  },
  { additionalProperties: false },
);

export const RoleUpdate = Type.Object(
  {
    name: Type.Optional(Nullable(Name)),
    description: Type.Optional(Nullable(Description)),
    color: Type.Optional(Nullable(Color)),
    permissions: Type.Optional(Nullable(Type.Array(RolePermissionEnum, { maxItems: 64 }))),
    legacyPermissions: Type.Optional(Nullable(Type.Array(LegacyPermissionEnum, { maxItems: 32 }))),
  },
  { additionalProperties: false },
);

export const AccountRoleEnum = StringEnum<AccountRoleName>(ACCOUNT_ROLES);

export const User = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('user'),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  company: Type.String(),
  title: Type.String(),
  avatar: Type.String(),
  invitedBy: Nullable(Type.String()),
  invitedAt: NullableDateTime,
  accountRoles: Type.Optional(Type.Array(AccountRoleEnum)),
  pending: Type.Optional(Type.Literal(true, {
    description:
      'Our extension: present (true) on a user invited to the account who has not accepted yet. Until then the account sees only the ' +
      'address it wrote and the id; names, company and title are empty, and `accountRoles` are those accepting will give.',
  })),
});

export const Group = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('group'),
  name: Type.String(),
  description: Type.String(),
  color: Color,
  createdAt: NullableDateTime,
  createdBy: Nullable(Type.String()),
  updatedAt: NullableDateTime,
  userIds: Type.Array(Type.String()),
  accountIds: Type.Array(Type.String()),
});

const GroupName = Type.String({ minLength: 1, maxLength: 36 });

export const GroupCreate = Type.Object(
  { name: GroupName, description: Type.Optional(Description), color: Type.Optional(Color) },
  { additionalProperties: false },
);

export const GroupUpdate = Type.Object(
  { name: GroupName, description: Type.Optional(Nullable(Description)), color: Type.Optional(Nullable(Color)) },
  { additionalProperties: false },
);

export const RefString = Type.String({ minLength: 1, maxLength: 200 });
export const RefList = Type.Array(RefString, { minItems: 1, maxItems: 1000 });

export const AccountParams = Type.Object({ accountRef: RefString });
export const withParams = <K extends string>(...names: K[]) => pathParams<'accountRef' | K>(RefString, 'accountRef', ...names);

/** When and by whom an object was created, last changed and deleted (vendor "ModificationInfo": projects and work zones). */
export const ModificationInfo = Type.Object({
  createdAt: Type.Optional(DateTime),
  createdBy: Nullable(Type.String()),
  updatedAt: Type.Optional(DateTime),
  updatedBy: Type.Optional(Nullable(Type.String())),
  deletedAt: Type.Optional(DateTime),
  deletedBy: Type.Optional(Type.String()),
  isDeleted: Type.Boolean(),
});

/** A project's or a work zone's description (a role's and a group's: Description above, longer). */
export const ProjectDescription = Type.String({ maxLength: 1000 });
