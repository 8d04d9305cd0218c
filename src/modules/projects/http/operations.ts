// The operation docs of the projects module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/projects/core/ checks (CONTRACT §6), the codes it answers.
// The project covers' operations are the files module's (src/modules/files/http/operations.ts).
import {
  API1_ACCOUNT_PATH as A1, API1_ACCOUNT_ERRORS as ACCOUNT1, API1_PROJECT_PATH as P1, API1_PROJECT_ERRORS as PROJECT1,
  API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, API2_PROJECT_PATH as P, API2_PROJECT_ERRORS as PROJECT, INVALID_INPUT as INPUT,
  type OperationTable,
} from '../../../http/operation-docs.ts';

export const PROJECT_API1_OPERATIONS: OperationTable = {
  [`GET ${A1}/projects`]: {
    does: 'The projects of the account the caller sees (a member, or all of them with `account:projects:list`); with `workzoneId`, only the project owning that work zone.',
    permission: '`account:account:read` (every account member).',
    errors: [...ACCOUNT1, INPUT, 'list-projects-forbidden', 'workzone-not-found'],
  },
  [`GET ${P1}`]: { does: 'One project with its work zones, deleted ones included.', permission: 'a project member, or `project:project:list` (through `account:projects:list`).', errors: [...ACCOUNT1, 'not-member-of-project', 'project-not-found'] },
  [`PATCH ${P1}`]: {
    does:
      'Moves the project to another subscription of the account: `[{op: "replace", path: <current subscription id>, value: <new subscription id>}]`. ' +
      'A bad `op` or `path` answers 400 `{status, type}`.',
    permission: '`project:project:update-owner` and `project:project:update-subscription`.',
    errors: [...PROJECT1, INPUT, 'subscription-not-active', 'update-project-ownership-or-subscription-forbidden', 'subscription-not-found'],
  },
};

export const PROJECT_API2_OPERATIONS: OperationTable = {
  [`GET ${A}/projects`]: {
    does:
      'The active and deleted projects of the account that the caller sees: those he is a member of, and all of them with `account:projects:list`. ' +
      'The answer is gzip-coded when `Accept-Encoding` accepts gzip (`Vary: Accept-Encoding`), and carries a strong `ETag`: ' +
      '`If-None-Match` naming it answers 304 without a body (docs/performance.md, "The project list").',
    permission: '`account:account:read` (every account member).',
    errors: [...ACCOUNT, 'list-projects-forbidden'],
  },
  [`POST ${A}/projects`]: {
    does: 'Creates a project with its root work zone on an active subscription of the account; the caller becomes its owner.',
    permission: '`account:projects:create` (project managers).',
    errors: [...ACCOUNT, INPUT, 'subscription-not-active', 'create-project-forbidden', 'subscription-not-found'],
  },
  [`GET ${P}`]: { does: 'One project, deleted ones included.', permission: 'a project member, or `project:project:list` (through `account:projects:list`).', errors: [...ACCOUNT, 'invalid-project-urn', 'not-member-of-project', 'project-not-found'] },
  [`PUT ${P}`]: {
    does: 'Overwrites a project (a missing field is erased); may change its owner or subscription.',
    permission: '`project:project:update-details` to change its details; `project:project:update-owner` and `project:project:update-subscription` to change its owner or subscription.',
    errors: [...PROJECT, INPUT, 'subscription-not-active', 'update-project-forbidden', 'update-project-ownership-or-subscription-forbidden', 'new-project-owner-not-manager'],
  },
  [`PATCH ${P}`]: {
    does: 'Changes only the given fields of a project.',
    permission: '`project:project:update-details` to change its details; `project:project:update-owner` and `project:project:update-subscription` to change its owner or subscription.',
    errors: [...PROJECT, INPUT, 'subscription-not-active', 'update-project-forbidden', 'update-project-ownership-or-subscription-forbidden', 'new-project-owner-not-manager'],
  },
  [`DELETE ${P}`]: {
    does: 'Deletes a project: softly (it can be restored), or for good with `permanent=true` once it is deleted.',
    permission: '`project:project:delete`.',
    errors: [...ACCOUNT, 'invalid-project-urn', 'project-deleted', 'project-not-deleted', 'not-member-of-project', 'delete-project-forbidden', 'project-not-found'],
  },
  [`PUT ${P}/restore`]: {
    does: 'Restores a deleted project.',
    permission: '`project:project:delete`.',
    errors: [...ACCOUNT, 'invalid-project-urn', 'project-active', 'not-member-of-project', 'restore-project-forbidden', 'project-not-found'],
  },
};
