// The audit module's error codes (our extension; docs/audit.md), declared into the shared
// catalogue by declaration merging; their rows are in ../module.ts (errorCodes).
type Ours<S extends number> = { status: readonly [S]; defined: readonly ['ours'] };

declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    'read-audit-log-forbidden': Ours<403>;
  }
}

export type AuditErrorCode = 'read-audit-log-forbidden';

/** The catalogue rows of the codes above (the contract's errorCodes). */
export const AUDIT_ERROR_CODES = {
  'read-audit-log-forbidden': { status: [403] as const, defined: ['ours'] as const },
};
