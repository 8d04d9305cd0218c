// The SCIM module's core, gathered for its module.ts and http/ (the public face is ../index.ts).
import './errors.ts';
export { createScimProvisioning, type ScimProvisioning, type ListQuery } from './provisioning.ts';
export { createScimTokens, TOKEN_PREFIX, type ScimTokens } from './scim-tokens.ts';
export { ScimError, type ScimType } from './scim-error.ts';
export { USER_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, PAGE } from './resources.ts';
export { FILTER_MAX_CHARS, parseFilter, matches } from './filter.ts';
export { PATCH_OP_SCHEMA, PATCH_MAX_OPERATIONS, patchOperations, userChanges, groupChanges } from './patch.ts';
export type { ScimRepo, ScimStore, ScimTokenRecord } from './ports.ts';
export { SCIM_ERROR_CODES, type ScimErrorCode } from './errors.ts';
