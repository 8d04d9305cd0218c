// The measurements module's error codes, merged into the kernel's catalogue type
// (ModuleErrorCodes); their rows go to the assembled catalogue through module.ts.
import { codeRow } from '../../../core/error-codes.ts';

export const MEASUREMENT_ERROR_CODES = {
  'invalid-measurement-urn': codeRow(400, 'spec'),
  'list-measurements-forbidden': codeRow(403, 'spec'),
  'create-measurement-forbidden': codeRow(403, 'spec'),
  'update-measurement-forbidden': codeRow(403, 'spec'),
  'delete-measurement-forbidden': codeRow(403, 'spec'),
  'measurement-not-found': codeRow(404, 'spec'),
} as const;

type MeasurementErrorCodesRows = typeof MEASUREMENT_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends MeasurementErrorCodesRows {}
}
