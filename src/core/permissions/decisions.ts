// What the authorizer allowed, per request (the audit log: src/modules/audit, docs/audit.md).
// A surface that records its requests runs each in a DecisionLog (runWithDecisionLog);
// requirePermission notes every permission it allowed there, with the grant it came from when
// the held set says (describeHeld: the account scope, a project's or a work zone's). Without a
// log (reads, background tasks) noting costs one AsyncLocalStorage lookup.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccountFacts, ProjectFacts } from './evaluate.ts';
import {
  ADMINISTRATOR_PERMISSIONS, MEMBER_PERMISSIONS, OWNER_PERMISSIONS, PROJECT_LISTER_PERMISSIONS, PROJECT_MANAGER_PERMISSIONS,
} from './account-roles.ts';
import { effectiveRolePermissions } from './role-rules.ts';

/** One permission the authorizer allowed, the grant it came from (null: not known), and the account it acted in. */
export interface AllowedDecision {
  permission: string;
  grant: string | null;
  accountId: string | null;
}

/** What one audited request gathers while it runs. */
export interface DecisionLog {
  readonly allowed: AllowedDecision[];
  /** A sign-in names the user it signed in (he is no principal yet). */
  signedIn?: string;
  /** The first account the caller was found a member of (a refused change names it too). */
  accountId?: string;
  /** The OAuth client a request without an access token acted for (the token endpoint, the authorize pages). */
  oauthClient?: string;
  /** Why a sign-in failed, when its surface says (`sso:signature`, `sso:replay`…): the audit record names it. */
  signInFailure?: string;
}

const current = new AsyncLocalStorage<DecisionLog>();

/** Runs `fn` (and everything it starts) with `log` gathering the allowed decisions. */
export const runWithDecisionLog = <T>(log: DecisionLog, fn: () => T): T => current.run(log, fn);

/** The log of the request running now, if it is recorded. */
export const currentDecisionLog = (): DecisionLog | undefined => current.getStore();

/** Where a held set came from: its account, and which grant gives each permission. */
export interface HeldProvenance {
  accountId: string;
  grantOf(permission: string): string | null;
}

const provenance = new WeakMap<ReadonlySet<string>, HeldProvenance>();

/** Marks `held` with where it came from (answers it). */
export function describeHeld<S extends ReadonlySet<string>>(held: S, from: HeldProvenance): S {
  provenance.set(held, from);
  return held;
}

/**
 * Notes that `permissions` were allowed from `held` (requirePermission, on success); or, for a
 * named condition the caller met (refusal-conditions.ts), with `condition:<name>` as the grant.
 */
export function noteAllowed(held: ReadonlySet<string> | { condition: string }, permissions: readonly string[]): void {
  const log = current.getStore();
  if (!log) return;
  const from = 'condition' in held ? { accountId: null, grantOf: () => `condition:${held.condition}` } : provenance.get(held);
  for (const permission of permissions) {
    log.allowed.push({ permission, grant: from?.grantOf(permission) ?? null, accountId: from?.accountId ?? null });
  }
}

/** Notes the account a request acts in (the authorizer, on finding the caller's scope). */
export function noteAccount(accountId: string): void {
  const log = current.getStore();
  if (log && log.accountId === undefined) log.accountId = accountId;
}

/** The token service notes the OAuth client it issued a code or a token pair to (the caller has no access token to name it). */
export function noteOAuthClient(clientId: string): void {
  const log = current.getStore();
  if (log) log.oauthClient = clientId;
}

/** A sign-in notes the user it signed in. */
export function noteSignedIn(userId: string): void {
  const log = current.getStore();
  if (log) log.signedIn = userId;
}

/** A sign-in notes why it failed (a reason code, no secret in it). */
export function noteSignInFailure(reason: string): void {
  const log = current.getStore();
  if (log) log.signInFailure = reason;
}

/** The account grant of a permission: `account-owner`, `account-role:<name>` or `account-member` (evaluate.ts accountPermissions). */
export function accountGrantOf(f: AccountFacts, permission: string): string | null {
  const has = (list: readonly string[]) => list.includes(permission);
  if (f.isOwner && has(OWNER_PERMISSIONS)) return 'account-owner';
  if (f.roles.includes('administrator') && has(ADMINISTRATOR_PERMISSIONS)) return 'account-role:administrator';
  if (f.roles.includes('projectManager') && has(PROJECT_MANAGER_PERMISSIONS)) return 'account-role:projectManager';
  if (f.roles.includes('projectLister') && has(PROJECT_LISTER_PERMISSIONS)) return 'account-role:projectLister';
  if (has(MEMBER_PERMISSIONS)) return 'account-member';
  return null;
}

/**
 * The grant of a project or work-zone permission: `project-owner` (rule 7), `project-role:<roleId>`
 * (the first active grant whose role gives it, on `workzoneId` when given), else the account grant
 * it follows from (rule 6, account:users:write).
 */
export function projectGrantOf(
  userId: string, account: AccountFacts, project: ProjectFacts, permission: string, now: Date, workzoneId?: string,
): string | null {
  if (project.ownerId === userId) return 'project-owner';
  for (const g of project.grants) {
    if (g.expiresAt !== null && g.expiresAt.getTime() <= now.getTime()) continue;
    if (workzoneId !== undefined && !g.workzoneIds.has(workzoneId)) continue;
    const rule5 = permission === 'project:workzones:list' || permission === 'project:members:list' || permission === 'workzone:workzones:read';
    if (rule5 || effectiveRolePermissions(g.permissions).has(permission as never)) return `project-role:${g.roleId}`;
  }
  const implied: Record<string, string> = {
    'project:project:list': 'account:projects:list',
    'project:project:update-details': 'account:projects:update',
    'project:project:delete': 'account:projects:delete',
    'project:project:update-owner': 'account:administrators:write',
    'project:project:update-subscription': 'account:administrators:write',
    'workzone:members:write': 'account:users:write',
  };
  const via = implied[permission];
  return via ? accountGrantOf(account, via) : null;
}
