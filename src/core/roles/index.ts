// The roles module: the custom roles of an account, and the base roles every account gets.
// Offers: Roles, createBaseRoles, the seed document's roles and groups (a seed extension). Needs: the store, the clock, ids, the authorizer.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createBaseRoles, createRoles, roleFields } from './roles.ts';
export { seedRolesAndGroups } from './seed-roles-and-groups.ts';
export type { RoleInput, Roles } from './roles.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { rolesModule } from './module.ts';
