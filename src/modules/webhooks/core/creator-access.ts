// An endpoint answers to the user who registered it (docs/webhooks.md "Who answers for an
// endpoint"): when that user loses the right to manage the account's webhooks (removed from
// the account, or left with roles without account:integrations:write), the endpoint is
// disabled in the same transaction, a webhook.disabled event says so, and the account's
// owner is mailed by the next notice pass (owner-notices.ts). Without it, a removed
// administrator's endpoint kept receiving the account's events.
import { eventOf, subjectOf, type DomainEvent } from '../../../core/events/domain-events.ts';
import type { FanOut, EventWriter } from '../../../core/ports/events.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { accountPermissions } from '../../../core/permissions/evaluate.ts';
import type { AccountsRepos } from '../../accounts/index.ts';
import type { WebhooksRepos } from './ports.ts';

/** The permission an endpoint's creator must keep. */
export const MANAGE_WEBHOOKS = 'account:integrations:write';

/** The user whose account access an event changes, when it may take the right away. */
export function userLosingAccess(event: DomainEvent): { accountId: string; userId: string } | null {
  if (event.accountId === null || (event.type !== 'user.roles-changed' && event.type !== 'user.removed')) return null;
  return { accountId: event.accountId, userId: (event.data as { userId: string }).userId };
}

/** Whether the user may manage the account's webhooks now (the owner, or a member whose roles grant it). */
export async function mayManageWebhooks(repos: Pick<Repos & AccountsRepos, 'accounts'>, accountId: string, userId: string): Promise<boolean> {
  const account = await repos.accounts.byId(accountId);
  if (!account) return false;
  const member = await repos.accounts.member(accountId, userId);
  const facts = { accountId, isOwner: account.ownerId === userId, isMember: member !== null, roles: member?.roles ?? [] };
  return accountPermissions(facts).has(MANAGE_WEBHOOKS);
}

/**
 * After `event` is written: when it may have taken a user's right to manage the account's
 * webhooks and it did, disables the enabled endpoints that user registered, each with its
 * webhook.disabled event (written, and fanned out, in the same transaction).
 */
export async function disableEndpointsOfLostCreator(
  repos: Pick<Repos & AccountsRepos & WebhooksRepos, 'accounts' | 'webhooks'>,
  writer: EventWriter,
  fanOut: (event: DomainEvent, now: Date) => FanOut | null,
  event: DomainEvent,
  now: Date,
): Promise<void> {
  const who = userLosingAccess(event);
  if (!who) return;
  const theirs = (await repos.webhooks.listEndpoints(who.accountId)).filter((e) => e.enabled && e.createdBy === who.userId);
  if (theirs.length === 0 || (await mayManageWebhooks(repos, who.accountId, who.userId))) return;
  for (const endpoint of theirs) {
    if (!(await repos.webhooks.disable(endpoint.id, 'creator-lost-access', now))) continue;
    const disabled = eventOf('webhook.disabled', who.accountId, subjectOf('webhook', endpoint.id), {
      accountId: who.accountId, webhookId: endpoint.id, reason: 'creator-lost-access',
    });
    await writer.write(disabled, now, fanOut(disabled, now));
  }
}
