// The description of every API 2 and token-service operation (src/http/operation-docs.ts):
// what it does, the permission the use case checks (src/core/…), the codes it answers.
import {
  API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, INVALID_INPUT as INPUT,
  type OperationTable,
} from '../operation-docs.ts';


const VALUES = 'A fixed list, the same for every caller.';
const WH = `${A}/webhooks/{webhookRef}`;
const WEBHOOK = [...ACCOUNT, 'invalid-webhook-urn', 'webhook-not-found'] as const;
const WEBHOOK_READ = '`account:integrations:read` (the account owner and administrators).';
const WEBHOOK_WRITE = '`account:integrations:write` (the account owner and administrators).';

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

  // Values.
  'GET /api/2/values/ai-detection-classes': { does: `The classes an AI detection may look for. ${VALUES}`, errors: [] },

  // Webhooks: our extension, not in the vendor's API (docs/webhooks.md).
  [`POST ${A}/webhooks`]: {
    does:
      'Registers an endpoint that receives the account\'s events as Standard Webhooks deliveries (signed POSTs of `{type, timestamp, data}`). ' +
      'Answers 201 with the endpoint and its signing `secret` (`whsec_…`), which no other answer shows. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...ACCOUNT, INPUT, 'invalid-webhook-url', 'invalid-webhook-events', 'manage-webhooks-forbidden', 'webhook-limit-reached'],
  },
  [`GET ${A}/webhooks`]: { does: 'The account\'s webhook endpoints (without secrets). Not in the vendor\'s API.', permission: WEBHOOK_READ, errors: [...ACCOUNT, 'read-webhooks-forbidden'] },
  [`GET ${WH}`]: { does: 'A webhook endpoint (without its secret). Not in the vendor\'s API.', permission: WEBHOOK_READ, errors: [...WEBHOOK, 'read-webhooks-forbidden'] },
  [`PATCH ${WH}`]: {
    does: 'Changes the given fields of an endpoint; `enabled: true` also re-enables one the service disabled after a day of failures. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...WEBHOOK, INPUT, 'invalid-webhook-url', 'invalid-webhook-events', 'manage-webhooks-forbidden'],
  },
  [`DELETE ${WH}`]: { does: 'Deletes an endpoint and its deliveries. Not in the vendor\'s API.', permission: WEBHOOK_WRITE, errors: [...WEBHOOK, 'manage-webhooks-forbidden'] },
  [`POST ${WH}/rotate-secret`]: {
    does: 'Replaces the signing secret and answers the new one; for a day the deliveries carry a signature with the previous secret too. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...WEBHOOK, 'manage-webhooks-forbidden'],
  },
  [`GET ${WH}/deliveries`]: {
    does: 'The endpoint\'s deliveries, newest event first (`limit`, `state`): attempts, last status and error, next attempt. Not in the vendor\'s API.',
    permission: WEBHOOK_READ,
    errors: [...WEBHOOK, INPUT, 'read-webhooks-forbidden'],
  },
  [`POST ${WH}/deliveries/{deliveryId}/replay`]: {
    does: 'Sends a delivery again: pending, due now, a new day of attempts, the same `webhook-id`. Answers 202. Not in the vendor\'s API.',
    permission: WEBHOOK_WRITE,
    errors: [...WEBHOOK, 'manage-webhooks-forbidden', 'webhook-delivery-not-found'],
  },
};
