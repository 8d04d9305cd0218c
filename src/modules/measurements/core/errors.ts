// The measurements module's error codes, merged into the kernel's catalogue type
// (ModuleErrorCodes); their rows go to the assembled catalogue through module.ts.
const row = <S extends number>(status: S) => ({ status: [status] as const, defined: ['spec'] as const });

export const MEASUREMENT_ERROR_CODES = {
  'invalid-measurement-urn': row(400),
  'list-measurements-forbidden': row(403),
  'create-measurement-forbidden': row(403),
  'update-measurement-forbidden': row(403),
  'delete-measurement-forbidden': row(403),
  'measurement-not-found': row(404),
} as const;

type MeasurementErrorCodesRows = typeof MEASUREMENT_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends MeasurementErrorCodesRows {}
}
