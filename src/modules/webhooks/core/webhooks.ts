// Webhook endpoints of an account (our extension, not in the vendor's API; docs/webhooks.md):
// register, list, get, change, delete, rotate the secret, list deliveries, replay one.
// Reading needs account:integrations:read, every change account:integrations:write: the
// account owner's and administrators' permissions for the account's integrations, and no one
// else's (a project manager has neither).
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, isUuid, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { WebhookDeliveryRecord, WebhookDeliveryState, WebhookEndpointRecord, WebhooksRepos } from './ports.ts';
import { requirePermission, type Actor, type AccountScope, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { ALL_EVENTS, DELIVERABLE_EVENT_TYPES } from './webhook-events.ts';
import { formatSecret, SECRET_BYTES } from './signature.ts';
import { RETRY } from './retry-schedule.ts';
import { checkWebhookUrl, type WebhookTargetRules } from './target-addresses.ts';
import { refUuid } from '../../../core/ids/refs.ts';

export const WEBHOOK_LIMITS = {
  /** Endpoints one account may register. */
  endpointsPerAccount: 50,
  descriptionChars: 500,
  /** After a rotation the previous secret signs too for this long, so receivers can switch without losing deliveries. */
  previousSecretGraceSeconds: 24 * 3600,
  /** Deliveries one listing answers, at most. */
  deliveriesPerPage: 200,
};

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string;
  enabled?: boolean;
}

/** An endpoint with its secret: the answer of registration only. */
export interface CreatedWebhook {
  endpoint: WebhookEndpointRecord;
  secret: string;
}

export interface RotatedSecret {
  secret: string;
  previousSecretExpiresAt: Date;
}

export interface Webhooks {
  createWebhook(actor: Actor, accountRef: EntityRef, input: WebhookInput): Promise<CreatedWebhook>;
  listWebhooks(actor: Actor, accountRef: EntityRef): Promise<WebhookEndpointRecord[]>;
  getWebhook(actor: Actor, accountRef: EntityRef, webhookRef: EntityRef): Promise<WebhookEndpointRecord>;
  updateWebhook(actor: Actor, accountRef: EntityRef, webhookRef: EntityRef, patch: Partial<WebhookInput>): Promise<WebhookEndpointRecord>;
  deleteWebhook(actor: Actor, accountRef: EntityRef, webhookRef: EntityRef): Promise<void>;
  rotateWebhookSecret(actor: Actor, accountRef: EntityRef, webhookRef: EntityRef): Promise<RotatedSecret>;
  listWebhookDeliveries(
    actor: Actor, accountRef: EntityRef, webhookRef: EntityRef, query: { limit: number; state?: WebhookDeliveryState },
  ): Promise<WebhookDeliveryRecord[]>;
  replayWebhookDelivery(actor: Actor, accountRef: EntityRef, webhookRef: EntityRef, deliveryId: string): Promise<WebhookDeliveryRecord>;
}

/** The event list as stored: unique names, each `*` or a deliverable type (400 invalid-webhook-events otherwise). */
export function checkEvents(events: readonly string[]): string[] {
  const unknown = events.filter((e) => e !== ALL_EVENTS && !DELIVERABLE_EVENT_TYPES.includes(e));
  if (events.length === 0 || unknown.length > 0) {
    throw new DomainError(
      'invalid', 'invalid-webhook-events',
      events.length === 0 ? 'events must name at least one event type, or "*"' : `Unknown or undeliverable event types: ${unknown.slice(0, 10).join(', ')}`,
      { field: 'events', allowed: [ALL_EVENTS, ...DELIVERABLE_EVENT_TYPES] },
    );
  }
  return [...new Set(events)];
}

function checkDescription(description: string): string {
  if (description.length > WEBHOOK_LIMITS.descriptionChars) {
    throw invalidInput(`description must be at most ${WEBHOOK_LIMITS.descriptionChars} characters`, { field: 'description' });
  }
  return description;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const WEBHOOKS_STORE = storeUseOf<Repos & WebhooksRepos>()({ reads: ['webhooks'], writes: ['events', 'locks', 'webhooks'] });

export function createWebhooks(deps: {
  store: SliceOf<typeof WEBHOOKS_STORE, Repos & WebhooksRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  targets: WebhookTargetRules;
}): Webhooks {
  const { clock, ids, authorizer, targets } = deps;
  const store = sliceOf(deps.store, WEBHOOKS_STORE);
  const newSecret = () => formatSecret(Buffer.from(ids.secret(SECRET_BYTES), 'base64url'));

  async function scope(actor: Actor, accountRef: EntityRef, write: boolean): Promise<AccountScope> {
    const account = await authorizer.account(actor, accountRef);
    if (write) requirePermission(account.permissions, 'account:integrations:write', 'manage-webhooks-forbidden');
    else requirePermission(account.permissions, 'account:integrations:read', 'read-webhooks-forbidden');
    return account;
  }

  async function endpointOf(account: AccountScope, webhookRef: EntityRef): Promise<WebhookEndpointRecord> {
    const uuid = refUuid(webhookRef);
    const found = uuid ? await store.repos.webhooks.endpoint(account.account.id, uuid) : null;
    if (!found) throw notFound('webhook', refValue(webhookRef));
    return found;
  }

  const event = (e: WebhookEndpointRecord) => ({ accountId: e.accountId, webhookId: e.id });

  return {
    async createWebhook(actor, accountRef, input) {
      const account = await scope(actor, accountRef, true);
      const url = checkWebhookUrl(input.url, targets).href;
      const events = checkEvents(input.events);
      const description = checkDescription(input.description ?? '');
      const now = clock.now();
      const secret = newSecret();
      const accountId = account.account.id;
      const id = ids.uuid();
      await store.transaction(async (repos) => {
        // The limit is counted under the account's webhooks lock (two registrations cannot both pass it).
        await repos.locks.exclusive([`webhooks:${accountId}`]);
        if ((await repos.webhooks.listEndpoints(accountId)).length >= WEBHOOK_LIMITS.endpointsPerAccount) {
          throw new DomainError('conflict', 'webhook-limit-reached', `An account may register at most ${WEBHOOK_LIMITS.endpointsPerAccount} webhooks`, {
            limit: WEBHOOK_LIMITS.endpointsPerAccount,
          });
        }
        await repos.webhooks.insertEndpoint({
          id, accountId, url, events, description, enabled: input.enabled ?? true, secret, createdBy: actor.userId, createdAt: now,
        });
        await repos.events.publish({ type: 'webhook.created', accountId, subject: `webhook:${id}`, data: { accountId, webhookId: id } }, now);
      });
      const endpoint = await store.repos.webhooks.endpoint(accountId, id);
      return { endpoint: endpoint!, secret };
    },

    async listWebhooks(actor, accountRef) {
      const account = await scope(actor, accountRef, false);
      return store.repos.webhooks.listEndpoints(account.account.id);
    },

    async getWebhook(actor, accountRef, webhookRef) {
      return endpointOf(await scope(actor, accountRef, false), webhookRef);
    },

    async updateWebhook(actor, accountRef, webhookRef, patch) {
      const account = await scope(actor, accountRef, true);
      const endpoint = await endpointOf(account, webhookRef);
      const changes = {
        ...(patch.url !== undefined ? { url: checkWebhookUrl(patch.url, targets).href } : {}),
        ...(patch.events !== undefined ? { events: checkEvents(patch.events) } : {}),
        ...(patch.description !== undefined ? { description: checkDescription(patch.description) } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        // Enabled again after its creator lost the right: whoever enables it answers for it now
        // (otherwise the next change of that user's roles would have nothing to go by).
        ...(patch.enabled && !endpoint.enabled && endpoint.disabledReason === 'creator-lost-access' ? { createdBy: actor.userId } : {}),
      };
      const now = clock.now();
      await store.transaction(async (repos) => {
        await repos.webhooks.updateEndpoint(endpoint.id, changes, now);
        await repos.events.publish({ type: 'webhook.updated', accountId: endpoint.accountId, subject: `webhook:${endpoint.id}`, data: event(endpoint) }, now);
      });
      return endpointOf(account, { type: 'webhook', uuid: endpoint.id });
    },

    async deleteWebhook(actor, accountRef, webhookRef) {
      const account = await scope(actor, accountRef, true);
      const endpoint = await endpointOf(account, webhookRef);
      const now = clock.now();
      await store.transaction(async (repos) => {
        if (!(await repos.webhooks.deleteEndpoint(endpoint.accountId, endpoint.id))) throw notFound('webhook', endpoint.id);
        await repos.events.publish({ type: 'webhook.deleted', accountId: endpoint.accountId, subject: `webhook:${endpoint.id}`, data: event(endpoint) }, now);
      });
    },

    async rotateWebhookSecret(actor, accountRef, webhookRef) {
      const account = await scope(actor, accountRef, true);
      const endpoint = await endpointOf(account, webhookRef);
      const now = clock.now();
      const secret = newSecret();
      const previousSecretExpiresAt = new Date(now.getTime() + WEBHOOK_LIMITS.previousSecretGraceSeconds * 1000);
      await store.transaction(async (repos) => {
        await repos.webhooks.rotateSecret(endpoint.id, secret, previousSecretExpiresAt, now);
        await repos.events.publish(eventOf('webhook.secret-rotated', endpoint.accountId, subjectOf('webhook', endpoint.id), {
          ...event(endpoint), previousSecretExpiresAt: previousSecretExpiresAt.toISOString(),
        }), now);
      });
      return { secret, previousSecretExpiresAt };
    },

    async listWebhookDeliveries(actor, accountRef, webhookRef, query) {
      const endpoint = await endpointOf(await scope(actor, accountRef, false), webhookRef);
      return store.repos.webhooks.listDeliveries(endpoint.id, Math.min(query.limit, WEBHOOK_LIMITS.deliveriesPerPage), query.state);
    },

    async replayWebhookDelivery(actor, accountRef, webhookRef, deliveryId) {
      const endpoint = await endpointOf(await scope(actor, accountRef, true), webhookRef);
      const now = clock.now();
      const replayed = isUuid(deliveryId) && (await store.transaction(async (repos) => {
        const r = await repos.webhooks.replay(endpoint.id, deliveryId, now, new Date(now.getTime() + RETRY.windowSeconds * 1000));
        if (r) {
          await repos.events.publish(eventOf('webhook.delivery-replayed', endpoint.accountId, subjectOf('webhook', endpoint.id), {
            ...event(endpoint), deliveryId: r.id, eventId: r.eventId, eventType: r.type,
          }), now);
        }
        return r;
      }));
      if (!replayed) throw notFound('webhook-delivery', deliveryId);
      return replayed;
    },
  };
}
