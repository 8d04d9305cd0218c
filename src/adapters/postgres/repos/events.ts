// The domain-event outbox (migration 0018, src/core/ports/events.ts).
import { randomUUID } from 'node:crypto';
import type { DomainEvent, StoredDomainEvent } from '../../../core/events/domain-events.ts';
import type { EventWriter, FanOut } from '../../../core/ports/events.ts';
import type { Sql } from '../sql.ts';

export const EVENTS_CHANNEL = 'scanbase_events';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; events carry ids, not documents. */
const MAX_NOTIFY_BYTES = 7900;

/**
 * The event as it travels between nodes (NOTIFY payload), with `origin`, the id of the
 * store that wrote it: that node delivered it to itself at commit and skips its own
 * notification. An additive key: a node that does not know it reads the event as before.
 */
export function encodeEvent(e: StoredDomainEvent, origin: string): string {
  const text = JSON.stringify({ ...e, origin });
  if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) throw new Error(`domain event ${e.type} is too large to announce (${text.length} bytes)`);
  return text;
}

/** The event of a NOTIFY payload, and the store that wrote it (undefined from a node that does not say). */
export interface NotifiedEvent {
  event: StoredDomainEvent;
  origin: string | undefined;
}

export function decodeEvent(text: string): NotifiedEvent {
  const { origin, ...e } = JSON.parse(text) as StoredDomainEvent & { occurredAt: string; origin?: string };
  return { event: { ...e, occurredAt: new Date(e.occurredAt) } as StoredDomainEvent, origin };
}

/** The event row; RETURNING what the fan-out copies onto its deliveries. */
const INSERT_EVENT = `INSERT INTO domain_events (id, type, account_id, subject, data, occurred_at)
  VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, seq, type, subject, account_id, occurred_at`;

/**
 * One statement per event (ports/events.ts EventWriter): the event row, with a fan-out its
 * webhook deliveries (a data-modifying CTE reading the event row's RETURNING; the
 * deliveries' foreign key is checked at the end of the statement, when the event row is
 * there), and on PostgreSQL the NOTIFY that other nodes hear at commit.
 */
function publishStatement(fanOut: boolean, notify: boolean): string {
  const ctes = [`ev AS (${INSERT_EVENT})`];
  if (fanOut) {
    ctes.push(`fan AS (
  INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_seq, type, subject, state, next_at, retry_until, created_at)
  SELECT gen_random_uuid(), e.id, ev.id, ev.seq, ev.type, ev.subject, 'pending', ev.occurred_at, $7, ev.occurred_at
  FROM ev JOIN webhook_endpoints e ON e.account_id = ev.account_id
  WHERE e.enabled AND (ev.type = ANY (e.events) OR '*' = ANY (e.events)))`);
  }
  const n = fanOut ? 8 : 7;
  return `WITH ${ctes.join(',\n')}\nSELECT ${notify ? `pg_notify($${n}, $${n + 1})` : '1'} FROM ev`;
}
const STATEMENTS = {
  plain: INSERT_EVENT,
  fanOut: publishStatement(true, false),
  notify: publishStatement(false, true),
  fanOutNotify: publishStatement(true, true),
};

/**
 * `published` receives each written event; the Store delivers them once the transaction
 * commits. `origin` names this store in the notifications (encodeEvent).
 */
export function eventsRepo(sql: Sql, published: (e: StoredDomainEvent) => void, origin: string): EventWriter {
  const notify = sql.engine === 'postgres';
  return {
    async write(event: DomainEvent, now: Date, fanOut: FanOut | null) {
      const stored = { ...event, id: randomUUID(), occurredAt: now } as StoredDomainEvent;
      const params: unknown[] = [stored.id, event.type, event.accountId, event.subject, JSON.stringify(event.data), now];
      if (fanOut) params.push(fanOut.retryUntil);
      // Other nodes hear it when (and only if) the transaction commits. Encoded first: an
      // event too large to announce is refused before anything is written.
      if (notify) params.push(EVENTS_CHANNEL, encodeEvent(stored, origin));
      const text = fanOut ? (notify ? STATEMENTS.fanOutNotify : STATEMENTS.fanOut) : notify ? STATEMENTS.notify : STATEMENTS.plain;
      await sql.query(text, params);
      published(stored);
      return stored;
    },
  };
}
