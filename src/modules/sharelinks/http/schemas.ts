// API 2 shapes of share links (the vendor's "ShareLink", "ShareLinkOptions", "shareLinkCreate",
// "shareLinkUpdate"), with our input limits (docs/share-links.md).
import { Type } from 'typebox';
import { DateTime, Nullable } from '../../../http/schema-helpers.ts';
import { RefString } from '../../../http/api2/schemas.ts';
import { SHARE_LINK_LIMITS as L } from '../core/rules.ts';

export const ShareLinkOptions = Type.Object({
  workzones: Type.Boolean(),
  notes: Type.Boolean(),
  issues: Type.Boolean(),
  measurements: Type.Boolean(),
  crops: Type.Boolean(),
  tags: Type.Boolean(),
}, { additionalProperties: false });

/** The vendor's SavedViewData: an object with a `type`, the rest the viewer's own. */
const SavedView = Type.Object({ type: Type.String({ maxLength: 100 }) }, { additionalProperties: true });
const Corner = Type.Array(Type.Number(), { minItems: 3, maxItems: 3 });
/** Our extension (docs/share-links.md "Box limit"): what the link's sessions may see of its point clouds. */
export const BoxLimit = Type.Object({ min: Corner, max: Corner }, {
  additionalProperties: false,
  description: 'Scanbase extension: the box (corners in the point clouds\' coordinates, inclusive) that this link\'s sessions may see of the shared point clouds; null: no limit',
});
const Password = Type.String({ maxLength: L.passwordMaxChars, description: 'at least 12 characters with 3 of uppercase, lowercase, digit, special; or at least 24 characters' });
const SharedZones = Type.Array(RefString, { maxItems: L.sharedWorkzones });

const writeFields = {
  name: Type.String({ minLength: 1, maxLength: L.nameChars }),
  sharedWorkzonesIds: Type.Optional(Nullable(SharedZones)),
  password: Type.Optional(Nullable(Password)),
  expiresAt: Type.Optional(Nullable(DateTime)),
  logoBlob: Type.Optional(Nullable(Type.String({ maxLength: L.logoBlobChars }))),
  membershipRequired: Type.Boolean(),
  shareOptions: ShareLinkOptions,
  savedView: Type.Optional(Nullable(SavedView)),
  boxLimit: Type.Optional(Nullable(BoxLimit)),
};

export const ShareLinkCreate = Type.Object({ workzoneId: RefString, ...writeFields }, { additionalProperties: false });
/** The vendor's shareLinkUpdate (it requires every field; a missing one is taken as null, as the vendor says PUT does). */
export const ShareLinkUpdate = Type.Object(writeFields, { additionalProperties: false });

export const ShareLink = Type.Object({
  id: Type.String(),
  type: Type.Literal('sharelink'),
  name: Nullable(Type.String()),
  link: Type.String(),
  workzoneId: Type.String(),
  sharedWorkzonesIds: Type.Array(Type.String()),
  createdBy: Type.String(),
  createdAt: DateTime,
  expiresAt: Nullable(DateTime),
  passwordProtected: Type.Boolean(),
  membershipRequired: Type.Boolean(),
  shareOptions: ShareLinkOptions,
  logoBlob: Nullable(Type.String()),
  savedView: Nullable(SavedView),
  boxLimit: Nullable(BoxLimit),
});
