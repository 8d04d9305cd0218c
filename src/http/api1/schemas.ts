// API 1 resource schemas (spec "API 1 resources"): API 1 ids, `{code, message}` errors.
import { Type } from 'typebox';
import { Nullable, pathParams, NullableDateTime } from '../schema-helpers.ts';

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
