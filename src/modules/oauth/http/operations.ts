// The operation docs of the oauth module's routes (src/http/operation-docs.ts): the token
// service's endpoints (spec "Token endpoints", CONTRACT §4; docs/tokens.md) and API 2's
// sessions, what each does and the codes it answers. They are in API 2's document.
import type { OperationTable } from '../../../http/operation-docs.ts';

export const OAUTH_API2_OPERATIONS: OperationTable = {
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
};
