// API 2 presenter of share links (pure reshaping: URNs in the deployment's namespace, the
// link's address under the deployment's public URL).
import type { Static } from 'typebox';
import type { UrnType } from '../../../core/ids/urn.ts';
import type { ShareLinkView } from '../index.ts';
import { sharedZoneIds } from '../core/rules.ts';
import type * as S from './schemas.ts';

/** The address a link is opened at (the console's read-only view; the service's /share/{id} surface). */
export const shareLinkAddress = (publicUrl: string, id: string): string => `${publicUrl.replace(/\/$/, '')}/share/${id}`;

export function shareLinkPresenter(urn: (type: UrnType, id: string) => string, publicUrl: string) {
  return (v: ShareLinkView): Static<typeof S.ShareLink> => {
    const l = v.link;
    return {
      id: urn('sharelink', l.id),
      type: 'sharelink',
      name: l.name,
      link: shareLinkAddress(publicUrl, l.id),
      workzoneId: urn('workzone', l.workzoneId),
      // "list of additional shared work zones (only if `workzones` is enabled in the `shareOptions`)"
      sharedWorkzonesIds: sharedZoneIds(l).filter((z) => z !== l.workzoneId).map((z) => urn('workzone', z)),
      createdBy: l.createdBy ? urn('user', l.createdBy) : '',
      createdAt: l.createdAt.toISOString(),
      expiresAt: l.expiresAt ? l.expiresAt.toISOString() : null,
      passwordProtected: l.passwordHash !== null,
      membershipRequired: l.membershipRequired,
      shareOptions: l.shareOptions,
      logoBlob: l.logoBlob,
      savedView: l.savedView as Static<typeof S.ShareLink>['savedView'],
      boxLimit: l.boxLimit,
    };
  };
}
