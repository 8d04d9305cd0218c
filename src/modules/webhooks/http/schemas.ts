// API 2 webhook shapes, the webhooks module (our extension, not in the vendor's API; docs/webhooks.md).
import { Type } from 'typebox';
import { ALL_EVENTS, DELIVERABLE_EVENT_TYPES } from '../core/webhook-events.ts';
import { MAX_URL_LENGTH } from '../core/target-addresses.ts';
import { WEBHOOK_LIMITS } from '../core/webhooks.ts';
import { DateTime, Nullable, StringEnum, NullableDateTime } from '../../../http/schema-helpers.ts';
import { RefString, withParams } from '../../../http/api2/schemas.ts';
const Url = Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'http(s) URL the deliveries are POSTed to' });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description: `Event types, or "${ALL_EVENTS}" for every type: ${DELIVERABLE_EVENT_TYPES.join(', ')}`,
});
const Description = Type.String({ maxLength: WEBHOOK_LIMITS.descriptionChars });

/** Small bodies only: a webhook body is a URL, a few names and a description. */
export const WEBHOOK_BODY_LIMIT = 16 * 1024;

export const WebhookParams = withParams('webhookRef');
export const DeliveryParams = Type.Object({
  accountRef: RefString,
  webhookRef: RefString,
  deliveryId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const WebhookCreate = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const WebhookPatch = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), description: Type.Optional(Description), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const Webhook = Type.Object({
  id: Type.String({ description: 'urn:<ns>:webhook:<uuid>' }),
  type: Type.Literal('webhook'),
  accountId: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.String(),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.Literal('failing'), Type.Literal('creator-lost-access'), Type.Null()], {
    description:
      '"failing": the service disabled it after a day of failed deliveries; "creator-lost-access": the user who registered it ' +
      'may no longer manage the account\'s webhooks (removed from the account, or a role without the permission)',
  }),
  createdBy: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const WebhookCreated = Type.Intersect([
  Webhook,
  Type.Object({ secret: Type.String({ description: 'whsec_<base64>: the signing secret, shown only in this answer' }) }),
]);

export const RotatedSecret = Type.Object({
  secret: Type.String({ description: 'whsec_<base64>: the new signing secret, shown only in this answer' }),
  previousSecretExpiresAt: Type.String({ format: 'date-time', description: 'until then, deliveries carry a signature with the previous secret too' }),
});

export const DeliveryStateEnum = StringEnum(['pending', 'delivered', 'failed'] as const);

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: WEBHOOK_LIMITS.deliveriesPerPage, default: 50 })),
  state: Type.Optional(DeliveryStateEnum),
});

export const WebhookDelivery = Type.Object({
  id: Type.String({ description: 'the webhook-id header of every attempt of this delivery' }),
  webhookId: Type.String(),
  eventId: Type.String(),
  type: Type.String({ description: 'the event type' }),
  state: DeliveryStateEnum,
  attempts: Type.Integer(),
  nextAttemptAt: NullableDateTime,
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: "the endpoint's last HTTP status (null: no answer)" }),
  lastError: Nullable(Type.String()),
  deliveredAt: NullableDateTime,
  createdAt: DateTime,
});
