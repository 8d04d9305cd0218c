// The operation docs of the share-links module's API 2 routes (src/http/operation-docs.ts):
// what each does, the permission src/modules/sharelinks/core/sharelinks.ts checks, its codes.
import { API2_PROJECT_ERRORS as PROJECT, API2_PROJECT_PATH as P, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, type OperationTable } from '../../../http/operation-docs.ts';

const L = `${P}/share-links/{shareLinkRef}`;
const LINK = ['invalid-sharelink-urn', 'sharelink-not-found'] as const;
const READ = '`workzone:share-links:read` on the link\'s work zone, or `workzone:own-share-links:read` there for its creator';
const WRITE = '`workzone:share-links:write` on the link\'s work zone, or `workzone:own-share-links:write` there for its creator';

export const SHARE_LINK_OPERATIONS: OperationTable = {
  [`GET ${P}/share-links`]: {
    does: 'The project\'s share links the caller may read, oldest first. `link` is the address that opens it (docs/share-links.md).',
    permission: `a project member; a link is listed with ${READ}.`,
    errors: [...PROJECT],
  },
  [`POST ${P}/share-links`]: {
    does: 'Creates a share link of a work zone (and, with the `workzones` option, of `sharedWorkzonesIds`). A link without a password opens for anyone holding its id; ' +
      'the password (12+ characters with 3 classes, or 24+) is kept hashed. `expiresAt` must be in the future.',
    permission: '`workzone:share-links:write` or `workzone:own-share-links:write` on the work zone and on each shared zone.',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'create-sharelink-forbidden'],
  },
  [`GET ${L}`]: {
    does: 'One share link.',
    permission: `${READ}.`,
    errors: [...PROJECT, ...LINK, 'view-sharelink-forbidden'],
  },
  [`PUT ${L}`]: {
    does: 'Overwrites every field but the work zone (a missing one becomes null). `password`: null or absent keeps it, "" removes it, a value replaces it ' +
      '(a change ends the link\'s open sessions).',
    permission: `${WRITE}.`,
    errors: [...PROJECT, ...WORKZONE, ...LINK, INPUT, 'update-sharelink-forbidden'],
  },
  [`DELETE ${L}`]: {
    does: 'Deletes a share link; its sessions are refused from their next request.',
    permission: `${WRITE}.`,
    errors: [...PROJECT, ...LINK, 'delete-sharelink-forbidden'],
  },
};
