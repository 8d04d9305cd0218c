// The measurements module's error codes, merged into the kernel's catalogue type
// (ModuleErrorCodes); their rows go to the assembled catalogue through module.ts.
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    'invalid-measurement-urn': { status: readonly [400]; defined: readonly ['spec'] };
    'list-measurements-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'create-measurement-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'update-measurement-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'delete-measurement-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'measurement-not-found': { status: readonly [404]; defined: readonly ['spec'] };
  }
}

const row = <S extends number>(status: S) => ({ status: [status] as const, defined: ['spec'] as const });

export const MEASUREMENT_ERROR_CODES = {
  'invalid-measurement-urn': row(400),
  'list-measurements-forbidden': row(403),
  'create-measurement-forbidden': row(403),
  'update-measurement-forbidden': row(403),
  'delete-measurement-forbidden': row(403),
  'measurement-not-found': row(404),
} as const;
