// API 1's reports: projects' last access dates and users' last activity dates (UTC days).
import type { EntityRef } from '../../../core/ids/urn.ts';
import { requirePermission, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import type { ProjectLastAccessRow, ReportsRepo, UserLastActivityRow } from './ports.ts';

/** The account reports: projects last accessed, users last activity. */
export interface Reports {
  /** Needs account:projects:list (every project of the account is reported). */
  projectsLastAccessed(actor: Actor, accountRef: EntityRef, filter: { subscriptionId?: string; projectId?: string }): Promise<ProjectLastAccessRow[]>;
  /** Needs account:users:read. */
  usersLastActivity(actor: Actor, accountRef: EntityRef): Promise<UserLastActivityRow[]>;
}

export function createReports(deps: { store: { readonly repos: { reports: ReportsRepo } }; authorizer: Authorizer }): Reports {
  const { store, authorizer } = deps;
  return {
    /** Needs account:projects:list (every project of the account is reported). */
    async projectsLastAccessed(
      actor: Actor,
      accountRef: EntityRef,
      filter: { subscriptionId?: string; projectId?: string },
    ): Promise<ProjectLastAccessRow[]> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:projects:list', 'view-report-forbidden');
      return store.repos.reports.projectsLastAccessed(scope.account.id, filter);
    },
    /** Needs account:users:read. */
    async usersLastActivity(actor: Actor, accountRef: EntityRef): Promise<UserLastActivityRow[]> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:users:read', 'view-report-forbidden');
      return store.repos.reports.usersLastActivity(scope.account.id);
    },
  };
}
