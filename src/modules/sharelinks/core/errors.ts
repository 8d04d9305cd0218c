// The share-links module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows go to the catalogue through module.ts.
import { codeRow } from '../../../core/error-codes.ts';

export const SHARE_LINK_ERROR_CODES = {
  'invalid-sharelink-urn': codeRow(400, 'spec'),
  'view-sharelink-forbidden': codeRow(403, 'spec'),
  'create-sharelink-forbidden': codeRow(403, 'spec'),
  'update-sharelink-forbidden': codeRow(403, 'spec'),
  'delete-sharelink-forbidden': codeRow(403, 'spec'),
  'sharelink-not-found': codeRow(404, 'spec'),
  /** Opening a link: its expiry has passed. */
  'sharelink-expired': codeRow(403, 'ours'),
  /** Opening a link: a password is needed and was missing or wrong. */
  'sharelink-password-required': codeRow(401, 'ours'),
  /** Opening a link with membershipRequired without a valid access token. */
  'sharelink-membership-required': codeRow(401, 'ours'),
  /** A link session's request for what the link does not share (an option off). */
  'sharelink-option-disabled': codeRow(403, 'ours'),
  /** A box-limited link's session asked for a point-cloud file whole (its points outside the box included). */
  'sharelink-box-limited': codeRow(403, 'ours'),
} as const;

type ShareLinkErrorCodesRows = typeof SHARE_LINK_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends ShareLinkErrorCodesRows {}
}
