// API 1 presenters: pure reshaping into API 1 shapes; every id is an API 1 id.
import { api1IdOf } from '../../core/ids/api1-id.ts';
import type { AccountView, SubscriptionView } from '../../core/accounts/index.ts';
import type { GroupRecord } from '../../core/ports/repositories.ts';
import type { AccountUserView } from '../../core/users/index.ts';
import { DEFAULT_COLOR } from '../api2/presenters.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const id1 = (uuid: string | null) => (uuid ? api1IdOf(uuid) : null);

export const api1 = {
  account: (v: AccountView) => ({
    id: v.account.api1Id,
    type: 'account' as const,
    name: v.account.name,
    createdAt: v.account.createdAt.toISOString(),
    createdBy: id1(v.account.createdBy),
    ownerId: api1IdOf(v.account.ownerId),
    permissions: { owner: v.flags.isOwner, admin: v.flags.isAdmin, manager: v.flags.isManager, all: v.flags.listsAllProjects },
  }),
  group: (g: GroupRecord) => ({
    id: g.api1Id,
    type: 'group' as const,
    name: g.name,
    description: g.description,
    color: g.color ?? DEFAULT_COLOR,
    createdAt: iso(g.createdAt),
    createdBy: id1(g.createdBy),
    updatedAt: iso(g.updatedAt),
    userIds: g.userIds.map(api1IdOf),
    accountIds: [api1IdOf(g.accountId)],
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
  user: (v: AccountUserView) => ({
    id: v.user.api1Id,
    type: 'user' as const,
    firstname: v.user.firstName,
    lastname: v.user.lastName,
    company: v.user.company,
    title: v.user.title,
    email: v.user.email,
    accountIds: v.accountIds.map(api1IdOf),
  }),
};
