// The operation docs of the members module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/members/core/members.ts checks (CONTRACT §5), the codes it answers.
import {
  API2_PROJECT_PATH as P, API2_PROJECT_ERRORS as PROJECT, API2_WORKZONE_PATH as W, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER,
  type OperationTable,
} from '../../../http/operation-docs.ts';

export const MEMBER_API2_OPERATIONS: OperationTable = {
  [`GET ${P}/members`]: { does: 'The users member of the project, directly or through a group.', permission: `${MEMBER} (\`project:members:list\`).`, errors: [...PROJECT, 'list-project-members-forbidden'] },
  [`GET ${P}/members/access`]: {
    does: 'Every member (user or group) with its role, access expiration date and every work zone it reaches (expanded, not only the topmost).',
    permission: `${MEMBER} (\`project:members:list\`).`,
    errors: [...PROJECT, 'list-project-members-forbidden'],
  },
  [`POST ${P}/members`]: {
    does:
      'Adds users (by e-mail) and groups to the project, or to some of its work zones, with one role each (a member has one role in a project). ' +
      'A user who is not a member of the account is invited to it (as bulk invite does, with its caps): his grants take effect when he accepts.',
    permission:
      '`workzone:members:write` on every work zone named (the root when none is); a caller who is neither the project owner nor holds `account:users:write` must also hold the permissions of the role given.',
    errors: [
      ...PROJECT, ...WORKZONE, INPUT, 'expiration-date-in-past', 'member-has-another-role', 'add-project-members-forbidden', 'role-not-found', 'group-not-found',
      'too-many-invitations',
    ],
  },
  [`POST ${P}/members/bulk-remove`]: {
    does: 'Removes users and groups from every work zone of the project. The project owner cannot be removed.',
    permission: '`workzone:members:write` on the root work zone, except for a user removing himself.',
    errors: [...PROJECT, INPUT, 'cannot-remove-project-owner', 'remove-contributor-forbidden'],
  },
  [`DELETE ${P}/members/users/{userRef}`]: {
    does: 'Removes a user from every work zone of the project. The project owner cannot be removed.',
    permission: '`workzone:members:write` on the root work zone, except for a user removing himself.',
    errors: [...PROJECT, 'invalid-user-urn', 'cannot-remove-project-owner', 'remove-contributor-forbidden'],
  },
  [`DELETE ${P}/members/groups/{groupRef}`]: {
    does: 'Removes a group from every work zone of the project.',
    permission: '`workzone:members:write` on the root work zone.',
    errors: [...PROJECT, 'invalid-group-urn', 'remove-contributor-forbidden'],
  },
  [`DELETE ${W}/members/users/{userRef}`]: {
    does: 'Removes a user from a work zone and all work zones below it; with `allowRemoveOnParents=true` also from the parent work zones he belongs to.',
    permission: '`workzone:members:write` on the work zone (and on those parents), except for a user removing himself.',
    errors: [...PROJECT, ...WORKZONE, 'invalid-user-urn', 'cannot-remove-project-owner', 'remove-contributor-from-work-zone-forbidden'],
  },
};
