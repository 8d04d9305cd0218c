// The webhooks module's repository port (its SQL: src/modules/webhooks/postgres/): endpoints
// and their deliveries (migrations 0019, 0021). The deliveries are written by the events
// repository's own statement (src/core/ports/events.ts EventWriter, the kernel's SQL), which
// the fan-out (fan-out.ts) wraps; the sender's port stays in the kernel (src/core/ports/webhooks.ts),
// beside its adapter, which compose.ts builds.
import type { StoredDomainEvent } from '../../../core/events/domain-events.ts';

export type WebhookDisabledReason = 'failing' | 'creator-lost-access';

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  /**
   * Why the service disabled it: 'failing' (the relay, after a day of failures),
   * 'creator-lost-access' (its creator may no longer manage the account's webhooks); null otherwise.
   */
  disabledReason: WebhookDisabledReason | null;
  failingSince: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The secrets that sign: the current one, and the previous one until its grace period ends. */
export interface WebhookSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  eventId: string;
  type: string;
  subject: string;
  state: WebhookDeliveryState;
  attempts: number;
  nextAt: Date | null;
  retryUntil: Date;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** An endpoint in one node's hands: its address, its secrets and the lease that makes it this node's. */
export interface ClaimedEndpoint extends WebhookSecrets {
  id: string;
  accountId: string;
  url: string;
  failingSince: Date | null;
  /** Failed attempts in a row that paused the endpoint (the circuit breaker); 0 after a 2xx. */
  breakerFailures: number;
  leaseUntil: Date;
}

/** Where and how a leased endpoint's next delivery is sent. */
export interface LeasedTarget extends WebhookSecrets {
  url: string;
}

/** A due delivery with the event it carries. */
export interface DueDelivery {
  id: string;
  subject: string;
  attempts: number;
  retryUntil: Date;
  event: Pick<StoredDomainEvent, 'type' | 'accountId' | 'data' | 'occurredAt'>;
}

/**
 * An attempt's outcome. A failure that says the endpoint is down or overloaded (no answer in
 * time, no connection, 5xx, 408, 429) also pauses the whole endpoint until `pauseUntil`
 * (the circuit breaker: no claim takes it before then).
 */
export type DeliveryOutcome =
  | { state: 'delivered'; status: number; at: Date }
  | { state: 'pending'; status: number | null; error: string; retryAt: Date; pauseUntil?: Date }
  | { state: 'failed'; status: number | null; error: string; pauseUntil?: Date };

export interface WebhooksRepo {
  insertEndpoint(e: Omit<WebhookEndpointRecord, 'disabledReason' | 'failingSince' | 'updatedAt'> & { secret: string }): Promise<void>;
  /** The account's endpoints, oldest first. */
  listEndpoints(accountId: string): Promise<WebhookEndpointRecord[]>;
  endpoint(accountId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /**
   * Enabling clears disabledReason and failingSince; enabling or a new URL closes the circuit
   * breaker. `createdBy`: the user who answers for it from now on.
   */
  updateEndpoint(id: string, patch: Partial<Pick<WebhookEndpointRecord, 'url' | 'events' | 'description' | 'enabled' | 'createdBy'>>, now: Date): Promise<void>;
  /** Deletes the endpoint and its deliveries; false when there was none. */
  deleteEndpoint(accountId: string, id: string): Promise<boolean>;
  /** The new secret signs from now on; the old one too until `previousUntil`. */
  rotateSecret(id: string, secret: string, previousUntil: Date, now: Date): Promise<void>;

  // The fan-out (one pending delivery per endpoint that wants an event) is written by the
  // event's own statement: ports/events.ts EventWriter.

  /**
   * Leases up to `limit` endpoints that are enabled, not leased by a live node, not paused,
   * and have a due delivery: until `leaseUntil` they are this caller's only (FOR UPDATE SKIP
   * LOCKED across nodes: concurrent claims never share one). Fair: an account with `perAccount` endpoints
   * leased (by any node) gets no more; the accounts' least recently served endpoints come
   * first, one per account before any account's second.
   */
  claimEndpoints(now: Date, leaseUntil: Date, limit: number, perAccount: number): Promise<ClaimedEndpoint[]>;
  /** Extends a held lease; false when it is no longer held (expired and taken, or the endpoint gone or disabled). */
  renewLease(endpointId: string, heldUntil: Date, leaseUntil: Date): Promise<boolean>;
  releaseLease(endpointId: string, heldUntil: Date): Promise<void>;
  /**
   * The endpoint's address and secrets as they are now, while the lease `heldUntil` is still
   * the caller's (null: lost, or the endpoint disabled or deleted). Read before each send, so
   * a rotation or a new URL applies from the next delivery, not the next pass.
   */
  leasedTarget(endpointId: string, heldUntil: Date): Promise<LeasedTarget | null>;
  /**
   * The endpoint's due deliveries in event order, without any whose subject has an older
   * pending delivery at this endpoint that is not due (waiting for its retry): per-subject
   * order, provided the caller stops a subject at its first failure in the batch.
   */
  dueDeliveries(endpointId: string, now: Date, limit: number): Promise<DueDelivery[]>;
  /**
   * Records an attempt's outcome when the delivery is still pending at `attempts`; a success
   * clears the endpoint's failingSince, a failure sets it if unset. False when it had moved on.
   */
  settle(id: string, attempts: number, outcome: DeliveryOutcome, now: Date): Promise<boolean>;
  /**
   * Disables an enabled endpoint for `reason`; false when it already was disabled. With
   * 'creator-lost-access' its account's owner is to be told (takeOwnerNotices).
   */
  disable(endpointId: string, reason: WebhookDisabledReason, now: Date): Promise<boolean>;
  /**
   * Up to `limit` endpoints whose owner notice is pending, taken (the notice is cleared): in
   * the transaction that writes the notices, so a rollback leaves them pending. Rows another
   * transaction holds are skipped.
   */
  takeOwnerNotices(limit: number): Promise<WebhookEndpointRecord[]>;

  /** An endpoint's deliveries, newest event first. */
  listDeliveries(endpointId: string, limit: number, state?: WebhookDeliveryState): Promise<WebhookDeliveryRecord[]>;
  /** Makes a delivery pending again with a new series of attempts, due now, tried until `retryUntil`; null when there is none. */
  replay(endpointId: string, deliveryId: string, now: Date, retryUntil: Date): Promise<WebhookDeliveryRecord | null>;
}

/** The webhooks module's repository, declared by the stores that read or write it (the fan-out's read of endpoints: src/adapters/postgres/store.ts). */
export interface WebhooksRepos {
  webhooks: WebhooksRepo;
}
