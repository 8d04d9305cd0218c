// The webhooks module (docs/webhooks.md; our extension, not in the vendor's API): endpoints
// an account administrator registers, deliveries fanned out in the publishing transaction,
// and every node's relay that signs and sends them (Standard Webhooks).
// Offers: Webhooks (the endpoints' use cases), WebhookRelay and its periodic task, the
// fan-out wrapper the store puts around the events repository, the pure rules the HTTP
// schemas and the sender adapter share. Needs: the store (webhooks, events), the
// authorizer, the clock, ids, send mail, the WebhookSender port.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createWebhooks, checkEvents, WEBHOOK_LIMITS } from './webhooks.ts';
export type { CreatedWebhook, RotatedSecret, WebhookInput, Webhooks } from './webhooks.ts';
export { createWebhookRelay, webhookRelayPasses } from './relay.ts';
export type { WebhookRelay, WebhookRelaySettings } from './relay.ts';
export type { WebhookOwnerNotices } from './owner-notices.ts';
export { withWebhookFanOut } from './fan-out.ts';
export { ALL_EVENTS, DELIVERABLE_EVENT_TYPES, endpointWants, isDeliverable, webhookPayload } from './webhook-events.ts';
export { addressLiteral, checkWebhookUrl, MAX_URL_LENGTH, nonPublicReason, portAllowed } from './target-addresses.ts';
export type { WebhookTargetRules } from './target-addresses.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { webhooksModule } from './module.ts';
