// The webhook relay (docs/webhooks.md "Delivery"): every node runs a pass every few seconds.
// A pass leases the endpoints that have due deliveries (FOR UPDATE SKIP LOCKED and a lease:
// each endpoint is in one node's hands at a time) and sends each endpoint's deliveries one
// after the other, in event order; a failed delivery holds back the later ones of its
// subject (per-subject order) but not those of other subjects.
//
// At least once: a delivery is settled by the statement after the receiver's answer; a node
// that dies in between leaves it pending, and once the endpoint's lease ends another node
// (or the restarted one) sends it again with the same webhook-id, which receivers use to
// drop the second copy.
import { failureLine } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoreSlice } from '../ports/store-slices.ts';
import type { Repos } from '../ports/repositories.ts';
import { WebhookSendError, type ClaimedEndpoint, type DueDelivery, type LeasedTarget, type WebhookSender } from '../ports/webhooks.ts';
import { errorFields, type CoreMetrics, type Logger } from '../ports/telemetry.ts';
import type { SendMail } from '../mail/index.ts';
import type { PeriodicTask } from '../ports/background.ts';
import { signedHeaders } from './signature.ts';
import { nextAttemptAt, shouldDisable } from './retry-schedule.ts';
import { webhookPayload } from './webhook-events.ts';

export const WEBHOOK_RELAY = {
  /** Endpoints one node leases per statement (sent to in parallel). */
  endpointsPerClaim: 10,
  /** Deliveries read per statement, and batches per endpoint and pass (the rest waits for the next pass). */
  deliveriesPerBatch: 50,
  batchesPerPass: 20,
  /** Claim statements per pass. */
  claimsPerPass: 5,
  /** The error kept and shown, at most. */
  maxErrorChars: 500,
};

export interface WebhookRelaySettings {
  /** The wait after a delivery's first failed attempt, doubling after each (WEBHOOKS_RETRY_SECONDS). */
  firstRetrySeconds: number;
  /** The sender's timeout (WEBHOOKS_TIMEOUT): the lease covers one send and its bookkeeping. */
  timeoutSeconds: number;
  urnNamespace: string;
  publicUrl: string;
}

/** The lease an endpoint is held for around one send: twice the send timeout, and some margin. */
export const leaseSecondsFor = (timeoutSeconds: number) => 2 * timeoutSeconds + 5;

/** A failure as kept on the delivery: one line, bounded (a status, a connection error, a refusal). */
export function describeSendFailure(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return failureLine(text, WEBHOOK_RELAY.maxErrorChars);
}

/** Sends due deliveries, signed, to their endpoints (docs/webhooks.md). */
export interface WebhookRelay {
  /** One pass: leases endpoints with due deliveries and relays each; how many endpoints were leased. */
  run(): Promise<number>;
}

export function createWebhookRelay(deps: {
  store: StoreSlice<'webhooks'>;
  clock: Clock;
  sender: WebhookSender;
  sendMail: SendMail;
  settings: WebhookRelaySettings;
  logger: Logger;
  metrics: CoreMetrics;
}): WebhookRelay {
  const { store, clock, sender, sendMail, settings, logger, metrics } = deps;
  const leaseMs = leaseSecondsFor(settings.timeoutSeconds) * 1000;

  /** One attempt to the endpoint's current address, signed with its current secrets; answers whether the endpoint took it. */
  async function attempt(endpoint: ClaimedEndpoint, target: LeasedTarget, d: DueDelivery): Promise<boolean> {
    const fields = { webhookId: endpoint.id, deliveryId: d.id, attempt: d.attempts + 1 };
    const payload = webhookPayload(d.event, settings.urnNamespace);
    if (!payload) {
      // Only deliverable events are fanned out; a type made undeliverable since is dropped, not sent.
      await store.repos.webhooks.settle(d.id, d.attempts, { state: 'failed', status: null, error: 'the event type is no longer delivered' }, clock.now());
      return true;
    }
    const body = JSON.stringify(payload);
    const now = clock.now();
    const secrets = [target.secret];
    if (target.previousSecret && target.previousSecretUntil && target.previousSecretUntil > now) secrets.push(target.previousSecret);
    const headers = { 'content-type': 'application/json', ...signedHeaders(secrets, d.id, Math.floor(now.getTime() / 1000), body) };
    let status: number | null = null;
    let error: string;
    try {
      status = (await sender.send({ url: target.url, headers, body })).status;
      if (status >= 200 && status < 300) {
        metrics.webhookDelivered();
        if (!(await store.repos.webhooks.settle(d.id, d.attempts, { state: 'delivered', status, at: clock.now() }, clock.now()))) {
          logger.warn(fields, 'webhook relay: delivered, but the delivery had moved on (replayed or deleted)');
        }
        return true;
      }
      error = `HTTP ${status}`;
    } catch (e) {
      if (!(e instanceof WebhookSendError)) throw e;
      error = describeSendFailure(e);
    }
    const retryAt = nextAttemptAt(d.attempts + 1, clock.nowMs(), d.retryUntil, settings.firstRetrySeconds);
    metrics.webhookFailed(retryAt === null);
    await store.repos.webhooks.settle(d.id, d.attempts, retryAt ? { state: 'pending', status, error, retryAt } : { state: 'failed', status, error }, clock.now());
    logger.warn({ ...fields, error }, retryAt ? 'webhook relay: attempt failed; retrying later' : 'webhook relay: delivery failed for good');
    return false;
  }

  /** The mail to the account's owner and administrators when their endpoint is disabled. */
  async function tellAdministrators(repos: Repos, endpoint: ClaimedEndpoint): Promise<void> {
    const account = await repos.accounts.byId(endpoint.accountId);
    if (!account) return;
    const admins = (await repos.accounts.members(account.id)).filter((m) => m.roles.includes('administrator')).map((m) => m.userId);
    for (const userId of new Set([account.ownerId, ...admins])) {
      const user = await repos.users.byId(userId);
      if (!user) continue;
      await sendMail(repos, {
        to: user.email,
        subject: `Webhook disabled in ${account.name}`,
        text:
          `The webhook endpoint ${endpoint.url} of the account ${account.name} failed every delivery for a day, so it was disabled.\n` +
          `Its pending deliveries are kept. Once it answers again, enable it (PATCH ${settings.publicUrl}/api/2/accounts/${account.id}/webhooks/${endpoint.id} with {"enabled": true}) and replay the failed ones.\n`,
        links: [],
      });
    }
  }

  async function disable(endpoint: ClaimedEndpoint): Promise<void> {
    const now = clock.now();
    const disabled = await store.transaction(async (repos) => {
      if (!(await repos.webhooks.disableFailing(endpoint.id, now))) return false;
      const data = { accountId: endpoint.accountId, webhookId: endpoint.id, reason: 'failing' as const };
      await repos.events.publish({ type: 'webhook.disabled', accountId: endpoint.accountId, subject: `webhook:${endpoint.id}`, data }, now);
      await tellAdministrators(repos, endpoint);
      return true;
    });
    if (disabled) {
      metrics.webhookDisabled();
      logger.warn({ webhookId: endpoint.id }, 'webhook relay: endpoint disabled after a day of failures');
    }
  }

  /** Sends the endpoint's due deliveries while it holds the lease. */
  async function relayEndpoint(endpoint: ClaimedEndpoint): Promise<void> {
    let heldUntil = endpoint.leaseUntil;
    let failingSince = endpoint.failingSince;
    const heldBack = new Set<string>();
    try {
      for (let batch = 0; batch < WEBHOOK_RELAY.batchesPerPass; batch++) {
        const due = await store.repos.webhooks.dueDeliveries(endpoint.id, clock.now(), WEBHOOK_RELAY.deliveriesPerBatch);
        const sendable = due.filter((d) => !heldBack.has(d.subject));
        for (const d of sendable) {
          if (heldBack.has(d.subject)) continue;
          // The lease must outlast this send: renewed once less than half of it is left.
          if (heldUntil.getTime() - clock.nowMs() < leaseMs / 2) {
            const renewed = new Date(clock.nowMs() + leaseMs);
            if (!(await store.repos.webhooks.renewLease(endpoint.id, heldUntil, renewed))) return; // disabled, deleted, or lease lost
            heldUntil = renewed;
          }
          const target = await store.repos.webhooks.leasedTarget(endpoint.id, heldUntil);
          if (!target) return; // disabled, deleted, or lease lost
          if (await attempt(endpoint, target, d)) {
            failingSince = null;
            continue;
          }
          heldBack.add(d.subject);
          failingSince ??= clock.now();
          if (shouldDisable(failingSince, clock.nowMs())) {
            await disable(endpoint);
            return;
          }
        }
        if (due.length < WEBHOOK_RELAY.deliveriesPerBatch || sendable.length === 0) return;
      }
    } finally {
      await store.repos.webhooks.releaseLease(endpoint.id, heldUntil);
    }
  }

  return {
    /** One pass: leases endpoints with due deliveries and relays each; how many endpoints were leased. */
    async run(): Promise<number> {
      let leased = 0;
      // Bounded: endpoints with more due deliveries than one pass sends wait for the next pass.
      for (let round = 0; round < WEBHOOK_RELAY.claimsPerPass; round++) {
        const now = clock.nowMs();
        const endpoints = await store.repos.webhooks.claimEndpoints(new Date(now), new Date(now + leaseMs), WEBHOOK_RELAY.endpointsPerClaim);
        leased += endpoints.length;
        await Promise.all(
          endpoints.map((e) =>
            relayEndpoint(e).catch((err: unknown) => {
              // The lease brings the endpoint back; only the bookkeeping failed (the database).
              logger.error({ webhookId: e.id, ...errorFields(err) }, 'webhook relay: an endpoint pass failed; retried after its lease');
            }),
          ),
        );
        if (endpoints.length < WEBHOOK_RELAY.endpointsPerClaim) break;
      }
      return leased;
    },
  };
}


/** Every node's periodic pass over the due deliveries (one node per endpoint: the lease). */
export function webhookRelayPasses(relay: WebhookRelay, intervalSeconds: number): PeriodicTask {
  return {
    name: 'webhook-relay', everySeconds: intervalSeconds, atStart: true, run: () => relay.run(),
    failure: { level: 'error', message: `webhook relay pass failed; next pass in ${intervalSeconds} s` },
  };
}
