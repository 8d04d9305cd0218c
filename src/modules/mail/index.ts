// The mail module's public face: e-mails written to the outbox in the caller's transaction,
// and the relay of the outbox (SMTP_URL, or MAIL_TO_LOG). The modules that send mail declare
// its repository in their transactions through this face (MailRepos: users, members,
// webhooks, work zones, annotations, mesh export, the job runner, the operator's outbox);
// its offers (MailOffers) reach the composition through its contract (module.ts).
// Its core imports no other module, so this face exports its use cases too.
export { createSendMail, REDACTED, redactMail, redactSpentSecret } from './core/send-mail.ts';
export type { Mail, SendMail } from './core/send-mail.ts';
export { createMailRelay, mailRelayPasses } from './core/relay.ts';
export type { MailRelay, RelaySettings } from './core/relay.ts';
export type { ClaimedMail, MailRepos, OutboxEntry, OutboxMail, OutboxRepo, RelayState } from './core/ports.ts';
