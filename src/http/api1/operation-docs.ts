// The description of every API 1 operation and of the connect jobs' paths
// (src/http/operation-docs.ts): what it does, the permission the use case checks
// (API 1 calls the same use cases as API 2, src/core/…), the codes it answers as {code, message}.
import { API1_ACCOUNT_PATH as A, API1_ACCOUNT_ERRORS as ACCOUNT, INVALID_INPUT as INPUT, type OperationTable } from '../operation-docs.ts';

const P = `${A}/projects/{projectId}`;
const L = `${P}/tag-lists`;

/** access.project (src/core/projects/project-access.ts): a member, or project:project:list. */
const PROJECT = [...ACCOUNT, 'project-not-found', 'not-member-of-project', 'deleted-project'] as const;
const MEMBER = 'a project member (`project:workzones:list`; otherwise 403 `not-member-of-project`)';
const TAG_CHANGES = ['capacity-exceeded-tag', 'too-many-tags', 'tag-list-pending'] as const;

export const API1_OPERATIONS: OperationTable = {
  'GET /api/isLogged': { does: 'Health check: answers 200 `{success: true}` when the access token is recognised.', errors: [] },
  'GET /api/accounts': { does: 'The accounts the caller belongs to.', errors: [] },
  [`GET ${A}`]: { does: 'One account of the caller.', permission: '`account:account:read` (every account member).', errors: [...ACCOUNT, 'view-account-forbidden'] },
  [`GET ${A}/subscriptions`]: {
    does: 'The subscriptions of the account.',
    permission: '`account:subscriptions:read` (owner, administrators, project managers).',
    errors: [...ACCOUNT, 'list-subscriptions-forbidden'],
  },
  [`GET ${A}/users`]: {
    does: 'The users of the account.',
    permission: '`account:users:read`, or `workzone:members:write` on some work zone of the account.',
    errors: [...ACCOUNT, 'list-users-forbidden'],
  },
  [`GET ${A}/users/{userId}`]: { does: 'One user of the account.', permission: '`account:users:read`.', errors: [...ACCOUNT, 'view-user-forbidden', 'user-not-found'] },
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
  [`GET ${L}`]: {
    does: 'The tag lists of the work zones where the caller holds `workzone:tags:read`; with `since`, only those updated after it.',
    permission: `${MEMBER} with \`workzone:tags:read\` on at least one work zone.`,
    errors: [...PROJECT, INPUT, 'list-tag-lists-forbidden'],
  },
  [`POST ${L}`]: {
    does: 'Creates a tag list in the work zone `parentId`, optionally with tags (`insert`) and an AI detection (`detect`).',
    permission: '`workzone:tags:write` on the work zone; with `detect`, `workzone:reality-data:read` + `workzone:export-jobs-reality-data:write` on each scan\'s work zone.',
    errors: [...PROJECT, INPUT, ...TAG_CHANGES, 'create-tag-list-forbidden', 'update-tag-list-forbidden', 'workzone-not-found'],
  },
  [`GET ${L}/{tagListId}`]: {
    does: 'The tags of a list; with `since`, the changes after it, deletions as deleted-tag markers.',
    permission: `${MEMBER} with \`workzone:tags:read\` on the list's work zone.`,
    errors: [...PROJECT, INPUT, 'view-tag-list-forbidden', 'tag-list-not-found'],
  },
  [`PUT ${L}/{tagListId}`]: {
    does: 'Updates a tag list: its data, and tags inserted, updated and deleted, in one transaction; `detect` launches an AI detection.',
    permission: '`workzone:tags:write` on the list\'s work zone; with `detect`, `workzone:reality-data:read` + `workzone:export-jobs-reality-data:write` on each scan\'s work zone.',
    errors: [...PROJECT, INPUT, ...TAG_CHANGES, 'update-tag-list-forbidden', 'tag-list-not-found'],
  },
  [`DELETE ${L}/{tagListId}`]: {
    does: 'Deletes a tag list: answers a deleted-tag marker per tag it held.',
    permission: '`workzone:tags:write` on the list\'s work zone.',
    errors: [...PROJECT, 'delete-tag-list-forbidden', 'tag-list-not-found', 'tag-list-pending'],
  },
};
