// Typed domain events: every state change says what happened, in the transaction that
// made it (src/core/ports/events.ts). Cache invalidation, mail and webhooks consume them;
// no use case names a cache scope or a consumer.
//
// An event's `subject` orders it: consumers that need order (webhook deliveries) keep
// the events of one subject in the order they were written. `accountId` is the account
// whose administrators may receive it (null for system events, which no webhook sees).

/** Each event type and the data it carries (ids are UUIDs; API 1 ids where the API has them). */
export interface DomainEventData {
  /** The signing keys changed (rotation): every node reloads them. */
  'signing-keys.rotated': Record<string, never>;
  /** The operator reset or seeded the service: every cache on every node is dropped. */
  'service.reset': Record<string, never>;
  /** A project was created, changed (details, owner, subscription, restored) or deleted (soft or for good). */
  'project.created': ProjectEventData;
  'project.updated': ProjectEventData;
  'project.deleted': ProjectEventData & { permanent: boolean };
  /** A webhook endpoint was registered, changed or deleted (docs/webhooks.md). */
  'webhook.created': WebhookEventData;
  'webhook.updated': WebhookEventData;
  'webhook.deleted': WebhookEventData;
  /** The relay disabled an endpoint after a day of failed deliveries (docs/webhooks.md). */
  'webhook.disabled': WebhookEventData & { reason: 'failing' };
}

export interface ProjectEventData {
  accountId: string;
  projectId: string;
  projectApi1Id: string;
}

export interface WebhookEventData {
  accountId: string;
  webhookId: string;
}

export type DomainEventType = keyof DomainEventData;

/** An event as a use case publishes it. */
export type DomainEvent = {
  [K in DomainEventType]: { type: K; accountId: string | null; subject: string; data: DomainEventData[K] };
}[DomainEventType];

/** An event as it was written: with its id and the time of the change. */
export type StoredDomainEvent = DomainEvent & { id: string; occurredAt: Date };
