// The presenters of the users of an account and of the caller's invitations in both APIs
// (pure reshaping: URN ids in the deployment's namespace in API 2, API 1 ids in API 1).
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { AccountUserView } from '../core/account-users.ts';
import type { MyInvitation } from '../core/account-invitations.ts';

export function userPresenters(core: KitCore) {
  const { urn, opt } = api2Kit(core);
  return {
    user: (v: AccountUserView) => ({
      id: urn('user', v.user.id),
      urn: urn('user', v.user.id),
      api1Id: v.user.api1Id,
      type: 'user' as const,
      firstName: v.user.firstName,
      lastName: v.user.lastName,
      email: v.user.email,
      company: v.user.company,
      title: v.user.title,
      avatar: `${core.config.publicUrl}/avatars/${v.user.id}.svg`,
      invitedBy: opt('user', v.invitedBy),
      invitedAt: v.invitedAt ? v.invitedAt.toISOString() : null,
      ...(v.accountRoles ? { accountRoles: v.accountRoles } : {}),
      ...(v.pending ? { pending: true as const } : {}),
    }),
    invitation: (i: MyInvitation) => ({
      accountId: urn('account', i.accountId),
      accountName: i.accountName,
      roles: i.roles,
      invitedBy: i.invitedBy,
      invitedAt: i.invitedAt.toISOString(),
    }),
  };
}

/** A user of the account in API 1's shape. */
export const api1User = (v: AccountUserView) => ({
  id: v.user.api1Id,
  type: 'user' as const,
  firstname: v.user.firstName,
  lastname: v.user.lastName,
  company: v.user.company,
  title: v.user.title,
  email: v.user.email,
  accountIds: v.accountIds.map(api1IdOf),
});
