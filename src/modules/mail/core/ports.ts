// The mail module's repository port (its SQL: ../postgres/outbox-repo.ts): the outbox, every
// mail the service writes, and the relay's state of each (migration 0016). Its users write it
// in their own transactions (send-mail.ts) and declare it through the module's public face.
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** Where a stored mail is on its way out (migration 0016, relay.ts). */
export type RelayState = 'stored' | 'pending' | 'sent' | 'failed';

export interface OutboxEntry extends OutboxMail {
  id: string;
  sentAt: Date;
  relay: { state: RelayState; attempts: number; lastError: string | null; relayedAt: Date | null };
}

/** A pending mail claimed by this node for one attempt (`attempt`: the attempts counted so far, this one included). */
export interface ClaimedMail extends OutboxMail {
  id: string;
  attempt: number;
  /** The secret the stored copy loses once relayed (null: nothing to redact, or the text still holds it for the outbox's readers). */
  secret: string | null;
}

export interface OutboxRepo {
  /**
   * Stores a mail. `secretHash` (SHA-256 hex) is set when the stored text still holds a
   * secret (an invitation token), so that `redactSecret` can find the row once it is spent.
   * `relay`: the mail is to be relayed over SMTP (state 'pending', due now); its `secret`, when
   * given, is redacted from the row once the relay is done with it.
   */
  insert(id: string, mail: OutboxMail, now: Date, secretHash?: string | null, relay?: { secret: string | null } | null): Promise<void>;
  /** Newest first; only those in `state` when given. */
  list(limit: number, state?: RelayState): Promise<OutboxEntry[]>;
  /** Replaces `secret` by `replacement` in the text and links of the mails holding it (found by its hash). */
  redactSecret(secretHash: string, secret: string, replacement: string): Promise<void>;
  /**
   * Claims up to `limit` pending mails due at `now` that no other transaction holds (FOR UPDATE
   * SKIP LOCKED): counts an attempt on each and moves it out of reach until `leaseUntil`, so
   * another node takes it over only if this one never reports (a crash).
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]>;
  /**
   * Reports the outcome of attempt `attempt`: 'sent', a retry at `retryAt`, or 'failed' for
   * good. A finished row loses its relay secret (replaced by `redacted`). False when the row
   * is no longer that attempt's (its lease ran out and another node took it, or a reset).
   */
  settle(
    id: string,
    attempt: number,
    outcome: { state: 'sent'; at: Date } | { state: 'pending'; retryAt: Date; error: string } | { state: 'failed'; error: string },
    redacted: string,
  ): Promise<boolean>;
}

/** The module's repository, as the modules that send mail in their transactions declare it (`Store<Repos & MailRepos>`). */
export type MailRepos = { outbox: OutboxRepo };

// A job's finish step is handed the outbox too (src/core/ports/job-handler.ts JobFinishRepos):
// the work-zone copy and the mesh export mail their requester when they end.
declare module '../../../core/ports/job-handler.ts' {
  interface JobFinishRepos extends MailRepos {}
}
