// Request schemas of the operator surface (CONTRACT §3).
import { Type } from 'typebox';
import { Name } from '../../../http/schema-helpers.ts';

export const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });
// The plain 8-4-4-4-12 form only: ajv's "uuid" format also accepts "urn:uuid:…",
// which the database's uuid type refuses.
const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const Capacity = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
const DateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const SeedUser = Type.Object(
  {
    id: Type.Optional(Uuid),
    email: Email,
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    firstName: Type.Optional(Type.String({ maxLength: 255 })),
    lastName: Type.Optional(Type.String({ maxLength: 255 })),
    company: Type.Optional(Type.String({ maxLength: 255 })),
    title: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const SeedSubscription = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Name,
    isTrial: Type.Optional(Type.Boolean()),
    isVa: Type.Optional(Type.Boolean()),
    isActive: Type.Optional(Type.Boolean()),
    scanCapacity: Type.Optional(Capacity),
    tagCapacity: Type.Optional(Capacity),
    geoImageCapacity: Type.Optional(Capacity),
    start: Type.Optional(DateTime),
    end: Type.Optional(DateTime),
    inviteAccountOwnerInNewProjects: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Emails = Type.Array(Email, { maxItems: 10_000 });

// Roles and groups: their fields named here (an unknown one is refused), their values
// checked by the core (src/modules/roles/core/seed-roles-and-groups.ts), which names the failing one.
const Text = Type.Union([Type.String({ maxLength: 4096 }), Type.Null()]);
const Strings = Type.Union([Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 }), Type.Null()]);
export const SeedRole = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Type.Optional(Text),
    description: Type.Optional(Text),
    color: Type.Optional(Text),
    permissions: Type.Optional(Strings),
    legacyPermissions: Type.Optional(Strings),
  },
  { additionalProperties: false },
);
export const SeedGroup = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Type.String({ maxLength: 255 }),
    description: Type.Optional(Type.String({ maxLength: 4096 })),
    color: Type.Optional(Type.String({ maxLength: 255 })),
    users: Type.Optional(Emails),
  },
  { additionalProperties: false },
);

export const SeedAccount = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Name,
    owner: Email,
    administrators: Type.Optional(Emails),
    projectManagers: Type.Optional(Emails),
    projectListers: Type.Optional(Emails),
    members: Type.Optional(Emails),
    subscriptions: Type.Optional(Type.Array(SeedSubscription, { maxItems: 1000 })),
    roles: Type.Optional(Type.Array(SeedRole, { maxItems: 1000 })),
    groups: Type.Optional(Type.Array(SeedGroup, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);

export const SeedDocument = Type.Object(
  {
    users: Type.Optional(Type.Array(SeedUser, { maxItems: 10_000 })),
    accounts: Type.Optional(Type.Array(SeedAccount, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
