// The oauth module's error codes, those of the token endpoints and the authorize request
// (RFC 6749; src/core/error-codes.ts ModuleErrorCodes, by declaration merging); their rows
// (OAUTH_ERROR_CODES) go to the assembled catalogue through module.ts. `unauthorized` stays in
// the kernel's catalogue: the bearer check of every route answers it.
import { codeRow } from '../../../core/error-codes.ts';

export const OAUTH_ERROR_CODES = {
  invalid_request: codeRow(400, 'rfc6749'),
  invalid_grant: codeRow(400, 'rfc6749'),
  unsupported_grant_type: codeRow(400, 'rfc6749'),
} as const;

type OauthErrorCodesRows = typeof OAUTH_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends OauthErrorCodesRows {}
}
