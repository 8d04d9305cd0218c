// The SSO module's error codes (our extension; docs/identity.md), declared into the shared
// catalogue by declaration merging; their rows are in ../module.ts (errorCodes).
type Ours<S extends number> = { status: readonly [S]; defined: readonly ['ours'] };

declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    'read-sso-forbidden': Ours<403>;
    'manage-sso-forbidden': Ours<403>;
    'sso-provider-not-found': { status: readonly [404, 409]; defined: readonly ['ours'] };
    'sso-domain-not-found': Ours<404>;
    'sso-rule-not-found': Ours<404>;
    'sso-domain-claimed': Ours<409>;
    'sso-domain-not-verified': Ours<409>;
    'sso-domain-limit-reached': Ours<409>;
    'sso-rule-limit-reached': Ours<409>;
  }
}

export type SsoErrorCode =
  | 'read-sso-forbidden' | 'manage-sso-forbidden' | 'sso-provider-not-found' | 'sso-domain-not-found' | 'sso-rule-not-found'
  | 'sso-domain-claimed' | 'sso-domain-not-verified' | 'sso-domain-limit-reached' | 'sso-rule-limit-reached';

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
};
