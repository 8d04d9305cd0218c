// The webhooks module's SQL of endpoints and deliveries (migrations 0019, 0021; its port:
// ../core/ports.ts WebhooksRepo). The deliveries are inserted by the events repository's own
// statement (src/adapters/postgres/repos/events.ts, the kernel's), not here.
import type {
  ClaimedEndpoint, DueDelivery, LeasedTarget, WebhookDeliveryRecord, WebhookEndpointRecord, WebhooksRepo,
} from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';

const ENDPOINT_COLS = `id, account_id AS "accountId", url, events, description, enabled, disabled_reason AS "disabledReason",
  failing_since AS "failingSince", created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`;

const DELIVERY_COLS = `d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.type, d.subject, d.state, d.attempts,
  d.next_at AS "nextAt", d.retry_until AS "retryUntil", d.last_status AS "lastStatus", d.last_error AS "lastError",
  d.delivered_at AS "deliveredAt", d.created_at AS "createdAt"`;

export function webhooksRepo(sql: Sql): WebhooksRepo {
  return {
    async insertEndpoint(e) {
      await sql.query(
        `INSERT INTO webhook_endpoints (id, account_id, url, events, description, enabled, secret, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        [e.id, e.accountId, e.url, e.events, e.description, e.enabled, e.secret, e.createdBy, e.createdAt],
      );
    },
    listEndpoints: (accountId) =>
      sql.query<WebhookEndpointRecord>(`SELECT ${ENDPOINT_COLS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`, [accountId]),
    async endpoint(accountId, id) {
      const [row] = await sql.query<WebhookEndpointRecord>(`SELECT ${ENDPOINT_COLS} FROM webhook_endpoints WHERE account_id = $1 AND id = $2`, [
        accountId, id,
      ]);
      return row ?? null;
    },
    async updateEndpoint(id, patch, now) {
      await sql.query(
        `UPDATE webhook_endpoints SET url = COALESCE($2, url), events = COALESCE($3, events), description = COALESCE($4, description),
           enabled = COALESCE($5, enabled), created_by = COALESCE($7, created_by),
           disabled_reason = CASE WHEN $5 THEN NULL ELSE disabled_reason END,
           failing_since = CASE WHEN $5 THEN NULL ELSE failing_since END,
           -- enabled again, or sent elsewhere: the circuit breaker starts closed
           paused_until = CASE WHEN $5 OR $2::text <> url THEN NULL ELSE paused_until END,
           breaker_failures = CASE WHEN $5 OR $2::text <> url THEN 0 ELSE breaker_failures END,
           updated_at = $6
         WHERE id = $1`,
        [id, patch.url ?? null, patch.events ?? null, patch.description ?? null, patch.enabled ?? null, now, patch.createdBy ?? null],
      );
    },
    async deleteEndpoint(accountId, id) {
      return (await sql.query('DELETE FROM webhook_endpoints WHERE account_id = $1 AND id = $2 RETURNING 1', [accountId, id])).length > 0;
    },
    async rotateSecret(id, secret, previousUntil, now) {
      await sql.query(
        `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $3, secret = $2, updated_at = $4 WHERE id = $1`,
        [id, secret, previousUntil, now],
      );
    },

    // Fair claims (docs/webhooks.md "Fairness"): `busy` counts each account's live leases (every
    // node's); an account's due endpoints are ranked after them, least recently served first,
    // and only those within `perAccount` are taken, rank by rank (every account's first before
    // any account's second). The rows are then locked FOR UPDATE SKIP LOCKED, the lease
    // condition checked again on the locked row: concurrent claims never share an endpoint
    // (they may together pass the per-account count by what they take at the same instant).
    claimEndpoints: (now, leaseUntil, limit, perAccount) =>
      sql.query<ClaimedEndpoint>(
        `WITH due AS (
           SELECT e.id, e.account_id, e.last_claimed_at FROM webhook_endpoints e
           WHERE e.enabled AND (e.lease_until IS NULL OR e.lease_until <= $1) AND (e.paused_until IS NULL OR e.paused_until <= $1)
             AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.state = 'pending' AND d.next_at <= $1)),
         busy AS (
           SELECT account_id, count(*)::int AS leased FROM webhook_endpoints WHERE lease_until > $1 GROUP BY account_id),
         ranked AS (
           SELECT due.id, due.last_claimed_at,
             COALESCE(busy.leased, 0) + row_number() OVER (PARTITION BY due.account_id ORDER BY due.last_claimed_at NULLS FIRST, due.id) AS place
           FROM due LEFT JOIN busy ON busy.account_id = due.account_id),
         picked AS (
           SELECT e.id FROM webhook_endpoints e JOIN ranked r ON r.id = e.id
           WHERE r.place <= $4 AND e.enabled AND (e.lease_until IS NULL OR e.lease_until <= $1)
           ORDER BY r.place, r.last_claimed_at NULLS FIRST, e.id LIMIT $3
           FOR UPDATE OF e SKIP LOCKED)
         UPDATE webhook_endpoints w SET lease_until = $2, last_claimed_at = $1
         FROM picked WHERE w.id = picked.id
         RETURNING w.id, w.account_id AS "accountId", w.url, w.secret, w.previous_secret AS "previousSecret",
           w.previous_secret_until AS "previousSecretUntil", w.failing_since AS "failingSince",
           w.breaker_failures AS "breakerFailures", w.lease_until AS "leaseUntil"`,
        [now, leaseUntil, limit, perAccount],
      ),
    async renewLease(endpointId, heldUntil, leaseUntil) {
      const rows = await sql.query('UPDATE webhook_endpoints SET lease_until = $3 WHERE id = $1 AND lease_until = $2 AND enabled RETURNING 1', [
        endpointId, heldUntil, leaseUntil,
      ]);
      return rows.length > 0;
    },
    async releaseLease(endpointId, heldUntil) {
      await sql.query('UPDATE webhook_endpoints SET lease_until = NULL WHERE id = $1 AND lease_until = $2', [endpointId, heldUntil]);
    },
    leasedTarget: async (endpointId, heldUntil) =>
      (
        await sql.query<LeasedTarget>(
          `SELECT url, secret, previous_secret AS "previousSecret", previous_secret_until AS "previousSecretUntil"
           FROM webhook_endpoints WHERE id = $1 AND lease_until = $2 AND enabled`,
          [endpointId, heldUntil],
        )
      )[0] ?? null,
    dueDeliveries: (endpointId, now, limit) =>
      sql
        .query<Omit<DueDelivery, 'event'> & Pick<DueDelivery['event'], 'type' | 'accountId' | 'data' | 'occurredAt'>>(
          `SELECT d.id, d.subject, d.attempts, d.retry_until AS "retryUntil", ev.type, ev.account_id AS "accountId", ev.data,
             ev.occurred_at AS "occurredAt"
           FROM webhook_deliveries d JOIN domain_events ev ON ev.id = d.event_id
           WHERE d.endpoint_id = $1 AND d.state = 'pending' AND d.next_at <= $2
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o
                             WHERE o.endpoint_id = d.endpoint_id AND o.state = 'pending' AND o.subject = d.subject AND o.event_seq < d.event_seq
                               AND o.next_at > $2)
           ORDER BY d.event_seq LIMIT $3`,
          [endpointId, now, limit],
        )
        .then((rows) =>
          rows.map(({ type, accountId, data, occurredAt, ...d }) => ({ ...d, event: { type, accountId, data, occurredAt } }) as DueDelivery),
        ),
    async settle(id, attempts, outcome, now) {
      const [set, values]: [string, unknown[]] =
        outcome.state === 'delivered'
          ? [`state = 'delivered', delivered_at = $4, last_status = $5, last_error = NULL, next_at = NULL`, [outcome.at, outcome.status]]
          : outcome.state === 'pending'
            ? ['next_at = $4, last_status = $5, last_error = $6', [outcome.retryAt, outcome.status, outcome.error]]
            : [`state = 'failed', next_at = NULL, last_status = $4, last_error = $5`, [outcome.status, outcome.error]];
      // One statement: the delivery, and the endpoint's failure streak and circuit breaker (a
      // success ends both; a failure starts the streak if not started, and one that pauses
      // the endpoint counts a breaker failure), the endpoint row written only when it changes.
      const pause = outcome.state === 'delivered' ? undefined : outcome.pauseUntil;
      const [endpointSet, unchanged] =
        outcome.state === 'delivered'
          ? ['failing_since = NULL, paused_until = NULL, breaker_failures = 0', 'w.failing_since IS NOT NULL OR w.breaker_failures > 0 OR w.paused_until IS NOT NULL']
          : pause
            ? [`failing_since = COALESCE(w.failing_since, $3), paused_until = $${4 + values.length}, breaker_failures = w.breaker_failures + 1`, 'true']
            : ['failing_since = $3', 'w.failing_since IS NULL'];
      const [row] = await sql.query<{ settled: number }>(
        `WITH d AS (
           UPDATE webhook_deliveries SET attempts = attempts + 1, ${set}
           WHERE id = $1 AND attempts = $2 AND state = 'pending' RETURNING endpoint_id),
         e AS (UPDATE webhook_endpoints w SET ${endpointSet} FROM d WHERE w.id = d.endpoint_id AND (${unchanged}) RETURNING 1)
         SELECT (SELECT count(*) FROM d)::int AS settled, $3::timestamptz AS now`, // $3 named even where the streak does not use it: one numbering
        [id, attempts, now, ...values, ...(pause ? [pause] : [])],
      );
      return row!.settled > 0;
    },
    async disable(endpointId, reason, now) {
      const rows = await sql.query(
        `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, owner_notice_pending = $3 = 'creator-lost-access', updated_at = $2
         WHERE id = $1 AND enabled RETURNING 1`,
        [endpointId, now, reason],
      );
      return rows.length > 0;
    },
    takeOwnerNotices: (limit) =>
      sql.query<WebhookEndpointRecord>(
        `UPDATE webhook_endpoints w SET owner_notice_pending = false
         FROM (SELECT id AS due_id FROM webhook_endpoints WHERE owner_notice_pending ORDER BY updated_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) due
         WHERE w.id = due.due_id
         RETURNING ${ENDPOINT_COLS}`,
        [limit],
      ),

    listDeliveries: (endpointId, limit, state) =>
      sql.query<WebhookDeliveryRecord>(
        `SELECT ${DELIVERY_COLS} FROM webhook_deliveries d
         WHERE d.endpoint_id = $1 AND ($3::text IS NULL OR d.state = $3) ORDER BY d.event_seq DESC LIMIT $2`,
        [endpointId, limit, state ?? null],
      ),
    async replay(endpointId, deliveryId, now, retryUntil) {
      const [row] = await sql.query<WebhookDeliveryRecord>(
        `UPDATE webhook_deliveries d SET state = 'pending', attempts = 0, next_at = $3, retry_until = $4, delivered_at = NULL
         WHERE d.endpoint_id = $1 AND d.id = $2 RETURNING ${DELIVERY_COLS}`,
        [endpointId, deliveryId, now, retryUntil],
      );
      return row ?? null;
    },
  };
}
