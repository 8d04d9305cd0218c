// The integrations module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
import { codeRow } from '../../../core/error-codes.ts';

export const INTEGRATION_ERROR_CODES = {
  'invalid-newforma-konekt-hub-urn': codeRow(400, 'spec'),
  /** Konekt refused the token, or it opens another hub than the integration's. */
  'integration-token-refused': codeRow(400, 'ours'),
  /** The Autodesk sign-in came back with an unknown, used or expired state, or Autodesk refused its code. */
  'autodesk-sign-in-failed': codeRow(400, 'ours'),
  'view-account-integrations-forbidden': codeRow(403, 'spec'),
  'manage-account-integrations-forbidden': codeRow(403, 'spec'),
  'view-project-integrations-forbidden': codeRow(403, 'spec'),
  'manage-project-integrations-forbidden': codeRow(403, 'spec'),
  'create-integration-link-forbidden': codeRow(403, 'spec'),
  'newforma-konekt-hub-not-found': codeRow(404, 'spec'),
  'konekt-project-integration-not-found': codeRow(404, 'ours'),
  'autodesk-project-integration-not-found': codeRow(404, 'ours'),
  /** getAutodeskConnection: the vendor's 404 "if no connection exists" (the code is ours). */
  'autodesk-connection-not-found': codeRow(404, 'ours'),
  /** The vendor's 409 "A configuration already exists" (ErrorConflict; the code is ours). */
  'integration-already-exists': codeRow(409, 'ours'),
  /** The vendor's 503 "Service Unavailable" (the code is ours): the third party is not configured or does not answer. */
  'integration-unavailable': codeRow(503, 'ours'),
} as const;
export type IntegrationErrorCode = keyof typeof INTEGRATION_ERROR_CODES;

type IntegrationErrorCodesRows = typeof INTEGRATION_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends IntegrationErrorCodesRows {}
}
