// Fan-out in the publishing transaction (docs/webhooks.md "Delivery"): publishing an event
// also writes one pending delivery per endpoint that wants it, so a delivery exists if and
// only if its event commits, whatever order transactions commit in, with no cursor to keep.
import type { EventsRepo } from '../ports/events.ts';
import type { WebhooksRepo } from '../ports/webhooks.ts';
import { isDeliverable } from './webhook-events.ts';
import { RETRY } from './retry-schedule.ts';

export function withWebhookFanOut(events: EventsRepo, webhooks: Pick<WebhooksRepo, 'fanOut'>): EventsRepo {
  return {
    async publish(event, now) {
      const stored = await events.publish(event, now);
      // System events (no account) and types an administrator may not read never reach an endpoint.
      if (stored.accountId !== null && isDeliverable(stored.type)) {
        await webhooks.fanOut(stored, new Date(now.getTime() + RETRY.windowSeconds * 1000));
      }
      return stored;
    },
  };
}
