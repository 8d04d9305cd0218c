// API 2 schemas of the users module: an invitation body and the caller's invitations (the
// user itself, src/http/api2/schemas.ts User, is answered by the members module too).
import { Type } from 'typebox';
import { DateTime, Nullable } from '../../../http/schema-helpers.ts';
import { AccountRoleEnum } from '../../../http/api2/schemas.ts';

/** Our extension: a pending invitation of the caller's (GET /api/2/me/invitations). */
export const MyInvitation = Type.Object({
  accountId: Type.String({ description: 'The account URN' }),
  accountName: Type.String(),
  roles: Type.Array(AccountRoleEnum),
  invitedBy: Nullable(Type.String({ description: 'The inviter as he names himself (names, else e-mail)' })),
  invitedAt: DateTime,
});

const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' });

export const InviteBody = Type.Array(
  Type.Object(
    { email: Email, roles: Type.Optional(Type.Array(AccountRoleEnum, { uniqueItems: true, maxItems: 3 })) },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 1000 },
);
