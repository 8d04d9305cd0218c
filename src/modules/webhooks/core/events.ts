// The webhooks module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging; docs/webhooks.md); their invalidation rows are in its contract (module.ts).
// The fan-out (fan-out.ts) publishes webhook.disabled too, in the transaction of the change
// that took an endpoint's creator's right to manage webhooks.
export interface WebhookEventData {
  accountId: string;
  webhookId: string;
}

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** A webhook endpoint was registered, changed or deleted. */
    'webhook.created': WebhookEventData;
    'webhook.updated': WebhookEventData;
    'webhook.deleted': WebhookEventData;
    /**
     * The service disabled an endpoint: the relay after a day of failed deliveries ('failing'),
     * or the change that took its creator's right to manage webhooks ('creator-lost-access').
     */
    'webhook.disabled': WebhookEventData & { reason: 'failing' | 'creator-lost-access' };
    /**
     * The endpoint's signing secret was replaced; the previous one still signs until
     * `previousSecretExpiresAt`. Neither secret is ever in the event (nor in its delivery).
     */
    'webhook.secret-rotated': WebhookEventData & { previousSecretExpiresAt: string };
    /** An administrator made one of the endpoint's deliveries pending again (it is sent anew with its webhook-id). Not delivered. */
    'webhook.delivery-replayed': WebhookEventData & { deliveryId: string; eventId: string; eventType: string };
  }
}

/** The webhooks module's event types. */
export type WebhookEventType =
  | 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.disabled' | 'webhook.secret-rotated' | 'webhook.delivery-replayed';
