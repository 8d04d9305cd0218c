// The webhooks module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (WEBHOOK_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-webhook-urn stays in the kernel's catalogue: the URN parser answers it.
import { codeRow } from '../../../core/error-codes.ts';

export const WEBHOOK_ERROR_CODES = {
  'invalid-webhook-url': codeRow(400, 'ours'),
  'invalid-webhook-events': codeRow(400, 'ours'),
  'read-webhooks-forbidden': codeRow(403, 'ours'),
  'manage-webhooks-forbidden': codeRow(403, 'ours'),
  'webhook-not-found': codeRow(404, 'ours'),
  'webhook-delivery-not-found': codeRow(404, 'ours'),
  'webhook-limit-reached': codeRow(409, 'ours'),
} as const;

type WebhookErrorCodesRows = typeof WEBHOOK_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends WebhookErrorCodesRows {}
}
