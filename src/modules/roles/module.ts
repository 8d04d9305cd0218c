// The roles module's contract (src/modules/contract.ts): the custom roles of an account, their
// repository, API 1's and API 2's routes, their events (with the caches they make stale) and
// error codes; its seed extension applies the seed document's roles and groups.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { cacheScope } from '../../core/events/invalidation.ts';
import { createRoles, type Roles } from './core/roles.ts';
import { seedRolesAndGroups } from './core/seed-roles-and-groups.ts';
import type { RolesRepos } from './core/ports.ts';
import type { RoleEventType } from './core/events.ts';
import { ROLE_ERROR_CODES } from './core/errors.ts';
import type { CacheRegistry } from '../../core/cache/registry.ts';
import { rolesRepo } from './postgres/roles.ts';
import { roleRoutes as api1Roles } from './http/api1.ts';
import { roleRoutes as api2Roles } from './http/api2.ts';
import { ROLE_API1_OPERATIONS, ROLE_API2_OPERATIONS } from './http/operations.ts';

export interface RolesNeeds {
  store: Store<Repos & RolesRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  caches: CacheRegistry;
  config: { roleListCacheEntries: number };
}

/** The role and the account's role list (src/core/events/invalidation.ts cacheScope). */
const roleAndList = (e: { accountId: string | null; data: { roleId: string } }) => [cacheScope.role(e.data.roleId), ...(e.accountId ? [cacheScope.roles(e.accountId)] : [])];

export const rolesModule = defineModule<RolesNeeds, { roles: Roles }, RolesRepos, RoleEventType, keyof typeof ROLE_ERROR_CODES>({
  name: 'roles',
  feature: {
    name: 'roles',
    create: ({ store, clock, ids, authorizer, caches, config }) => ({
      offers: { roles: createRoles({ store, clock, ids, authorizer, caches, maxLists: config.roleListCacheEntries }) },
      seedExtensions: [seedRolesAndGroups(ids, clock)],
    }),
  },
  repositories: { roles: rolesRepo },
  routes: { api1: api1Roles, api2: api2Roles },
  operations: { api1: ROLE_API1_OPERATIONS, api2: ROLE_API2_OPERATIONS },
  invalidation: {
    'role.created': (e) => (e.accountId ? [cacheScope.roles(e.accountId)] : []),
    // Members holding the role see its new permissions at once; the account's project lists show them.
    'role.updated': (e) => [...roleAndList(e), ...(e.accountId ? [cacheScope.projectLists(e.accountId)] : [])],
    // A role in use in a project cannot be deleted (role-used): no list held it.
    'role.deleted': roleAndList,
  },
  errorCodes: ROLE_ERROR_CODES,
});
