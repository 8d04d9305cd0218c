// The usage module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
export const USAGE_ERROR_CODES = {
  /**
  * The vendor's getUsageReport "is unavailable when the tenant setting hidePrivacyData is
  * enabled" without naming a code; ours: HIDE_PRIVACY_DATA=1 (docs/usage.md).
  */
  'usage-report-unavailable': { status: [403] as const, defined: ['ours'] as const },
} as const;

type UsageErrorCodesRows = typeof USAGE_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends UsageErrorCodesRows {}
}
