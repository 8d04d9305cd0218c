// What src/http uses of the kernel (issue 28, "the HTTP layer's face"): the error kinds it
// renders, the references it parses and writes, the permission vocabulary its schemas list, the
// clock and the telemetry fields. src/http imports the kernel through this file only (lint:
// eslint.config.js), and its use cases through src/services.ts; so the list below is the whole
// of what the HTTP layer knows of src/core besides them. Not here, on purpose: the repositories,
// the store and its slices, the signer, the id generator, the object store.
export { DomainError, invalidInput, unauthorized } from './errors.ts';
export type { ErrorCode } from './error-codes.ts';
export { formatUrn, isUuid, parseApi1Ref, parseApi2Ref, type EntityRef, type UrnType } from './ids/urn.ts';
export { api1IdOf } from './ids/api1-id.ts';
export { safeEqual } from './crypto/digest.ts';
export { ACCOUNT_ROLES, type AccountRoleName } from './permissions/account-roles.ts';
export { LEGACY_PERMISSIONS, ROLE_PERMISSIONS, type LegacyPermission, type RolePermission } from './permissions/role-rules.ts';
export type { Clock } from './ports/clock.ts';
export { errorFields } from './ports/telemetry.ts';
