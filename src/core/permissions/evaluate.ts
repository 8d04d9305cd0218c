// Pure evaluation: access facts → effective permissions per scope (account, project,
// work zone), applying the account-role table and membership rules 5–8.
import type { AnyPermission, Permission } from './catalog.ts';
import { PERMISSIONS } from './catalog.ts';
import {
  ADMINISTRATOR_PERMISSIONS, MEMBER_PERMISSIONS, OWNER_PERMISSIONS, PROJECT_LISTER_PERMISSIONS,
  PROJECT_MANAGER_PERMISSIONS, type AccountRoleName,
} from './account-roles.ts';
import { effectiveRolePermissions } from './role-rules.ts';

/** What the caller is in an account. The owner is always a member. */
export interface AccountFacts {
  accountId: string;
  isOwner: boolean;
  isMember: boolean;
  roles: readonly AccountRoleName[];
}

/** A role reaching the caller (his own, or a group's) and the work zones it reaches, materialised. */
export interface WorkzoneGrant {
  roleId: string;
  workzoneIds: ReadonlySet<string>;
  permissions: readonly string[];
  expiresAt: Date | null;
}

/** What the caller is in a project. */
export interface ProjectFacts {
  projectId: string;
  ownerId: string | null;
  rootWorkzoneId: string;
  grants: readonly WorkzoneGrant[];
}

export function accountPermissions(f: AccountFacts): Set<AnyPermission> {
  const out = new Set<AnyPermission>();
  if (!f.isMember && !f.isOwner) return out;
  const add = (list: readonly AnyPermission[]) => list.forEach((p) => out.add(p));
  add(MEMBER_PERMISSIONS);
  if (f.isOwner) add(OWNER_PERMISSIONS);
  if (f.roles.includes('administrator')) add(ADMINISTRATOR_PERMISSIONS);
  if (f.roles.includes('projectManager')) add(PROJECT_MANAGER_PERMISSIONS);
  if (f.roles.includes('projectLister')) add(PROJECT_LISTER_PERMISSIONS);
  return out;
}

// Evaluation runs per request and, in a project list, per project: what depends only on
// the account facts (cached with the account scope, so the same object) or on a role's
// permission list (the same few lists across thousands of projects) is computed once.
const byAccountFacts = new WeakMap<AccountFacts, ReadonlySet<AnyPermission>>();
function accountPermissionsOf(f: AccountFacts): ReadonlySet<AnyPermission> {
  let out = byAccountFacts.get(f);
  if (!out) byAccountFacts.set(f, (out = accountPermissions(f)));
  return out;
}

const ROLE_SETS_KEPT = 1000;
const byRolePermissions = new Map<string, { project: readonly Permission[]; workzone: readonly Permission[] }>();
/** A role's effective permissions (role-rules.ts), split by scope. */
function rolePermissionsOf(perms: readonly string[]) {
  const key = perms.join(' ');
  let out = byRolePermissions.get(key);
  if (!out) {
    const all = [...effectiveRolePermissions(perms)];
    out = { project: all.filter((p) => p.startsWith('project:')), workzone: all.filter((p) => p.startsWith('workzone:')) };
    if (byRolePermissions.size >= ROLE_SETS_KEPT) byRolePermissions.clear();
    byRolePermissions.set(key, out);
  }
  return out;
}

const WORKZONE_PERMISSIONS = PERMISSIONS.filter((p) => p.startsWith('workzone:'));
const PROJECT_PERMISSIONS = PERMISSIONS.filter((p) => p.startsWith('project:'));

const active = (g: WorkzoneGrant, now: Date) => g.expiresAt === null || g.expiresAt.getTime() > now.getTime();

/** Effective permissions on one work zone (rules 2, 5, 7 and the account:users:write rule). */
export function workzonePermissions(
  userId: string,
  account: AccountFacts,
  project: ProjectFacts,
  workzoneId: string,
  now: Date,
): Set<Permission> {
  if (project.ownerId === userId) return new Set(WORKZONE_PERMISSIONS); // rule 7
  const out = new Set<Permission>();
  for (const g of project.grants) {
    if (!g.workzoneIds.has(workzoneId) || !active(g, now)) continue;
    for (const p of rolePermissionsOf(g.permissions).workzone) out.add(p);
    out.add('workzone:workzones:read'); // rule 5
  }
  if (accountPermissionsOf(account).has('account:users:write')) out.add('workzone:members:write');
  return out;
}

/** Effective project-level permissions (rules 5–8, and the account permissions that imply project ones). */
export function projectPermissions(
  userId: string,
  account: AccountFacts,
  project: ProjectFacts,
  now: Date,
): Set<Permission> {
  const acc = accountPermissionsOf(account);
  if (project.ownerId === userId && (account.isMember || account.isOwner)) return new Set(PROJECT_PERMISSIONS); // rule 7
  const out = new Set<Permission>();
  const grants = project.grants.filter((g) => active(g, now));
  if (grants.length > 0) {
    out.add('project:workzones:list'); // rule 5: marks the caller as a member
    out.add('project:members:list');
    for (const g of grants) {
      for (const p of rolePermissionsOf(g.permissions).project) out.add(p);
      // rule 8
      if (g.workzoneIds.has(project.rootWorkzoneId) && g.permissions.includes('workzone:annotations:write')) {
        out.add('project:annotations:create-integration-link');
        out.add('project:integrations:read');
        out.add('project:integrations:write');
      }
    }
  }
  if (acc.has('account:projects:list')) out.add('project:project:list'); // rule 6
  if (acc.has('account:projects:update')) out.add('project:project:update-details');
  if (acc.has('account:projects:delete')) out.add('project:project:delete');
  if (account.isOwner || account.roles.includes('administrator')) {
    out.add('project:project:update-owner');
    out.add('project:project:update-subscription');
  }
  return out;
}

/**
 * workzone:members:write on some work zone of the account (vendor getUsers, bulk-invite
 * without account role): through account:users:write (every zone), as a project's owner
 * (rule 7), or through a role reaching him on a zone (rules 1, 2; expiry already applied).
 */
export function membersWriteSomewhere(account: AccountFacts, holds: { ownsProject: boolean; rolePermissions: readonly (readonly string[])[] }): boolean {
  const acc = accountPermissions(account);
  if (!account.isMember && !account.isOwner) return false;
  if (acc.has('account:users:write') || holds.ownsProject) return true;
  return holds.rolePermissions.some((perms) => effectiveRolePermissions(perms).has('workzone:members:write'));
}

/** True when the caller is a member of the project (holds an active grant somewhere in it). */
export const isProjectMember = (project: ProjectFacts, now: Date): boolean =>
  project.grants.some((g) => active(g, now) && g.workzoneIds.size > 0);
