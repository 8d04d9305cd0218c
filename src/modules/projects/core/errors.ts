// The projects module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (PROJECT_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-project-urn and project-not-found (the URN parser and every module resolving a
// project answer them), not-member-of-project and deleted-project (the project scope every
// project-level module opens with, src/http/operation-docs.ts API1_PROJECT_ERRORS and
// API2_PROJECT_ERRORS), update-project-forbidden (the files module's covers answer it too) and
// subscription-not-active stay in the kernel's catalogue.
import { codeRow } from '../../../core/error-codes.ts';

export const PROJECT_ERROR_CODES = {
  'project-active': codeRow(400, 'vendor'),
  'project-deleted': codeRow(400, 'vendor'),
  'project-not-deleted': codeRow(400, 'vendor'),
  'list-projects-forbidden': codeRow(403, 'spec'),
  'create-project-forbidden': codeRow(403, 'spec'),
  'update-project-ownership-or-subscription-forbidden': { status: [403], defined: ['spec', 'vendor'] },
  'delete-project-forbidden': { status: [403], defined: ['spec', 'vendor'] },
  'restore-project-forbidden': codeRow(403, 'ours'),
  'new-project-owner-not-manager': codeRow(403, 'vendor'),
} as const;

type ProjectErrorCodesRows = typeof PROJECT_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends ProjectErrorCodesRows {}
}
