// The members module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (MEMBER_ERROR_CODES) go to the assembled catalogue through module.ts.
// The codes of the references it resolves (invalid-role-urn, role-not-found, invalid-group-urn,
// group-not-found, invalid-workzone-urn, workzone-not-found…) stay in the kernel's catalogue:
// the URN parser and other modules answer them too.
import { codeRow } from '../../../core/error-codes.ts';

export const MEMBER_ERROR_CODES = {
  'cannot-remove-project-owner': codeRow(400, 'ours'),
  'member-has-another-role': codeRow(400, 'ours'),
  'expiration-date-in-past': codeRow(400, 'ours'),
  'list-project-members-forbidden': codeRow(403, 'spec'),
  'add-project-members-forbidden': codeRow(403, 'ours'),
  'remove-contributor-forbidden': codeRow(403, 'vendor'),
  'remove-contributor-from-work-zone-forbidden': { status: [403], defined: ['spec', 'vendor'] },
} as const;

type MemberErrorCodesRows = typeof MEMBER_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends MemberErrorCodesRows {}
}
