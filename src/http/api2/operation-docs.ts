// The description of every API 2 and token-service operation (src/http/operation-docs.ts):
// what it does, the permission the use case checks (src/core/…), the codes it answers.
import {
  API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, INVALID_INPUT as INPUT,
  type OperationTable,
} from '../operation-docs.ts';


const VALUES = 'A fixed list, the same for every caller.';

export const API2_OPERATIONS: OperationTable = {
  // The token service (spec "Token endpoints", CONTRACT §4; docs/tokens.md).
  'POST /oauth/token': {
    does:
      'Exchanges an authorization code (`grant_type=authorization_code`, `code`, `authorization_code` or `redirect_uri`: the redirect address, ' +
      '`code_verifier` when the authorization had a PKCE challenge) or a refresh token (`grant_type=refresh_token`, `refresh_token`) for a new pair: ' +
      'an access token valid 3 hours (`expires_in` 10800) and a single-use refresh token valid 21 days. Form-encoded or JSON body.',
    public: true,
    errors: ['invalid_request', 'unsupported_grant_type', { code: 'unauthorized', when: 'error invalid_grant: a used, expired, revoked or unknown code or refresh token' }],
  },
  'POST /oauth/revoke': {
    does: 'Revokes a refresh token (RFC 7009). Always answers 200 `{}`, also for an unknown token; access tokens live until they expire.',
    public: true,
    errors: ['invalid_request'],
  },
  'GET /oauth/userinfo': {
    does: 'Who the bearer of the access token is: `sub` (the user URN), `email`, `name`, `given_name`, `family_name` (the claim names of OpenID Connect\'s UserInfo). ' +
      'A missing, expired or unknown token answers 401 `invalid_token` with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750).',
    permission: 'a valid access token (any user: his own profile).',
    errors: ['unauthorized'],
  },
  'GET /oauth/jwks': { does: 'The public keys (ES256, JWK set) that verify the access tokens.', public: true, errors: [] },
  'GET /.well-known/oauth-authorization-server': {
    does: 'The authorization server metadata (RFC 8414): issuer, authorize, token, revocation, JWKS and userinfo addresses, PKCE method S256.',
    public: true,
    errors: [],
  },

  // The caller's sessions: our extension (docs/security.md "Evicting every session").
  'POST /api/2/me/sign-out-everywhere': {
    does:
      'Ends every session of the caller: his browser sign-ins, his refresh tokens and unused authorization codes, and every access token ' +
      'issued until now (this one included), refused from the next request on every node. Answers 204. Not in the vendor\'s API.',
    errors: [],
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

  // Values.
  'GET /api/2/values/ai-detection-classes': { does: `The classes an AI detection may look for. ${VALUES}`, errors: [] },

  // Users of an account (src/core/users/account-users.ts).
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
};
