// The sandbox module's error codes: their rows (SANDBOX_ERROR_CODES) go to the assembled
// catalogue through module.ts, and their types to the kernel's (src/core/error-codes.ts
// ModuleErrorCodes) by declaration merging, from the same rows.
export const SANDBOX_ERROR_CODES = {
  /** DELETE /_operator/faults/{id} of no rule (docs/sandbox.md "Fault rules"). */
  'fault-rule-not-found': { status: [404], defined: ['ours'] },
  /** A fault rule's `status` effect (SANDBOX only). */
  'injected-fault': { status: [500, 502, 503, 504], defined: ['ours'] },
} as const;

type SandboxErrorCodeRows = typeof SANDBOX_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends SandboxErrorCodeRows {}
}
