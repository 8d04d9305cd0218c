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

/** Where an event's webhook deliveries start: tried until `retryUntil`. */
export interface FanOut {
  retryUntil: Date;
}

/**
 * The adapter's side of EventsRepo.publish (src/modules/webhooks/core/fan-out.ts decides which
 * events fan out, and wraps this into the EventsRepo use cases see).
 *
 * With `fanOut`, the event's own write also writes one pending delivery per enabled
 * endpoint of its account subscribed to its type (or to `*`), in **one statement**: no
 * extra round trip, whether the account has endpoints or none (then the join finds no
 * row: an index probe). The delivery exists if and only if the event commits.
 *
 * Endpoints registered concurrently: the statement sees the endpoints committed when it
 * starts (READ COMMITTED: one snapshot for the event row and its deliveries). An endpoint
 * receives every event whose statement starts after its registration (or its enabling)
 * committed: in particular every change made after the registration's answer, on any
 * node, since nothing is cached between statements (a per-node "this account has no
 * endpoint" answer would lose deliveries for as long as it lived on another node). An
 * event whose statement started before is ordered before the registration, as if it had
 * committed first, even when its transaction commits later: the registration never
 * claimed it. The boundary is the same one statement for the event and its fan-out, so no
 * event is on both sides of it.
 */
export interface EventWriter {
  write(event: DomainEvent, now: Date, fanOut: FanOut | null): Promise<StoredDomainEvent>;
}

/**
 * How a module turns the adapter's writer into the EventsRepo every use case publishes with
 * (a contract's `publishing`, src/modules/contract.ts; the webhooks module's fan-out). `repos`
 * gives the repositories of the writer's own executor (the publishing transaction), read when
 * an event is published. Without one, an event is written with no fan-out.
 */
export type EventPublishing<R = any> = (writer: EventWriter, repos: () => R) => EventsRepo;

/**
 * How the node hears other nodes' events (PostgreSQL's LISTEN connection): 'listening'
 * (connected, its heartbeat coming back), 'reconnecting' (lost or silent: being replaced;
 * other nodes' changes are not heard meanwhile, and every cache is dropped once it is back),
 * 'closed' (the node is stopping).
 */
export interface ListenerState {
  state: 'listening' | 'reconnecting' | 'closed';
  /** When it entered that state. */
  since: Date;
  /** When a heartbeat last came back (null before the first). */
  lastHeartbeatAt: Date | null;
  /** Connections replaced since the start. */
  reconnects: number;
}
