// The webhooks module's contract (src/modules/contract.ts; docs/webhooks.md): the endpoints'
// use cases, every node's relay of due deliveries and the owner notices (periodic tasks), its
// repository's SQL, its API 2 routes with their operation docs, its events (with the caches
// they make stale) and error codes. The fan-out that decides which events are delivered is
// its core's (core/fan-out.ts); the store wraps the events repository with it
// (src/adapters/postgres/store.ts), whose own statement writes the deliveries.
import { defineModule, type SettingsOf } from '../contract.ts';
import { webhooksSettings, type WebhooksConfig } from './settings.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { WebhookSender } from '../../core/ports/webhooks.ts';
import type { CoreMetrics, Logger } from '../../core/ports/telemetry.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import type { MailRepos, SendMail } from '../mail/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';
import { createWebhooks, type Webhooks } from './core/webhooks.ts';
import { withWebhookFanOut } from './core/fan-out.ts';
import { createWebhookRelay, webhookRelayPasses, type WebhookRelay } from './core/relay.ts';
import { createWebhookOwnerNotices, webhookOwnerNoticePasses, type WebhookOwnerNotices } from './core/owner-notices.ts';
import type { WebhooksRepos } from './core/ports.ts';
import type { WebhookEventType } from './core/events.ts';
import { WEBHOOK_ERROR_CODES } from './core/errors.ts';
import { webhooksRepo } from './postgres/webhooks-repo.ts';
import { webhookRoutes } from './http/routes.ts';
import { WEBHOOK_API2_OPERATIONS } from './http/operations.ts';

export interface WebhooksNeeds {
  store: Store<Repos & AccountsRepos & MailRepos & WebhooksRepos>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  metrics: { core: CoreMetrics };
  authorizer: Authorizer;
  sendMail: SendMail;
  /** Sends one signed delivery (src/adapters/webhooks/http-sender.ts: the SSRF guard is there). */
  webhookSender: WebhookSender;
  config: {
    urnNamespace: string;
    publicUrl: string;
    webhooks: WebhooksConfig;
  };
}


const { nothing } = invalidationRules;
export const webhooksModule = defineModule<
  WebhooksNeeds, { webhooks: Webhooks; webhookRelay: WebhookRelay; webhookOwnerNotices: WebhookOwnerNotices }, WebhooksRepos, WebhookEventType, keyof typeof WEBHOOK_ERROR_CODES,
  SettingsOf<typeof webhooksSettings>
>({
  name: 'webhooks',
  feature: {
    name: 'webhooks',
    create: ({ store, clock, ids, logger, metrics, authorizer, sendMail, webhookSender, config }) => {
      const webhookRelay = createWebhookRelay({
        store, clock, sendMail, logger, metrics: metrics.core, sender: webhookSender,
        settings: { ...config.webhooks, urnNamespace: config.urnNamespace, publicUrl: config.publicUrl },
      });
      const webhookOwnerNotices = createWebhookOwnerNotices({ store, sendMail, publicUrl: config.publicUrl });
      return {
        offers: {
          webhooks: createWebhooks({
            store, clock, ids, authorizer,
            targets: { allowPrivateTargets: config.webhooks.allowPrivateTargets, extraPorts: config.webhooks.targetPorts },
          }),
          webhookRelay,
          webhookOwnerNotices,
        },
        tasks: [
          webhookRelayPasses(webhookRelay, config.webhooks.relayIntervalSeconds),
          webhookOwnerNoticePasses(webhookOwnerNotices, config.webhooks.relayIntervalSeconds),
        ],
        // After the passes stopped: the endpoint tasks under way end after their send in hand.
        stop: () => webhookRelay.stop(),
      };
    },
  },
  repositories: { webhooks: webhooksRepo },
  routes: { api2: webhookRoutes },
  operations: { api2: WEBHOOK_API2_OPERATIONS },
  // No cache holds an endpoint or a delivery: they are read afresh by their use cases.
  invalidation: {
    'webhook.created': nothing, 'webhook.updated': nothing, 'webhook.deleted': nothing,
    'webhook.disabled': nothing, 'webhook.secret-rotated': nothing, 'webhook.delivery-replayed': nothing,
  },
  errorCodes: WEBHOOK_ERROR_CODES,
  settings: webhooksSettings,
  // Every event is published through the fan-out: its deliveries are written in its own INSERT.
  publishing: withWebhookFanOut,
});
