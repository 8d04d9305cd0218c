// The mail module's contract (src/modules/contract.ts): send-mail into the outbox, in the
// caller's transaction; with a transport (SMTP_URL, or MAIL_TO_LOG) every node's relay of the
// outbox (a periodic task); its repository, the outbox.
import type { FeatureModule } from '../../core/modules.ts';
import type { Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { MailTransport } from '../../core/ports/mail-transport.ts';
import type { CoreMetrics, Logger } from '../../core/ports/telemetry.ts';
import { defineModule, type SettingsOf } from '../contract.ts';
import { mailSettings, type MailConfig } from './settings.ts';
import { createSendMail, type SendMail } from './core/send-mail.ts';
import { createMailRelay, mailRelayPasses, type MailRelay } from './core/relay.ts';
import type { MailRepos } from './core/ports.ts';
import { outboxRepo } from './postgres/outbox-repo.ts';

export interface MailNeeds {
  store: Store<MailRepos>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  metrics: { core: CoreMetrics };
  /** The transport: SMTP (SMTP_URL), or the log (MAIL_TO_LOG); null with neither (mail then stays in the outbox). */
  mailTransport: MailTransport | null;
  config: {
    publicUrl: string;
    operatorToken: string | undefined;
    mail: MailConfig;
  };
}

export interface MailOffers {
  sendMail: SendMail;
  /** The relay (over SMTP, or to the log); null with neither. */
  mailRelay: MailRelay | null;
}

const feature: FeatureModule<MailNeeds, MailOffers> = {
  name: 'mail',
  create: ({ store, clock, ids, logger, metrics, mailTransport, config }) => {
    // The outbox keeps a mail's secret (an invitation link) only while the outbox is how it
    // reaches people: the operator API, or no transport at all (`npm run admin -- outbox` is
    // then the mailbox), until the link is spent; with a transport, until it has delivered
    // the mail (docs/security.md, "Secrets and keys").
    const sendMail = createSendMail(ids, clock, {
      keepSecrets: config.operatorToken !== undefined || config.mail.delivery === 'outbox',
      relay: config.mail.delivery !== 'outbox',
    });
    // With a transport (SMTP, or the log), every node relays the outbox's pending mails (one node per mail: relay.ts).
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

export const mailModule = defineModule<MailNeeds, MailOffers, MailRepos, never, never, SettingsOf<typeof mailSettings>>({
  name: 'mail',
  feature,
  repositories: { outbox: outboxRepo },
  settings: mailSettings,
});
