// The service's e-mails go to the outbox table (read through /_operator/outbox),
// written in the caller's transaction so a rolled-back change sends nothing.
//
// A mail may carry a secret (an invitation token, in its text and links). The recipient's
// copy is the only one that has to hold it: the stored row keeps it only while the outbox
// is the way mail reaches people (the operator API is on, and whoever holds its token can
// issue tokens for any user anyway), and until the secret is spent (`redactSpentSecret`).
// Otherwise the row is stored with the secret replaced by REDACTED (docs/security.md).
import { sha256Hex } from '../crypto/digest.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { OutboxMail, Repos } from '../ports/repositories.ts';

export const REDACTED = '[redacted]';

export interface Mail extends OutboxMail {
  /** A secret the text and links hold (a token), kept out of storage when the outbox is not read. */
  secret?: string;
}

export type SendMail = (repos: Repos, mail: Mail) => Promise<void>;

/** The mail with every occurrence of `secret` replaced by REDACTED. */
export function redactMail(mail: OutboxMail, secret: string): OutboxMail {
  const strip = (s: string) => s.split(secret).join(REDACTED);
  return { to: mail.to, subject: strip(mail.subject), text: strip(mail.text), links: mail.links.map(strip) };
}

export const createSendMail =
  (ids: Ids, clock: Clock, opts: { keepSecrets: boolean }): SendMail =>
  async (repos, { secret, ...mail }) => {
    if (!secret) return repos.outbox.insert(ids.uuid(), mail, clock.now());
    if (!opts.keepSecrets) return repos.outbox.insert(ids.uuid(), redactMail(mail, secret), clock.now());
    return repos.outbox.insert(ids.uuid(), mail, clock.now(), sha256Hex(secret));
  };

/** Once a secret is spent (an invitation accepted), the stored copies of its mail lose it, in the caller's transaction. */
export const redactSpentSecret = (repos: Repos, secret: string): Promise<void> =>
  repos.outbox.redactSecret(sha256Hex(secret), secret, REDACTED);
