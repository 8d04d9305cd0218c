// The operation docs of the groups module's routes (src/http/operation-docs.ts): what each does,
// the permission src/modules/groups/core/groups.ts checks (CONTRACT §5), the codes it answers.
import { API1_ACCOUNT_PATH as A1, API2_ACCOUNT_PATH as A2, API1_ACCOUNT_ERRORS as API1_ACCOUNT, API2_ACCOUNT_ERRORS as API2_ACCOUNT, INVALID_INPUT as INPUT, type OperationTable } from '../../../http/operation-docs.ts';


export const GROUP_API1_OPERATIONS: OperationTable = {
  [`GET ${A1}/groups`]: { does: 'The groups of the account.', permission: '`account:groups:read` (every account member).', errors: [...API1_ACCOUNT, 'list-groups-forbidden'] },
  [`GET ${A1}/groups/{groupId}`]: { does: 'One group of the account.', permission: '`account:groups:read`.', errors: [...API1_ACCOUNT, 'view-group-forbidden', 'group-not-found'] },
};

export const GROUP_API2_OPERATIONS: OperationTable = {
  [`GET ${A2}/groups`]: { does: 'The groups of the account.', permission: '`account:groups:read` (every account member).', errors: [...API2_ACCOUNT, 'list-groups-forbidden'] },
  [`POST ${A2}/groups`]: {
    does: 'Creates a group; names are unique in the account, case-insensitively.',
    permission: '`account:groups:write` (owner, administrators, project managers).',
    errors: [...API2_ACCOUNT, INPUT, 'create-group-forbidden', 'group-already-exists'],
  },
  [`GET ${A2}/groups/{groupRef}`]: { does: 'One group of the account.', permission: '`account:groups:read`.', errors: [...API2_ACCOUNT, 'invalid-group-urn', 'view-group-forbidden', 'group-not-found'] },
  [`PUT ${A2}/groups/{groupRef}`]: {
    does: 'Overwrites a group.',
    permission: '`account:groups:write`.',
    errors: [...API2_ACCOUNT, INPUT, 'invalid-group-urn', 'update-group-forbidden', 'group-not-found', 'group-already-exists'],
  },
  [`DELETE ${A2}/groups/{groupRef}`]: {
    does: 'Deletes a group; its members lose the access they had through it.',
    permission: '`account:groups:write`.',
    errors: [...API2_ACCOUNT, 'invalid-group-urn', 'delete-group-forbidden', 'group-not-found'],
  },
  [`POST ${A2}/groups/{groupRef}/members`]: {
    does: 'Adds users of the account to a group.',
    permission: '`account:groups:write`.',
    errors: [...API2_ACCOUNT, INPUT, 'invalid-group-urn', 'update-group-forbidden', 'group-not-found', 'user-not-found'],
  },
  [`DELETE ${A2}/groups/{groupRef}/members`]: {
    does: 'Removes users from a group.',
    permission: '`account:groups:write`.',
    errors: [...API2_ACCOUNT, INPUT, 'invalid-group-urn', 'users-not-in-groups', 'update-group-forbidden', 'group-not-found'],
  },
};
