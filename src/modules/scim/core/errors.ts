// The SCIM module's error codes on API 2 (its token, our extension; docs/identity.md), declared
// into the shared catalogue by declaration merging; their rows go to the catalogue through ../module.ts (errorCodes).
// The SCIM surface itself answers in SCIM's own error format (scim-error.ts).
export type ScimErrorCode = 'read-scim-forbidden' | 'manage-scim-forbidden' | 'scim-token-not-found';

const ours = <S extends number>(s: S) => ({ status: [s] as const, defined: ['ours'] as const });

/** The catalogue rows of the codes above (the contract's errorCodes). */
export const SCIM_ERROR_CODES = {
  'read-scim-forbidden': ours(403),
  'manage-scim-forbidden': ours(403),
  'scim-token-not-found': ours(404),
} as const;

type ScimErrorCodesRows = typeof SCIM_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends ScimErrorCodesRows {}
}
