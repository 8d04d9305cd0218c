// Which account roles grant a set of permissions (our extension to the spec's 403:
// `errorValues.grantedBy`, docs/permissions.md), so that a refusal says what to ask for:
// `create-project-forbidden` names `account:projects:create` and `grantedBy: ["projectManager"]`.
// Derived from the evaluation engine itself (evaluate.ts), not from a second table: each
// candidate is evaluated as a member of an account and of a project he holds no role in, so
// what he gets is what the account role alone gives (account permissions, and the project
// and work-zone ones they imply: rules 6 and `account:users:write`). Permissions that only a
// project role (or owning the project) gives have no account role to name: `[]`.
import type { AccountRoleName } from './account-roles.ts';
import { accountPermissions, projectPermissions, workzonePermissions, type AccountFacts, type ProjectFacts } from './evaluate.ts';

/** The account's owner, then the account roles (spec "Account-level roles"). */
export type GrantingRole = 'owner' | AccountRoleName;
const CANDIDATES: readonly GrantingRole[] = ['owner', 'administrator', 'projectManager', 'projectLister'];

const SOMEONE = 'granted-by-candidate';
const PROJECT: ProjectFacts = { projectId: 'p', ownerId: null, rootWorkzoneId: 'root', grants: [] };

/** Everything each candidate holds from his account role alone, evaluated once. */
const HELD: ReadonlyMap<GrantingRole, ReadonlySet<string>> = new Map(
  CANDIDATES.map((role) => {
    const facts: AccountFacts = { accountId: 'a', isOwner: role === 'owner', isMember: true, roles: role === 'owner' ? [] : [role] };
    const now = new Date(0);
    const held = new Set<string>([
      ...accountPermissions(facts),
      ...projectPermissions(SOMEONE, facts, PROJECT, now),
      ...workzonePermissions(SOMEONE, facts, PROJECT, PROJECT.rootWorkzoneId, now),
    ]);
    return [role, held];
  }),
);

/** The candidates each of which holds every permission of `required` (in the order owner, administrator, projectManager, projectLister). */
export function grantingRoles(required: readonly string[]): GrantingRole[] {
  return CANDIDATES.filter((role) => required.every((p) => HELD.get(role)!.has(p)));
}

/** A 403's values: the permissions a refusal names, and the account roles that would grant them all. */
export const refusalValues = (required: readonly string[]): { requiredPermissions: string[]; grantedBy: GrantingRole[] } => ({
  requiredPermissions: [...required],
  grantedBy: grantingRoles(required),
});
