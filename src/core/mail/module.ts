// The mail module's descriptor (src/core/modules.ts): send-mail into the outbox, and with
// SMTP_URL every node's relay of the outbox (a periodic task).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { MailTransport } from '../ports/mail-transport.ts';
import type { CoreMetrics, Logger } from '../ports/telemetry.ts';
import { createSendMail, type SendMail } from './send-mail.ts';
import { createMailRelay, mailRelayPasses, type MailRelay, type RelaySettings } from './relay.ts';

export interface MailNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  metrics: { core: CoreMetrics };
  /** The SMTP transport; null without SMTP_URL (mail then stays in the outbox). */
  mailTransport: MailTransport | null;
  config: {
    publicUrl: string;
    operatorToken: string | undefined;
    mail: RelaySettings & { smtpUrl: string | undefined; relayIntervalSeconds: number };
  };
}

export interface MailOffers {
  sendMail: SendMail;
  /** The SMTP relay; null without SMTP_URL. */
  mailRelay: MailRelay | null;
}

export const mailModule: FeatureModule<MailNeeds, MailOffers> = {
  name: 'mail',
  create: ({ store, clock, ids, logger, metrics, mailTransport, config }) => {
    // The outbox keeps a mail's secret (an invitation link) only while someone can read it
    // there: the operator API, or until the SMTP relay has sent it (docs/security.md, "Secrets and keys").
    const sendMail = createSendMail(ids, clock, {
      keepSecrets: config.operatorToken !== undefined,
      relay: config.mail.smtpUrl !== undefined,
    });
    // With SMTP_URL, every node relays the outbox's pending mails (one node per mail: relay.ts).
    const mailRelay = mailTransport
      ? createMailRelay({
          store, clock, transport: mailTransport, domain: new URL(config.publicUrl).hostname,
          settings: config.mail, logger, metrics: metrics.core,
        })
      : null;
    return {
      offers: { sendMail, mailRelay },
      tasks: mailRelay ? [mailRelayPasses(mailRelay, config.mail.relayIntervalSeconds)] : [],
    };
  },
};
