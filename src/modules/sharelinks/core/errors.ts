// The share-links module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
const row = <S extends number, D extends 'spec' | 'ours' = 'spec'>(status: S, defined: D = 'spec' as D) => ({ status: [status] as const, defined: [defined] as const });

export const SHARE_LINK_ERROR_CODES = {
  'invalid-sharelink-urn': row(400),
  'view-sharelink-forbidden': row(403),
  'create-sharelink-forbidden': row(403),
  'update-sharelink-forbidden': row(403),
  'delete-sharelink-forbidden': row(403),
  'sharelink-not-found': row(404),
  /** Opening a link: its expiry has passed. */
  'sharelink-expired': row(403, 'ours'),
  /** Opening a link: a password is needed and was missing or wrong. */
  'sharelink-password-required': row(401, 'ours'),
  /** Opening a link with membershipRequired without a valid access token. */
  'sharelink-membership-required': row(401, 'ours'),
  /** A link session's request for what the link does not share (an option off). */
  'sharelink-option-disabled': row(403, 'ours'),
  /** A box-limited link's session asked for a point-cloud file whole (its points outside the box included). */
  'sharelink-box-limited': row(403, 'ours'),
} as const;

type ShareLinkErrorCodesRows = typeof SHARE_LINK_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends ShareLinkErrorCodesRows {}
}
