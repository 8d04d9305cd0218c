// MailTransport of the local mode (MAIL_TO_LOG, loopback HOST only: src/modules/mail/settings.ts): each mail
// is printed to the service's log instead of being sent, its links on their own, so that a
// newcomer without an SMTP server sees the invitation and password-reset links where the
// service runs. The relay treats a printed mail as sent (and the outbox copy then loses its
// one-time token, as after an SMTP delivery).
import type { MailTransport } from '../../core/ports/mail-transport.ts';
import type { Logger } from '../../core/ports/telemetry.ts';

const LINK = /https?:\/\/[^\s<>"]+/g;

export function logTransport(logger: Logger): MailTransport {
  return {
    async send(mail) {
      const links = mail.text.match(LINK) ?? [];
      logger.info(
        { mail: { to: mail.to, subject: mail.subject, links, text: mail.text } },
        `mail (MAIL_TO_LOG, not sent) to ${mail.to}: ${mail.subject}${links.length ? ` — ${links.join(' ')}` : ''}`,
      );
    },
    close() {},
  };
}
