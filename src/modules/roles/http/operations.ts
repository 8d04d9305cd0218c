// The operation docs of the roles module's routes (src/http/operation-docs.ts): what each does,
// the permission src/modules/roles/core/roles.ts checks (CONTRACT §5), the codes it answers.
import { API1_ACCOUNT_PATH as A1, API2_ACCOUNT_PATH as A2, API1_ACCOUNT_ERRORS as API1_ACCOUNT, API2_ACCOUNT_ERRORS as API2_ACCOUNT, INVALID_INPUT as INPUT, type OperationTable } from '../../../http/operation-docs.ts';


export const ROLE_API1_OPERATIONS: OperationTable = {
  [`GET ${A1}/roles`]: { does: 'The roles of the account with their legacy permissions.', permission: '`account:roles:read` (every account member).', errors: [...API1_ACCOUNT, 'list-roles-forbidden'] },
  [`GET ${A1}/roles/{roleId}`]: { does: 'One role of the account.', permission: '`account:roles:read`.', errors: [...API1_ACCOUNT, 'view-role-forbidden', 'role-not-found'] },
};

export const ROLE_API2_OPERATIONS: OperationTable = {
  [`GET ${A2}/roles`]: { does: 'The roles of the account, base roles (Manager, Contributor, Viewer) included.', permission: '`account:roles:read` (every account member).', errors: [...API2_ACCOUNT, 'list-roles-forbidden'] },
  [`POST ${A2}/roles`]: {
    does: 'Creates a role from `permissions`, `legacyPermissions` or both (they must agree); only whole rows of the spec\'s permission combinations are accepted.',
    permission: '`account:roles:write` (owner, administrators, project managers).',
    errors: [...API2_ACCOUNT, INPUT, 'create-role-forbidden'],
  },
  [`GET ${A2}/roles/{roleRef}`]: { does: 'One role of the account.', permission: '`account:roles:read`.', errors: [...API2_ACCOUNT, 'invalid-role-urn', 'view-role-forbidden', 'role-not-found'] },
  [`PUT ${A2}/roles/{roleRef}`]: {
    does: 'Overwrites a role (a missing field is erased). Base roles cannot be changed.',
    permission: '`account:roles:write`.',
    errors: [...API2_ACCOUNT, INPUT, 'invalid-role-urn', 'cannot-update-base-role', 'update-role-forbidden', 'role-not-found'],
  },
  [`DELETE ${A2}/roles/{roleRef}`]: {
    does: 'Deletes a role that no member holds. Base roles cannot be deleted.',
    permission: '`account:roles:write`.',
    errors: [...API2_ACCOUNT, 'invalid-role-urn', 'cannot-delete-base-role', 'role-used', 'delete-role-forbidden', 'role-not-found'],
  },
};
