// The operation docs of the webhooks module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/webhooks/core/ checks, the codes it answers. Our extension,
// not in the vendor's API (docs/webhooks.md).
import {
  API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, INVALID_INPUT as INPUT,
  type OperationTable,
} from '../../../http/operation-docs.ts';

const WH = `${A}/webhooks/{webhookRef}`;
const WEBHOOK = [...ACCOUNT, 'invalid-webhook-urn', 'webhook-not-found'] as const;
const WEBHOOK_READ = '`account:integrations:read` (the account owner and administrators).';
const WEBHOOK_WRITE = '`account:integrations:write` (the account owner and administrators).';

export const WEBHOOK_API2_OPERATIONS: OperationTable = {
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
