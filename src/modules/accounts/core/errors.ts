// The accounts module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (ACCOUNT_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-account-urn, account-not-found, invalid-subscription-urn, subscription-not-found and
// subscription-not-active stay in the kernel's catalogue: the URN parser, the authorizer, the
// projects, the work-zone copy and the usage report answer them too.
import { codeRow } from '../../../core/error-codes.ts';

export const ACCOUNT_ERROR_CODES = {
  'view-account-forbidden': codeRow(403, 'spec'),
  'list-subscriptions-forbidden': codeRow(403, 'spec'),
  'view-subscription-forbidden': codeRow(403, 'spec'),
  'update-subscription-forbidden': codeRow(403, 'spec'),
} as const;

type AccountErrorCodesRows = typeof ACCOUNT_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends AccountErrorCodesRows {}
}
