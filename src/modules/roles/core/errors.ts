// The roles module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (ROLE_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-role-urn and role-not-found stay in the kernel's catalogue: the members module
// answers them for a member's role, the projects module role-not-found (409) for an account
// without its Manager base role.
import { codeRow } from '../../../core/error-codes.ts';

export const ROLE_ERROR_CODES = {
  'cannot-delete-base-role': { status: [400], defined: ['spec', 'vendor', 'contract'] },
  'cannot-update-base-role': { status: [400], defined: ['vendor', 'contract'] },
  'role-used': { status: [400], defined: ['vendor', 'contract'] },
  'list-roles-forbidden': codeRow(403, 'spec'),
  'view-role-forbidden': codeRow(403, 'spec'),
  'create-role-forbidden': codeRow(403, 'spec'),
  'update-role-forbidden': codeRow(403, 'spec'),
  'delete-role-forbidden': codeRow(403, 'spec'),
} as const;

type RoleErrorCodesRows = typeof ROLE_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends RoleErrorCodesRows {}
}
