// The SCIM module's error codes on API 2 (its token, our extension; docs/identity.md), declared
// into the shared catalogue by declaration merging; their rows go to the catalogue through ../module.ts (errorCodes).
// The SCIM surface itself answers in SCIM's own error format (scim-error.ts).
import { codeRow } from '../../../core/error-codes.ts';
export type ScimErrorCode = 'read-scim-forbidden' | 'manage-scim-forbidden' | 'scim-token-not-found';

/** The catalogue rows of the codes above (the contract's errorCodes). */
export const SCIM_ERROR_CODES = {
  'read-scim-forbidden': codeRow(403, 'ours'),
  'manage-scim-forbidden': codeRow(403, 'ours'),
  'scim-token-not-found': codeRow(404, 'ours'),
} as const;

type ScimErrorCodesRows = typeof SCIM_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends ScimErrorCodesRows {}
}
