// Fan-out in the publishing statement (docs/webhooks.md "Delivery"): publishing a
// deliverable event also writes one pending delivery per endpoint that wants it, in the
// event's own INSERT (ports/events.ts EventWriter, where the concurrency argument is), so a
// delivery exists if and only if its event commits, whatever order transactions commit in,
// with no cursor to keep and no statement of its own.
//
// In the same transaction, an event that takes a user's right to manage the account's
// webhooks disables the endpoints that user registered (creator-access.ts).
import type { DomainEvent } from '../../../core/events/domain-events.ts';
import type { EventWriter, EventsRepo, FanOut } from '../../../core/ports/events.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { isDeliverable } from './webhook-events.ts';
import { RETRY } from './retry-schedule.ts';
import { disableEndpointsOfLostCreator } from './creator-access.ts';
import type { AccountsRepos } from '../../accounts/index.ts';
import type { WebhooksRepos } from './ports.ts';

/** Where an event's deliveries start, or null when it reaches no endpoint: system events (no account) and types an administrator may not read. */
const fanOutOf = (event: DomainEvent, now: Date): FanOut | null =>
  event.accountId !== null && isDeliverable(event.type) ? { retryUntil: new Date(now.getTime() + RETRY.windowSeconds * 1000) } : null;

/** `repos`: the repositories of the writer's own executor (the publishing transaction). */
export function withWebhookFanOut(writer: EventWriter, repos: () => Pick<Repos & AccountsRepos & WebhooksRepos, 'accounts' | 'webhooks'>): EventsRepo {
  return {
    async publish(event, now) {
      const stored = await writer.write(event, now, fanOutOf(event, now));
      await disableEndpointsOfLostCreator(repos(), writer, fanOutOf, event, now);
      return stored;
    },
  };
}
