// API 1 schemas of accounts and their subscriptions (spec "API 1 resources": API 1 ids).
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../../http/schema-helpers.ts';

export const Account = Type.Object({
  id: Type.String(),
  type: Type.Literal('account'),
  name: Type.String(),
  createdAt: DateTime,
  createdBy: Nullable(Type.String()),
  ownerId: Type.String(),
  permissions: Type.Object({ owner: Type.Boolean(), admin: Type.Boolean(), manager: Type.Boolean(), all: Type.Boolean() }),
});

export const Subscription = Type.Object({
  id: Type.String(),
  type: Type.Literal('subscription'),
  accountId: Type.String(),
  isVa: Type.Boolean(),
  isActive: Type.Boolean(),
  isTrial: Type.Boolean(),
  name: Nullable(Type.String()),
  start: NullableDateTime,
  tagCapacity: Type.Integer(),
  scanCapacity: Type.Integer(),
  createdAt: DateTime,
  UpdatedAt: DateTime,
});
