// API 2 webhook presenters, the webhooks module: pure reshaping (URN ids); a secret appears only in the answers that create one.
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../core/ports.ts';
import type { CreatedWebhook, RotatedSecret } from '../core/webhooks.ts';
import { formatUrn } from '../../../core/ids/urn.ts';

export function webhookPresenters(ns: string) {
  const webhook = (e: WebhookEndpointRecord) => ({
    id: formatUrn(ns, 'webhook', e.id),
    type: 'webhook' as const,
    accountId: formatUrn(ns, 'account', e.accountId),
    url: e.url,
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdBy: e.createdBy ? formatUrn(ns, 'user', e.createdBy) : null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  });
  return {
    webhook,
    created: (c: CreatedWebhook) => ({ ...webhook(c.endpoint), secret: c.secret }),
    rotated: (r: RotatedSecret) => ({ secret: r.secret, previousSecretExpiresAt: r.previousSecretExpiresAt.toISOString() }),
    delivery: (d: WebhookDeliveryRecord) => ({
      id: d.id,
      webhookId: formatUrn(ns, 'webhook', d.endpointId),
      eventId: d.eventId,
      type: d.type,
      state: d.state,
      attempts: d.attempts,
      nextAttemptAt: d.state === 'pending' && d.nextAt ? d.nextAt.toISOString() : null,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      deliveredAt: d.deliveredAt ? d.deliveredAt.toISOString() : null,
      createdAt: d.createdAt.toISOString(),
    }),
  };
}
