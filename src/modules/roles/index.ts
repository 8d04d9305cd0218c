// The roles module's public face (spec "Role"): the custom roles of an account, the base roles
// every account gets, and the seed document's roles and groups.
export { createBaseRoles, roleFields } from './core/roles.ts';
export { seedRolesAndGroups } from './core/seed-roles-and-groups.ts';
export type { RoleInput, Roles } from './core/roles.ts';
export type { RoleFields, RoleRecord, RolesRepo, RolesRepos } from './core/ports.ts';
