// API 1 and API 2 presenters of groups (pure reshaping: API 2's URNs in the deployment's
// namespace, API 1's ids).
import type { UrnType } from '../../../core/ids/urn.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { DEFAULT_COLOR } from '../../../http/api2/presenters.ts';
import type { GroupRecord } from '../index.ts';

export function api2GroupPresenter(urn: (type: UrnType, id: string) => string) {
  return (g: GroupRecord) => ({
    id: urn('group', g.id),
    urn: urn('group', g.id),
    api1Id: g.api1Id,
    type: 'group' as const,
    name: g.name,
    description: g.description,
    color: g.color ?? DEFAULT_COLOR,
    createdAt: g.createdAt.toISOString(),
    createdBy: g.createdBy ? urn('user', g.createdBy) : null,
    updatedAt: g.updatedAt.toISOString(),
    userIds: g.userIds.map((u) => urn('user', u)),
    accountIds: [urn('account', g.accountId)],
  });
}

export const api1Group = (g: GroupRecord) => ({
  id: g.api1Id,
  type: 'group' as const,
  name: g.name,
  description: g.description,
  color: g.color ?? DEFAULT_COLOR,
  createdAt: g.createdAt.toISOString(),
  createdBy: g.createdBy ? api1IdOf(g.createdBy) : null,
  updatedAt: g.updatedAt.toISOString(),
  userIds: g.userIds.map(api1IdOf),
  accountIds: [api1IdOf(g.accountId)],
});
