// The description of every API 1 operation and of the connect jobs' paths
// (src/http/operation-docs.ts): what it does, the permission the use case checks
// (API 1 calls the same use cases as API 2, src/core/…), the codes it answers as {code, message}.
import {
  API1_ACCOUNT_PATH as A, API1_ACCOUNT_ERRORS as ACCOUNT,
  type OperationTable,
} from '../operation-docs.ts';

export const API1_OPERATIONS: OperationTable = {
  'GET /api/isLogged': { does: 'Health check: answers 200 `{success: true}` when the access token is recognised.', errors: [] },
  [`GET ${A}/users`]: {
    does: 'The users of the account.',
    permission: '`account:users:read`, or `workzone:members:write` on some work zone of the account.',
    errors: [...ACCOUNT, 'list-users-forbidden'],
  },
  [`GET ${A}/users/{userId}`]: { does: 'One user of the account.', permission: '`account:users:read`.', errors: [...ACCOUNT, 'view-user-forbidden', 'user-not-found'] },
};
