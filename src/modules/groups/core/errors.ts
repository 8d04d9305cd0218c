// The groups module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (GROUP_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-group-urn and group-not-found stay in the kernel's catalogue: the members module
// answers them for a project's group member.
import { codeRow } from '../../../core/error-codes.ts';

export const GROUP_ERROR_CODES = {
  'users-not-in-groups': { status: [400], defined: ['ours'] },
  'list-groups-forbidden': codeRow(403, 'spec'),
  'view-group-forbidden': codeRow(403, 'spec'),
  'create-group-forbidden': codeRow(403, 'spec'),
  'update-group-forbidden': codeRow(403, 'spec'),
  'delete-group-forbidden': codeRow(403, 'spec'),
  'group-already-exists': { status: [409], defined: ['ours'] },
} as const;

type GroupErrorCodesRows = typeof GROUP_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends GroupErrorCodesRows {}
}
