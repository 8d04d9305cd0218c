// The service's e-mails go to the outbox table (read through /_operator/outbox, relayed over
// SMTP when SMTP_URL is set: relay.ts), written in the caller's transaction so a rolled-back
// change sends nothing.
//
// A mail may carry a secret (a one-time link's token). The recipient's copy is the only one
// that has to hold it, so the stored row keeps it only
// - while the outbox is a way mail reaches people (the operator API is on, and whoever holds
//   its token can issue tokens for any user anyway), until the secret is spent
//   (`redactSpentSecret`);
// - while the relay still has to send it (SMTP on): the row then names the secret apart
//   (relay_secret) and loses it as soon as the relay is done with it (sent, or failed for good).
// Otherwise the row is stored with the secret replaced by REDACTED (docs/security.md).
import { sha256Hex } from '../../../core/crypto/digest.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { MailRepos, OutboxMail } from './ports.ts';

export const REDACTED = '[redacted]';

export interface Mail extends OutboxMail {
  /** A secret the text and links hold (a token), kept out of storage when the outbox is not read. */
  secret?: string;
}

export type SendMail = (repos: MailRepos, mail: Mail) => Promise<void>;

/** The mail with every occurrence of `secret` replaced by REDACTED. */
export function redactMail(mail: OutboxMail, secret: string): OutboxMail {
  const strip = (s: string) => s.split(secret).join(REDACTED);
  return { to: mail.to, subject: strip(mail.subject), text: strip(mail.text), links: mail.links.map(strip) };
}

export const createSendMail =
  (ids: Ids, clock: Clock, opts: { keepSecrets: boolean; relay: boolean }): SendMail =>
  async (repos, { secret, ...mail }) => {
    const id = ids.uuid();
    const now = clock.now();
    if (opts.relay) {
      // The relay needs the secret in clear until it has sent the mail; the outbox's readers keep it until spent.
      if (!secret) return repos.outbox.insert(id, mail, now, null, { secret: null });
      return repos.outbox.insert(id, mail, now, sha256Hex(secret), { secret: opts.keepSecrets ? null : secret });
    }
    if (!secret) return repos.outbox.insert(id, mail, now);
    if (!opts.keepSecrets) return repos.outbox.insert(id, redactMail(mail, secret), now);
    return repos.outbox.insert(id, mail, now, sha256Hex(secret));
  };

/** Once a secret is spent (an invitation accepted), the stored copies of its mail lose it, in the caller's transaction. */
export const redactSpentSecret = (repos: MailRepos, secret: string): Promise<void> =>
  repos.outbox.redactSecret(sha256Hex(secret), secret, REDACTED);
