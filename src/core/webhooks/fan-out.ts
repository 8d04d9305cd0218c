// Fan-out in the publishing statement (docs/webhooks.md "Delivery"): publishing a
// deliverable event also writes one pending delivery per endpoint that wants it, in the
// event's own INSERT (ports/events.ts EventWriter, where the concurrency argument is), so a
// delivery exists if and only if its event commits, whatever order transactions commit in,
// with no cursor to keep and no statement of its own.
import type { EventWriter, EventsRepo } from '../ports/events.ts';
import { isDeliverable } from './webhook-events.ts';
import { RETRY } from './retry-schedule.ts';

export function withWebhookFanOut(writer: EventWriter): EventsRepo {
  return {
    publish(event, now) {
      // System events (no account) and types an administrator may not read never reach an endpoint.
      const fanOut = event.accountId !== null && isDeliverable(event.type) ? { retryUntil: new Date(now.getTime() + RETRY.windowSeconds * 1000) } : null;
      return writer.write(event, now, fanOut);
    },
  };
}
