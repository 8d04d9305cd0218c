// The SSO module's error codes (our extension; docs/identity.md), declared into the shared
// catalogue by declaration merging; their rows go to the catalogue through ../module.ts (errorCodes).
export type SsoErrorCode = keyof typeof SSO_ERROR_CODES;

const ours = <S extends number>(s: S) => ({ status: [s] as const, defined: ['ours'] as const });

/** The catalogue rows of the codes above (the contract's errorCodes). */
export const SSO_ERROR_CODES = {
  'read-sso-forbidden': ours(403),
  'manage-sso-forbidden': ours(403),
  'sso-provider-not-found': { status: [404, 409] as const, defined: ['ours'] as const },
  'sso-domain-not-found': ours(404),
  'sso-rule-not-found': ours(404),
  'sso-domain-claimed': ours(409),
  'sso-domain-not-verified': ours(409),
  'sso-domain-limit-reached': ours(409),
  'sso-rule-limit-reached': ours(409),
} as const;

type SsoErrorCodesRows = typeof SSO_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends SsoErrorCodesRows {}
}
