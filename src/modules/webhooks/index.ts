// The webhooks module's public face (docs/webhooks.md; our extension, not in the vendor's
// API): endpoints an account administrator registers, deliveries fanned out in the publishing
// statement, and every node's relay that signs and sends them (Standard Webhooks).
// Offers: Webhooks (the endpoints' use cases), WebhookRelay and WebhookOwnerNotices with their
// periodic tasks and the fan-out every event is published through (its contract's
// `publishing`; through its contract, module.ts, listed by src/module-list.ts), its
// repository's port (WebhooksRepos), and the target-address rules the sender adapter
// (src/adapters/webhooks/http-sender.ts) checks again at each send. Nothing it builds on
// imports it back, so this face exports its use cases too.
export { createWebhooks, checkEvents, WEBHOOK_LIMITS } from './core/webhooks.ts';
export type { CreatedWebhook, RotatedSecret, WebhookInput, Webhooks } from './core/webhooks.ts';
export { createWebhookRelay, webhookRelayPasses } from './core/relay.ts';
export type { WebhookRelay, WebhookRelaySettings } from './core/relay.ts';
export type { WebhookOwnerNotices } from './core/owner-notices.ts';
export { ALL_EVENTS, DELIVERABLE_EVENT_TYPES, endpointWants, isDeliverable, webhookPayload } from './core/webhook-events.ts';
export { addressLiteral, checkWebhookUrl, MAX_URL_LENGTH, nonPublicReason, portAllowed } from './core/target-addresses.ts';
export type { WebhookTargetRules } from './core/target-addresses.ts';
export type {
  ClaimedEndpoint, DeliveryOutcome, DueDelivery, LeasedTarget, WebhookDeliveryRecord, WebhookDeliveryState, WebhookDisabledReason,
  WebhookEndpointRecord, WebhookSecrets, WebhooksRepo, WebhooksRepos,
} from './core/ports.ts';
export type { WebhookEventData, WebhookEventType } from './core/events.ts';
