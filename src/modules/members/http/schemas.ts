// API 2 schemas of project members (vendor addProjectMembers, removeMembersFromProject, our members/access).
import { Type } from 'typebox';
import { Nullable, NullableDateTime } from '../../../http/schema-helpers.ts';
import { RefString } from '../../../http/api2/schemas.ts';

const Expiration = Type.Optional(Nullable(Type.String({ format: 'date-time' })));
export const AddMembers = Type.Object(
  {
    workzones: Type.Optional(Nullable(Type.Array(RefString, { maxItems: 1000 }))),
    members: Type.Object(
      {
        users: Type.Optional(
          Type.Array(
            Type.Object({ user: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }), role: RefString, expirationDate: Expiration }, { additionalProperties: false }),
            { maxItems: 1000 },
          ),
        ),
        groups: Type.Optional(
          Type.Array(Type.Object({ group: RefString, role: RefString, expirationDate: Expiration }, { additionalProperties: false }), { maxItems: 1000 }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const BulkRemove = Type.Object(
  { users: Type.Optional(Type.Array(RefString, { maxItems: 1000 })), groups: Type.Optional(Type.Array(RefString, { maxItems: 1000 })) },
  { additionalProperties: false },
);

export const MemberAccess = Type.Object({
  member: Type.Object({
    type: Type.Union([Type.Literal('user'), Type.Literal('group')]),
    id: Type.String(),
    email: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
  }),
  roleId: Type.String(),
  expirationDate: NullableDateTime,
  workzoneIds: Type.Array(Type.String()),
});
