// The share-links module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes {
    'invalid-sharelink-urn': { status: readonly [400]; defined: readonly ['spec'] };
    'view-sharelink-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'create-sharelink-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'update-sharelink-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'delete-sharelink-forbidden': { status: readonly [403]; defined: readonly ['spec'] };
    'sharelink-not-found': { status: readonly [404]; defined: readonly ['spec'] };
    /** Opening a link: its expiry has passed. */
    'sharelink-expired': { status: readonly [403]; defined: readonly ['ours'] };
    /** Opening a link: a password is needed and was missing or wrong. */
    'sharelink-password-required': { status: readonly [401]; defined: readonly ['ours'] };
    /** Opening a link with membershipRequired without a valid access token. */
    'sharelink-membership-required': { status: readonly [401]; defined: readonly ['ours'] };
    /** A link session's request for what the link does not share (an option off). */
    'sharelink-option-disabled': { status: readonly [403]; defined: readonly ['ours'] };
    /** A box-limited link's session asked for a point-cloud file whole (its points outside the box included). */
    'sharelink-box-limited': { status: readonly [403]; defined: readonly ['ours'] };
  }
}

const row = <S extends number, D extends 'spec' | 'ours' = 'spec'>(status: S, defined: D = 'spec' as D) => ({ status: [status] as const, defined: [defined] as const });

export const SHARE_LINK_ERROR_CODES = {
  'invalid-sharelink-urn': row(400),
  'view-sharelink-forbidden': row(403),
  'create-sharelink-forbidden': row(403),
  'update-sharelink-forbidden': row(403),
  'delete-sharelink-forbidden': row(403),
  'sharelink-not-found': row(404),
  'sharelink-expired': row(403, 'ours'),
  'sharelink-password-required': row(401, 'ours'),
  'sharelink-membership-required': row(401, 'ours'),
  'sharelink-option-disabled': row(403, 'ours'),
  'sharelink-box-limited': row(403, 'ours'),
} as const;
