// API 1 and API 2 presenters of roles (pure reshaping: API 2's URNs in the deployment's
// namespace, API 1's ids).
import type { UrnType } from '../../../core/ids/urn.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { LegacyPermission, RolePermission } from '../../../core/permissions/role-rules.ts';
import { DEFAULT_COLOR } from '../../../http/api2/presenters.ts';
import type { RoleRecord } from '../index.ts';

export function api2RolePresenter(urn: (type: UrnType, id: string) => string) {
  return (r: RoleRecord) => ({
    id: urn('role', r.id),
    urn: urn('role', r.id),
    api1Id: r.api1Id,
    type: 'role' as const,
    name: r.name,
    description: r.description,
    color: r.color ?? DEFAULT_COLOR,
    createdBy: r.createdBy ? urn('user', r.createdBy) : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    permissions: r.permissions as RolePermission[],
    legacyPermissions: r.legacyPermissions as LegacyPermission[],
    isBase: r.isBase,
  });
}

export const api1Role = (r: RoleRecord) => ({
  id: r.api1Id,
  type: 'role' as const,
  name: r.name,
  description: r.description,
  color: r.color ?? DEFAULT_COLOR,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  permissions: r.legacyPermissions,
  accountIds: [api1IdOf(r.accountId)],
});
