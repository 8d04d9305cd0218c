// The service's e-mails go to the outbox table (read through /_operator/outbox),
// written in the caller's transaction so a rolled-back change sends nothing.
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { OutboxMail, Repos } from '../ports/repositories.ts';

export type SendMail = (repos: Repos, mail: OutboxMail) => Promise<void>;

export const createSendMail =
  (ids: Ids, clock: Clock): SendMail =>
  (repos, mail) =>
    repos.outbox.insert(ids.uuid(), mail, clock.now());
