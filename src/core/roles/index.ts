// The roles module: the custom roles of an account, and the base roles every account gets.
// Offers: Roles, createBaseRoles. Needs: the store, the clock, ids, the authorizer.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createBaseRoles, createRoles, roleFields, rolesScopeKey } from './roles.ts';
export type { RoleInput, Roles } from './roles.ts';
