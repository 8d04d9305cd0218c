// The webhooks module's descriptor (src/core/modules.ts; docs/webhooks.md): the endpoints'
// use cases, and every node's relay of due deliveries (a periodic task).
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { WebhookSender } from '../ports/webhooks.ts';
import type { CoreMetrics, Logger } from '../ports/telemetry.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import type { MailRepos, SendMail } from '../../modules/mail/index.ts';
import { createWebhooks, type Webhooks } from './webhooks.ts';
import { createWebhookRelay, webhookRelayPasses, type WebhookRelay } from './relay.ts';
import { createWebhookOwnerNotices, webhookOwnerNoticePasses, type WebhookOwnerNotices } from './owner-notices.ts';
import type { AccountsRepos } from '../../modules/accounts/index.ts';

export interface WebhooksNeeds {
  store: Store<Repos & AccountsRepos & MailRepos>;
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
    webhooks: {
      allowPrivateTargets: boolean; targetPorts: readonly number[] | 'any';
      firstRetrySeconds: number; timeoutSeconds: number; relayIntervalSeconds: number; sendsPerAccount: number;
    };
  };
}

export const webhooksModule: FeatureModule<WebhooksNeeds, { webhooks: Webhooks; webhookRelay: WebhookRelay; webhookOwnerNotices: WebhookOwnerNotices }> = {
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
};
