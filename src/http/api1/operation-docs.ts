// The description of every API 1 operation and of the connect jobs' paths
// (src/http/operation-docs.ts): what it does, the permission the use case checks
// (API 1 calls the same use cases as API 2, src/core/…), the codes it answers as {code, message}.
import {
  API1_ACCOUNT_PATH as A, API1_ACCOUNT_ERRORS as ACCOUNT, API1_PROJECT_PATH as P, API1_PROJECT_ERRORS as PROJECT, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER,
  type OperationTable,
} from '../operation-docs.ts';

export const API1_OPERATIONS: OperationTable = {
  'GET /api/isLogged': { does: 'Health check: answers 200 `{success: true}` when the access token is recognised.', errors: [] },
  [`GET ${A}/projects`]: {
    does: 'The projects of the account the caller sees (a member, or all of them with `account:projects:list`); with `workzoneId`, only the project owning that work zone.',
    permission: '`account:account:read` (every account member).',
    errors: [...ACCOUNT, INPUT, 'list-projects-forbidden', 'workzone-not-found'],
  },
  [`GET ${P}`]: { does: 'One project with its work zones, deleted ones included.', permission: 'a project member, or `project:project:list` (through `account:projects:list`).', errors: [...ACCOUNT, 'not-member-of-project', 'project-not-found'] },
  [`PATCH ${P}`]: {
    does:
      'Moves the project to another subscription of the account: `[{op: "replace", path: <current subscription id>, value: <new subscription id>}]`. ' +
      'A bad `op` or `path` answers 400 `{status, type}`.',
    permission: '`project:project:update-owner` and `project:project:update-subscription`.',
    errors: [...PROJECT, INPUT, 'subscription-not-active', 'update-project-ownership-or-subscription-forbidden', 'subscription-not-found'],
  },
  [`GET ${P}/files`]: {
    does: 'The files of the project in the work zones where the caller holds `workzone:workzones:read`, optionally of some categories (`category=scan,model`).',
    permission: `${MEMBER}.`,
    errors: [...PROJECT, INPUT],
  },
};
