// The fixed account-level role table (spec "Account-level roles"), plus the two
// permissions CONTRACT §5 and the Subscription resource add.
import type { AnyPermission } from './catalog.ts';

export const ACCOUNT_ROLES = ['administrator', 'projectManager', 'projectLister'] as const;
export type AccountRoleName = (typeof ACCOUNT_ROLES)[number];

export const MEMBER_PERMISSIONS: readonly AnyPermission[] = [
  'account:account:read',
  'account:roles:read',
  'account:groups:read',
];

export const ADMINISTRATOR_PERMISSIONS: readonly AnyPermission[] = [
  ...MEMBER_PERMISSIONS,
  'account:projects:list',
  'account:projects:update',
  'account:roles:write',
  'account:users:read',
  'account:users:write',
  'account:subscriptions:read',
  'account:subscriptions:update-name',
  'account:administrators:read',
  'account:administrators:write',
  'account:project-managers:read',
  'account:project-managers:write',
  'account:project-listers:read',
  'account:project-listers:write',
  'account:integrations:read',
  'account:integrations:write',
  'account:groups:write',
  'account:subscriptions:read-sensitive-infos',
];

export const OWNER_PERMISSIONS: readonly AnyPermission[] = [...ADMINISTRATOR_PERMISSIONS, 'account:account:update-owner'];

export const PROJECT_MANAGER_PERMISSIONS: readonly AnyPermission[] = [
  ...MEMBER_PERMISSIONS,
  'account:projects:list',
  'account:projects:create',
  'account:projects:update',
  'account:projects:delete',
  'account:roles:write',
  'account:users:read',
  'account:users:write',
  'account:subscriptions:read',
  'account:project-managers:read',
  'account:project-managers:write',
  'account:groups:write',
];

export const PROJECT_LISTER_PERMISSIONS: readonly AnyPermission[] = [...MEMBER_PERMISSIONS, 'account:projects:list'];

/** The write permission that granting or revoking each account role needs. */
export const ROLE_WRITE_PERMISSION: Record<AccountRoleName, AnyPermission> = {
  administrator: 'account:administrators:write',
  projectManager: 'account:project-managers:write',
  projectLister: 'account:project-listers:write',
};

/** The read permission that reveals each account role in User.accountRoles. */
export const ROLE_READ_PERMISSION: Record<AccountRoleName, AnyPermission> = {
  administrator: 'account:administrators:read',
  projectManager: 'account:project-managers:read',
  projectLister: 'account:project-listers:read',
};
