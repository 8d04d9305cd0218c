// The outbox: every mail the service writes, and the SMTP relay's state of each (migration
// 0016, ../core/relay.ts).
import type { ClaimedMail, OutboxEntry, OutboxRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

/** The row's text with its relay secret (if any) replaced by $4 (the redaction mark), and the secret cleared. */
const REDACT_RELAY_SECRET = `
  subject = CASE WHEN relay_secret IS NULL THEN subject ELSE replace(subject, relay_secret, $4) END,
  body = CASE WHEN relay_secret IS NULL THEN body ELSE replace(body, relay_secret, $4) END,
  links = CASE WHEN relay_secret IS NULL THEN links ELSE replace(links::text, relay_secret, $4)::jsonb END,
  secret_hash = CASE WHEN relay_secret IS NULL THEN secret_hash END,
  relay_secret = NULL`;

export function outboxRepo(sql: Sql): OutboxRepo {
  return {
    // "Newest first" must hold for mails sent in the same millisecond (one transaction
    // inviting several users): sent_at is kept strictly increasing, one microsecond past
    // the latest when the clock has not moved (invisible at the millisecond precision shown).
    async insert(id, m, now, secretHash = null, relay = null) {
      await sql.query(
        `INSERT INTO outbox (id, to_email, subject, body, links, sent_at, secret_hash, relay_state, relay_next_at, relay_secret)
         VALUES ($1, $2, $3, $4, $5, GREATEST($6::timestamptz, (SELECT max(sent_at) + interval '1 microsecond' FROM outbox)), $7,
           $8, CASE WHEN $8 = 'pending' THEN $6::timestamptz END, $9)`,
        [id, m.to, m.subject, m.text, JSON.stringify(m.links), now, secretHash, relay ? 'pending' : 'stored', relay?.secret ?? null],
      );
    },
    async redactSecret(secretHash, secret, replacement) {
      await sql.query(
        `UPDATE outbox SET body = replace(body, $2, $3), links = replace(links::text, $2, $3)::jsonb, secret_hash = NULL,
           relay_secret = NULL
         WHERE secret_hash = $1`,
        [secretHash, secret, replacement],
      );
    },
    async list(limit, state) {
      const rows = await sql.query<OutboxEntry & { state: OutboxEntry['relay']['state']; attempts: number; lastError: string | null; relayedAt: Date | null }>(
        `SELECT id, to_email AS "to", subject, body AS "text", links, sent_at AS "sentAt", relay_state AS state,
           relay_attempts AS attempts, relay_last_error AS "lastError", relayed_at AS "relayedAt"
         FROM outbox WHERE $2::text IS NULL OR relay_state = $2 ORDER BY sent_at DESC, id DESC LIMIT $1`,
        [limit, state ?? null],
      );
      return rows.map(({ state, attempts, lastError, relayedAt, ...m }) => ({ ...m, relay: { state, attempts, lastError, relayedAt } }));
    },
    claimDue: (now, leaseUntil, limit) =>
      sql.query<ClaimedMail>(
        `UPDATE outbox o SET relay_attempts = o.relay_attempts + 1, relay_next_at = $2
         FROM (SELECT id FROM outbox WHERE relay_state = 'pending' AND relay_next_at <= $1
               ORDER BY relay_next_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) due
         WHERE o.id = due.id
         RETURNING o.id, o.to_email AS "to", o.subject, o.body AS "text", o.links, o.relay_attempts AS attempt,
           o.relay_secret AS secret`,
        [now, leaseUntil, limit],
      ),
    async settle(id, attempt, outcome, redacted) {
      const [set, values]: [string, unknown[]] =
        outcome.state === 'sent'
          ? [`relay_state = 'sent', relayed_at = $3, relay_next_at = NULL, relay_last_error = NULL, ${REDACT_RELAY_SECRET}`, [outcome.at, redacted]]
          : outcome.state === 'pending'
            ? ['relay_next_at = $3, relay_last_error = $4', [outcome.retryAt, outcome.error]]
            : [`relay_state = 'failed', relay_next_at = NULL, relay_last_error = $3, ${REDACT_RELAY_SECRET}`, [outcome.error, redacted]];
      const rows = await sql.query(
        `UPDATE outbox SET ${set} WHERE id = $1 AND relay_attempts = $2 AND relay_state = 'pending' RETURNING 1`,
        [id, attempt, ...values],
      );
      return rows.length > 0;
    },
  };
}
