// The usage module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    /**
     * The vendor's getUsageReport "is unavailable when the tenant setting hidePrivacyData is
     * enabled" without naming a code; ours: HIDE_PRIVACY_DATA=1 (docs/usage.md).
     */
    'usage-report-unavailable': { status: readonly [403]; defined: readonly ['ours'] };
  }
}

export const USAGE_ERROR_CODES = {
  'usage-report-unavailable': { status: [403] as const, defined: ['ours'] as const },
} as const;
