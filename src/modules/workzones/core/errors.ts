// The workzones module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (WORKZONE_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-workzone-urn and workzone-not-found stay in the kernel's catalogue: the URN parser
// and every module that resolves a zone answer them.
import { codeRow } from '../../../core/error-codes.ts';

export const WORKZONE_ERROR_CODES = {
  'cannot-delete-root-workzone': codeRow(400, 'ours'),
  'list-workzones-forbidden': codeRow(403, 'spec'),
  'view-workzone-forbidden': codeRow(403, 'spec'),
  'create-workzone-forbidden': codeRow(403, 'spec'),
  'update-workzone-forbidden': codeRow(403, 'spec'),
  'delete-workzone-forbidden': codeRow(403, 'spec'),
  'copy-workzone-forbidden': codeRow(403, 'ours'),
  'job-not-found': codeRow(404, 'ours'), // a work-zone copy its requester follows (docs/projects.md "Copy")
  'copy-in-progress': codeRow(409, 'ours'),
} as const;

type WorkzoneErrorCodesRows = typeof WORKZONE_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends WorkzoneErrorCodesRows {}
}
