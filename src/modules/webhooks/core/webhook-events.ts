// Which domain events a webhook may carry, and what its body holds (docs/webhooks.md
// "Events and payloads"). An endpoint belongs to its account, and the people who manage it
// are the account's administrators (and owner): an event is delivered only when an account
// administrator may read what it concerns, and its data carries only the ids listed here,
// each in both forms (URN and API 1 id). Every other field of the event stays behind.
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { formatUrn, type UrnType } from '../../../core/ids/urn.ts';
import type { DomainEventType, StoredDomainEvent } from '../../../core/events/domain-events.ts';
import type { AnyPermission } from '../../../core/permissions/catalog.ts';
import { ADMINISTRATOR_PERMISSIONS } from '../../../core/permissions/account-roles.ts';

/** Subscribes an endpoint to every deliverable type, present and future. */
export const ALL_EVENTS = '*';

interface WebhookEventRule {
  /** The account-level permission that lets an administrator read the event's subject. */
  readableWith: AnyPermission;
  /** The id fields of the event's data that the body carries, and their URN type. */
  ids: Readonly<Record<string, UrnType>>;
}

const PROJECT: WebhookEventRule = { readableWith: 'account:projects:list', ids: { accountId: 'account', projectId: 'project' } };
const WEBHOOK: WebhookEventRule = { readableWith: 'account:integrations:read', ids: { accountId: 'account', webhookId: 'webhook' } };
/** The account's users: administrators list them (`account:users:read`, GET …/users). */
const ACCOUNT_USER: WebhookEventRule = { readableWith: 'account:users:read', ids: { accountId: 'account', userId: 'user' } };

/**
 * The deliverable event types. A type missing here (system events, a user's own credentials,
 * or events about content an administrator reads only as a project member: zones, members,
 * files, tags) is never delivered, even to `*`; naming it at registration is 400.
 */
export const WEBHOOK_EVENT_RULES: Partial<Record<DomainEventType, WebhookEventRule>> = {
  'project.created': PROJECT,
  'project.updated': PROJECT,
  'project.deleted': PROJECT,
  'project.restored': PROJECT,
  'user.invited': ACCOUNT_USER,
  'user.added': ACCOUNT_USER,
  'user.roles-changed': ACCOUNT_USER,
  'user.removed': ACCOUNT_USER,
  'webhook.created': WEBHOOK,
  'webhook.updated': WEBHOOK,
  'webhook.deleted': WEBHOOK,
  'webhook.disabled': WEBHOOK,
  // The ids only: the event's data holds no secret, and the payload would not carry it if it did.
  'webhook.secret-rotated': WEBHOOK,
  // Not 'webhook.delivery-replayed': the replayed delivery itself is what the endpoint sees;
  // a notice of it would add a delivery to every '*' endpoint per replay, the replayed one too.
};

const administratorReads = new Set<AnyPermission>(ADMINISTRATOR_PERMISSIONS);

/** The rule of a type an administrator may read, or null (not delivered). */
function ruleOf(type: string): WebhookEventRule | null {
  const rule = WEBHOOK_EVENT_RULES[type as DomainEventType];
  return rule && administratorReads.has(rule.readableWith) ? rule : null;
}

/** The event types an endpoint may name, sorted. */
export const DELIVERABLE_EVENT_TYPES: readonly string[] = Object.keys(WEBHOOK_EVENT_RULES).filter((t) => ruleOf(t)).sort();

export const isDeliverable = (type: string): boolean => ruleOf(type) !== null;

/** Whether an endpoint subscribed to `events` receives an event of `type` (mirrored by the fan-out's SQL). */
export function endpointWants(events: readonly string[], type: string): boolean {
  return isDeliverable(type) && (events.includes(ALL_EVENTS) || events.includes(type));
}

/** The Standard Webhooks envelope sent for an event: `{type, timestamp, data}`. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, string>;
}

/**
 * The body of an event, or null when it is not deliverable. Only the listed ids go out: `xId`
 * as a URN, `xApi1Id` beside it; the account comes from the event's data or, for events
 * whose data does not repeat it (the account's users), from its envelope.
 */
export function webhookPayload(
  event: Pick<StoredDomainEvent, 'type' | 'data' | 'occurredAt'> & Partial<Pick<StoredDomainEvent, 'accountId'>>,
  urnNamespace: string,
): WebhookPayload | null {
  const rule = ruleOf(event.type);
  if (!rule) return null;
  const source: Record<string, unknown> = { accountId: event.accountId ?? undefined, ...(event.data as Record<string, unknown>) };
  const data: Record<string, string> = {};
  for (const [field, urnType] of Object.entries(rule.ids)) {
    const uuid = source[field];
    if (typeof uuid !== 'string') continue;
    data[field] = formatUrn(urnNamespace, urnType, uuid);
    data[`${field.slice(0, -'Id'.length)}Api1Id`] = api1IdOf(uuid);
  }
  return { type: event.type, timestamp: event.occurredAt.toISOString(), data };
}
