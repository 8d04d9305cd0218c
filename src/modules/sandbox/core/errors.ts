// The sandbox module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging; their catalogue rows are in module.ts).
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    /** DELETE /_operator/faults/{id} of no rule (docs/sandbox.md "Fault rules"). */
    'fault-rule-not-found': { status: readonly [404]; defined: readonly ['ours'] };
    /** A fault rule's `status` effect (SANDBOX only). */
    'injected-fault': { status: readonly [500, 502, 503, 504]; defined: readonly ['ours'] };
  }
}
export {};
