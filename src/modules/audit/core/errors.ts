// The audit module's error codes (our extension; docs/audit.md), declared into the shared
// catalogue by declaration merging; their rows go to the catalogue through ../module.ts (errorCodes).
export type AuditErrorCode = keyof typeof AUDIT_ERROR_CODES;

/** The catalogue rows of the codes above (the contract's errorCodes). */
export const AUDIT_ERROR_CODES = {
  'read-audit-log-forbidden': { status: [403] as const, defined: ['ours'] as const },
} as const;

type AuditErrorCodesRows = typeof AUDIT_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends AuditErrorCodesRows {}
}
