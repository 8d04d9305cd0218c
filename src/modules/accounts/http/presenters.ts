// The presenters of accounts and subscriptions in both APIs (pure reshaping: URN ids in the
// deployment's namespace in API 2, API 1 ids in API 1).
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { regionOf } from '../../../http/api2/presenters.ts';
import { id1 } from '../../../http/api1/presenters.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { AccountView, SubscriptionView } from '../core/accounts.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function accountPresenters(core: KitCore) {
  const { urn } = api2Kit(core);
  const region = regionOf(core.config.storageUrl);

  const subscription = (s: SubscriptionView) => ({
    id: urn('subscription', s.id),
      urn: urn('subscription', s.id),
      api1Id: s.api1Id,
    type: 'subscription' as const,
    accountId: urn('account', s.accountId),
    isVa: s.isVa,
    isActive: s.isActive,
    isTrial: s.isTrial,
    ...(s.name !== null ? { name: s.name } : {}),
    ...(s.start ? { start: s.start.toISOString() } : {}),
    ...(s.end ? { end: s.end.toISOString() } : {}),
    tagCapacity: s.tagCapacity,
    geoImageCapacity: s.geoImageCapacity,
    scanCapacity: s.scanCapacity,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    ...(s.inviteAccountOwnerInNewProjects !== undefined
      ? { inviteAccountOwnerInNewProjects: s.inviteAccountOwnerInNewProjects }
      : {}),
  });

  return {
    subscription,
    account: (v: AccountView) => ({
      id: urn('account', v.account.id),
      urn: urn('account', v.account.id),
      api1Id: v.account.api1Id,
      type: 'account' as const,
      name: v.account.name,
      createdAt: v.account.createdAt.toISOString(),
      updatedAt: v.account.updatedAt.toISOString(),
      ownerId: urn('user', v.account.ownerId),
      permissions: {
        isOwner: v.flags.isOwner,
        isAdmin: v.flags.isAdmin,
        isManager: v.flags.isManager,
        isProjectLister: v.flags.isProjectLister,
      },
      subscriptions: v.subscriptions.map(subscription),
      regions: [{ ...region, selected: true, default: true }],
    }),
  };
}

export const api1AccountPresenters = {
  account: (v: AccountView) => ({
    id: v.account.api1Id,
    type: 'account' as const,
    name: v.account.name,
    createdAt: v.account.createdAt.toISOString(),
    createdBy: id1(v.account.createdBy),
    ownerId: api1IdOf(v.account.ownerId),
    permissions: { owner: v.flags.isOwner, admin: v.flags.isAdmin, manager: v.flags.isManager, all: v.flags.listsAllProjects },
  }),
  subscription: (s: SubscriptionView) => ({
    id: s.api1Id,
    type: 'subscription' as const,
    accountId: api1IdOf(s.accountId),
    isVa: s.isVa,
    isActive: s.isActive,
    isTrial: s.isTrial,
    name: s.name,
    start: iso(s.start),
    tagCapacity: s.tagCapacity,
    scanCapacity: s.scanCapacity,
    createdAt: s.createdAt.toISOString(),
    UpdatedAt: s.updatedAt.toISOString(), // sic: the spec spells it with a capital U
  }),
};
