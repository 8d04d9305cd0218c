// The operation docs of the users module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/users/core/ checks (CONTRACT §5), the codes it answers.
import {
  API1_ACCOUNT_PATH as A1, API1_ACCOUNT_ERRORS as ACCOUNT1, API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, INVALID_INPUT as INPUT,
  type OperationTable,
} from '../../../http/operation-docs.ts';

export const USER_API1_OPERATIONS: OperationTable = {
  [`GET ${A1}/users`]: {
    does: 'The users of the account.',
    permission: '`account:users:read`, or `workzone:members:write` on some work zone of the account.',
    errors: [...ACCOUNT1, 'list-users-forbidden'],
  },
  [`GET ${A1}/users/{userId}`]: { does: 'One user of the account.', permission: '`account:users:read`.', errors: [...ACCOUNT1, 'view-user-forbidden', 'user-not-found'] },
};

export const USER_API2_OPERATIONS: OperationTable = {
  // Users of an account (core/account-users.ts).
  [`GET ${A}/users`]: {
    does:
      'The users of the account, then the users invited and not yet accepted (`pending: true`: only the address the inviter wrote and the id); ' +
      '`accountRoles` lists only the roles the caller may read.',
    permission: '`account:users:read`, or `workzone:members:write` on some work zone of the account.',
    errors: [...ACCOUNT, 'list-users-forbidden'],
  },
  [`GET ${A}/users/{userRef}`]: { does: 'One user of the account.', permission: '`account:users:read`.', errors: [...ACCOUNT, 'invalid-user-urn', 'view-user-forbidden', 'user-not-found'] },
  [`POST ${A}/users/bulk-invite`]: {
    does:
      'Invites users by e-mail, optionally with account roles. Idempotent, all or nothing. A member gets the roles he misses. Anyone else ' +
      '(new to the service or not) gets a pending invitation, which he accepts after signing in (or by setting his first password from the ' +
      'e-mailed link); the answer shows of him only the address sent, his id and `pending: true`. At most `INVITE_MAX_PER_REQUEST` ' +
      'addresses (100) per request, `INVITE_MAX_PER_ACCOUNT_DAY` new invitations (500) per account per day (429 `too-many-invitations` ' +
      'with Retry-After, nothing changed); a recipient gets at most `INVITE_MAILS_PER_RECIPIENT_DAY` invitation mails (3) a day.',
    permission:
      '`account:users:write` (or `workzone:members:write` on some work zone, for users invited without account roles); each account role given needs its write permission: ' +
      '`account:administrators:write`, `account:project-managers:write`, `account:project-listers:write`.',
    errors: [...ACCOUNT, INPUT, 'create-user-forbidden', 'too-many-invitations'],
  },
  [`DELETE ${A}/members`]: {
    does:
      'Removes users from the account (and from its projects); for a pending invitee, withdraws the invitation. The account owner cannot be ' +
      'removed, nor a user who owns projects of the account.',
    permission: '`account:users:write`, plus the write permission of every account role the user holds.',
    errors: [...ACCOUNT, INPUT, 'remove-user-from-account-forbidden', 'delete-account-owner-forbidden', 'user-not-found'],
  },
  [`PUT ${A}/members/{userRef}/roles`]: {
    does: 'Sets the account roles (administrator, projectManager, projectLister) of a user of the account (of a pending invitee: those accepting will give).',
    permission: '`account:users:write`, plus the write permission of every role added or removed (`account:administrators:write`, `account:project-managers:write`, `account:project-listers:write`).',
    errors: [...ACCOUNT, INPUT, 'invalid-user-urn', 'update-user-account-roles-forbidden', 'user-not-found'],
  },


  // The caller's own invitations: our extension (docs/security.md "Invitations").
  'GET /api/2/me/invitations': {
    does: 'The caller\'s pending invitations to accounts (joining an account is an invitation the user accepts), oldest first. Not in the vendor\'s API.',
    errors: [],
  },
  'POST /api/2/me/invitations/{accountRef}/accept': {
    does: 'Accepts the caller\'s invitation to the account: he becomes a member with the account roles it gives, and his project grants there take effect. Answers 204. Not in the vendor\'s API.',
    errors: [...ACCOUNT, { code: 'account-not-found', when: 'the caller has no pending invitation to that account' }],
  },
  'POST /api/2/me/invitations/{accountRef}/decline': {
    does: 'Declines the caller\'s invitation to the account; the project grants waiting with it go. Answers 204. Not in the vendor\'s API.',
    errors: [...ACCOUNT],
  },
};
