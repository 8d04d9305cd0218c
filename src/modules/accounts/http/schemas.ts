// API 2 schemas of accounts and their subscriptions (vendor "Account", "Subscription"; the
// usage and the notices are ours).
import { Type } from 'typebox';
import { DateTime, Name } from '../../../http/schema-helpers.ts';

export const AccountPermissions = Type.Object({
  isOwner: Type.Boolean(),
  isAdmin: Type.Boolean(),
  isManager: Type.Boolean(),
  isProjectLister: Type.Boolean(),
});

export const AccountRegion = Type.Object({
  id: Type.String(),
  name: Type.String(),
  provider: Type.Union([Type.Literal('azure'), Type.Literal('s3'), Type.Literal('minio')]),
  selected: Type.Optional(Type.Boolean()),
  default: Type.Optional(Type.Boolean()),
});

export const Subscription = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('subscription'),
  accountId: Type.String(),
  isVa: Type.Boolean(),
  isActive: Type.Boolean(),
  isTrial: Type.Boolean(),
  name: Type.Optional(Type.String()),
  start: Type.Optional(DateTime),
  end: Type.Optional(DateTime),
  tagCapacity: Type.Integer(),
  geoImageCapacity: Type.Integer(),
  scanCapacity: Type.Integer(),
  createdAt: Type.Optional(DateTime),
  updatedAt: Type.Optional(DateTime),
  inviteAccountOwnerInNewProjects: Type.Optional(Type.Boolean()),
});

const Used = Type.Object({ used: Type.Integer(), allowed: Type.Integer() });
/** Our extension: a subscription's usage (scans and geo images count live pending uploads too, as the capacity checks do). */
export const SubscriptionUsage = Type.Object({ subscriptionId: Type.String(), scans: Used, geoImages: Used, tags: Used, storageBytes: Used });

/** Ours (GET …/accounts/{a}/notices): a fact about the deployment an account's people should see (../core/notices.ts). */
export const AccountNotice = Type.Object({
  code: Type.Union([Type.Literal('mail-not-sent'), Type.Literal('mail-to-log')]),
  severity: Type.Union([Type.Literal('warning'), Type.Literal('info')]),
  title: Type.String(),
  message: Type.String(),
});

export const Account = Type.Object({
  id: Type.String(),
  urn: Type.String(),
  api1Id: Type.String(),
  type: Type.Literal('account'),
  name: Type.String(),
  createdAt: Type.Optional(DateTime),
  updatedAt: Type.Optional(DateTime),
  ownerId: Type.String(),
  permissions: AccountPermissions,
  subscriptions: Type.Array(Subscription),
  regions: Type.Array(AccountRegion),
});

export const SubscriptionPatch = Type.Object(
  { name: Type.Optional(Name), inviteAccountOwnerInNewProjects: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
