// The domain-event outbox (src/core/events/domain-events.ts).
import type { DomainEvent, StoredDomainEvent } from '../events/domain-events.ts';

export interface EventsRepo {
  /**
   * Writes the event to the outbox in the caller's transaction: it exists if and only if
   * the change commits (a rolled-back change publishes nothing). After commit it is
   * delivered to this node's listeners at once and to the other nodes' through the
   * database (Store.onEvent), at most a few milliseconds later.
   */
  publish(event: DomainEvent, now: Date): Promise<StoredDomainEvent>;
}
