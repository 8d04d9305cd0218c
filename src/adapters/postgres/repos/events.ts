// The domain-event outbox (migration 0018, src/core/ports/events.ts).
import type { DomainEvent, StoredDomainEvent } from '../../../core/events/domain-events.ts';
import type { EventsRepo } from '../../../core/ports/events.ts';
import type { Sql } from '../sql.ts';

export const EVENTS_CHANNEL = 'scanbase_events';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; events carry ids, not documents. */
const MAX_NOTIFY_BYTES = 7900;

/** The event as it travels between nodes (NOTIFY payload). */
export function encodeEvent(e: StoredDomainEvent): string {
  const text = JSON.stringify(e);
  if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) throw new Error(`domain event ${e.type} is too large to announce (${text.length} bytes)`);
  return text;
}

export function decodeEvent(text: string): StoredDomainEvent {
  const e = JSON.parse(text) as StoredDomainEvent & { occurredAt: string };
  return { ...e, occurredAt: new Date(e.occurredAt) } as StoredDomainEvent;
}

/** `published` receives each written event; the Store delivers them once the transaction commits. */
export function eventsRepo(sql: Sql, published: (e: StoredDomainEvent) => void): EventsRepo {
  return {
    async publish(event: DomainEvent, now: Date) {
      const [row] = await sql.query<{ id: string }>(
        `INSERT INTO domain_events (id, type, account_id, subject, data, occurred_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5) RETURNING id`,
        [event.type, event.accountId, event.subject, JSON.stringify(event.data), now],
      );
      const stored = { ...event, id: row!.id, occurredAt: now } as StoredDomainEvent;
      // Other nodes hear it when (and only if) the transaction commits.
      if (sql.engine === 'postgres') await sql.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, encodeEvent(stored)]);
      published(stored);
      return stored;
    },
  };
}
