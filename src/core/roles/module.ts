// The roles module's descriptor (src/core/modules.ts): custom roles, and the seed
// document's roles and groups (each seeded account also gets its base roles).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import { createRoles, type Roles } from './roles.ts';
import { seedRolesAndGroups } from './seed-roles-and-groups.ts';

export interface RolesNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
}

export const rolesModule: FeatureModule<RolesNeeds, { roles: Roles }> = {
  name: 'roles',
  create: ({ store, clock, ids, authorizer }) => ({
    offers: { roles: createRoles({ store, clock, ids, authorizer }) },
    seedExtensions: [seedRolesAndGroups(ids, clock)],
  }),
};
