// MailTransport over SMTP (nodemailer), from SMTP_URL: smtp://user:password@host:587 (STARTTLS
// when the server offers it) or smtps://…:465; nodemailer's options may follow as query
// parameters (e.g. ?requireTLS=true). Timeouts are bounded well under the relay's claim lease
// (src/modules/mail/core/relay.ts), so an attempt ends before another node may take the mail over.
import nodemailer from 'nodemailer';
import type { MailTransport } from '../../core/ports/mail-transport.ts';

const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(
    // Options from the URL win over these defaults; the mail's text is plain, never a file or URL to fetch.
    { url: smtpUrl, ...TIMEOUTS, disableFileAccess: true, disableUrlAccess: true, logger: false },
    { from },
  );
  return {
    async send(mail) {
      await transporter.sendMail({ messageId: mail.messageId, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transporter.close(),
  };
}
