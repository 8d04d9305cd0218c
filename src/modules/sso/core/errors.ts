// The SSO module's error codes (our extension; docs/identity.md), declared into the shared
// catalogue by declaration merging; their rows go to the catalogue through ../module.ts (errorCodes).
import { codeRow } from '../../../core/error-codes.ts';
export type SsoErrorCode = keyof typeof SSO_ERROR_CODES;

/** The catalogue rows of the codes above (the contract's errorCodes). */
export const SSO_ERROR_CODES = {
  'read-sso-forbidden': codeRow(403, 'ours'),
  'manage-sso-forbidden': codeRow(403, 'ours'),
  'sso-provider-not-found': { status: [404, 409] as const, defined: ['ours'] as const },
  'sso-domain-not-found': codeRow(404, 'ours'),
  'sso-rule-not-found': codeRow(404, 'ours'),
  'sso-domain-claimed': codeRow(409, 'ours'),
  'sso-domain-not-verified': codeRow(409, 'ours'),
  'sso-domain-limit-reached': codeRow(409, 'ours'),
  'sso-rule-limit-reached': codeRow(409, 'ours'),
} as const;

type SsoErrorCodesRows = typeof SSO_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends SsoErrorCodesRows {}
}
