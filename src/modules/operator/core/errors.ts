// The operator module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (OPERATOR_ERROR_CODES) go to the assembled catalogue through module.ts.
// route-not-found stays in the kernel's catalogue: the HTTP layer answers it for any path.
import { codeRow } from '../../../core/error-codes.ts';

export const OPERATOR_ERROR_CODES = {
  /** The seed document, POST /_operator/tokens and the admin command name a user by e-mail. */
  'user-email-not-found': codeRow(404, 'spec'),
  'too-many-operator-attempts': codeRow(429, 'ours'),
} as const;

type OperatorErrorCodesRows = typeof OPERATOR_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends OperatorErrorCodesRows {}
}
