// The mail relay (SMTP_URL; docs/operations.md "Mail relay"): every node runs a pass every
// few seconds; a pass claims the pending mails that are due (FOR UPDATE SKIP LOCKED, so each
// mail is in one node's hands at a time) and sends each over the MailTransport.
//
// Delivery: a mail is marked sent by the statement that follows the server's acceptance,
// for that attempt only. It is sent at most once when things go well; a node that dies
// between the server's acceptance and that statement leaves the mail claimed until its
// lease ends, and another node sends it again (at-least-once on a crash). Every attempt of
// one mail carries the same Message-ID, so a receiver can drop the second copy.
//
// Failures: attempt n failing is retried after firstRetrySeconds × 2^(n-1) (at most
// MAX_RETRY_SECONDS); after maxAttempts the mail is 'failed' for good: `npm run admin --
// outbox` shows it with the last error, and scanbase_mail_relay_failures_total counts it.
import { failureLine } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { MailTransport } from '../../../core/ports/mail-transport.ts';
import type { ClaimedMail, MailRepos } from './ports.ts';
import { errorFields, type CoreMetrics, type Logger } from '../../../core/ports/telemetry.ts';
import { REDACTED } from './send-mail.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import { readsOf, storeReadsOf, type ReadsOf } from '../../../core/ports/store-slices.ts';

export const RELAY = {
  /** A claimed mail is another node's to take after this long without an outcome (a crash); longer than the transport's timeouts. */
  leaseSeconds: 5 * 60,
  /** Mails claimed per statement. */
  batch: 20,
  /** The longest wait between two attempts. */
  maxRetrySeconds: 6 * 3600,
  /** The error kept and shown, at most. */
  maxErrorChars: 500,
};

export interface RelaySettings {
  /** Attempts before a mail fails for good (MAIL_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** The wait after the first failed attempt, doubling after each (MAIL_RETRY_SECONDS). */
  firstRetrySeconds: number;
}

/** The wait before the attempt after failed attempt `attempt` (1-based): exponential, capped (pure). */
export function retryDelaySeconds(attempt: number, firstRetrySeconds: number): number {
  return Math.min(RELAY.maxRetrySeconds, firstRetrySeconds * 2 ** Math.min(attempt - 1, 30));
}

/** The Message-ID of an outbox row: stable across attempts and nodes. */
export const messageIdOf = (id: string, domain: string) => `<${id}@${domain}>`;

/** The failure as kept in the outbox: its message (an SMTP reply, a connection error), one line, bounded; never a mail's text. */
export function describeFailure(e: unknown): string {
  const text = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
  return failureLine(text, RELAY.maxErrorChars);
}

/** The SMTP relay of the outbox's pending mails (SMTP_URL). */
export interface MailRelay {
  /** One pass: claims due mails and relays each; how many were claimed. A row's failure to settle is logged, the rest go on. */
  run(): Promise<number>;
}

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const MAIL_RELAY_READS = storeReadsOf<MailRepos>()(['outbox']);

export function createMailRelay(deps: {
  store: ReadsOf<typeof MAIL_RELAY_READS, MailRepos>;
  clock: Clock;
  transport: MailTransport;
  /** The domain of Message-IDs (the public URL's host). */
  domain: string;
  settings: RelaySettings;
  logger: Logger;
  metrics: CoreMetrics;
}): MailRelay {
  const { clock, transport, domain, settings, logger, metrics } = deps;
  const store = readsOf(deps.store, MAIL_RELAY_READS);

  async function relayOne(mail: ClaimedMail): Promise<void> {
    const fields = { mailId: mail.id, attempt: mail.attempt };
    try {
      await transport.send({ messageId: messageIdOf(mail.id, domain), to: mail.to, subject: mail.subject, text: mail.text });
    } catch (e) {
      const error = describeFailure(e);
      const final = mail.attempt >= settings.maxAttempts;
      metrics.mailRelayFailed(final);
      const outcome = final
        ? ({ state: 'failed', error } as const)
        : ({ state: 'pending', error, retryAt: new Date(clock.nowMs() + retryDelaySeconds(mail.attempt, settings.firstRetrySeconds) * 1000) } as const);
      await store.repos.outbox.settle(mail.id, mail.attempt, outcome, REDACTED);
      logger.warn({ ...fields, error }, final ? 'mail relay: failed for good (see npm run admin -- outbox)' : 'mail relay: attempt failed; retrying later');
      return;
    }
    metrics.mailRelayed();
    if (!(await store.repos.outbox.settle(mail.id, mail.attempt, { state: 'sent', at: clock.now() }, REDACTED))) {
      logger.warn(fields, 'mail relay: sent, but the row had moved on (lease over or reset)');
    }
  }

  return {
    /** One pass: claims due mails and relays each; how many were claimed. A row's failure to settle is logged, the rest go on. */
    async run(): Promise<number> {
      let claimed = 0;
      for (;;) {
        const now = clock.nowMs();
        const mails = await store.repos.outbox.claimDue(new Date(now), new Date(now + RELAY.leaseSeconds * 1000), RELAY.batch);
        claimed += mails.length;
        for (const mail of mails) {
          try {
            await relayOne(mail);
          } catch (e) {
            // The claim's lease brings it back; only the bookkeeping failed (the database).
            logger.error({ mailId: mail.id, ...errorFields(e) }, 'mail relay: recording an attempt failed; the mail is retried after its lease');
          }
        }
        if (mails.length < RELAY.batch) return claimed;
      }
    },
  };
}

/** A relay pass at start, then every `intervalSeconds` (MAIL_RELAY_INTERVAL) on every node. */
export function mailRelayPasses(relay: MailRelay, intervalSeconds: number): PeriodicTask {
  return {
    name: 'mail-relay', everySeconds: intervalSeconds, atStart: true, run: () => relay.run(),
    failure: { level: 'error', message: `mail relay pass failed; next pass in ${intervalSeconds} s` },
  };
}
