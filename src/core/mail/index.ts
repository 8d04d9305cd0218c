// The mail module: e-mails written to the outbox in the caller's transaction, and the
// SMTP relay of the outbox (SMTP_URL). Offers: SendMail, MailRelay and its task.
// Needs: the MailTransport port for the relay.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createSendMail, REDACTED, redactMail, redactSpentSecret } from './send-mail.ts';
export type { Mail, SendMail } from './send-mail.ts';
export { createMailRelay, mailRelayPasses } from './relay.ts';
export type { MailRelay, RelaySettings } from './relay.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { mailModule, type MailOffers } from './module.ts';
