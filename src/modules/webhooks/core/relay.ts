// The webhook relay (docs/webhooks.md "Delivery"): every node runs a pass every few seconds.
// A pass leases endpoints that have due deliveries (a lease makes each endpoint one node's
// at a time) and starts a task for each, without waiting for it: endpoints never wait for
// each other, and a slow endpoint holds only its own task. A task sends its endpoint's
// deliveries one after the other, in event order, for at most its time budget, then gives
// the endpoint back, so that the next claims serve the others first (fairness: claims go
// round the accounts and their least recently served endpoints, and an account has at most
// WEBHOOKS_SENDS_PER_ACCOUNT endpoints leased, so sends, at once).
//
// Failures: one that says the endpoint is down or overloaded (no answer in time, no
// connection, a refused address, 5xx, 408, 429) pauses the whole endpoint (the circuit
// breaker, pauses doubling like the retries); a 4xx answer concerns that delivery only and
// holds back the later deliveries of its subject (per-subject order), not other subjects.
//
// At least once: a delivery is settled by the statement after the receiver's answer; a node
// that dies in between leaves it pending, and once the endpoint's lease ends another node
// (or the restarted one) sends it again with the same webhook-id, which receivers use to
// drop the second copy.
import { failureLine } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { WebhookSendError, type WebhookSender } from '../../../core/ports/webhooks.ts';
import type { ClaimedEndpoint, DueDelivery, LeasedTarget, WebhooksRepos } from './ports.ts';
import { errorFields, type CoreMetrics, type Logger } from '../../../core/ports/telemetry.ts';
import type { MailRepos, SendMail } from '../../mail/index.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import { signedHeaders } from './signature.ts';
import { nextAttemptAt, pausesEndpoint, retryDelaySeconds, shouldDisable } from './retry-schedule.ts';
import { webhookPayload } from './webhook-events.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export const WEBHOOK_RELAY = {
  /** Endpoint tasks one node runs at once (a pass leases no more than the free ones). */
  endpointsPerNode: 16,
  /** Deliveries read per statement. */
  deliveriesPerBatch: 50,
  /** A failure's detail in the log, at most. */
  maxErrorChars: 500,
};

export interface WebhookRelaySettings {
  /** The wait after a delivery's first failed attempt, doubling after each (WEBHOOKS_RETRY_SECONDS). */
  firstRetrySeconds: number;
  /** The sender's timeout (WEBHOOKS_TIMEOUT): the lease covers one send and its bookkeeping. */
  timeoutSeconds: number;
  /** WEBHOOKS_SENDS_PER_ACCOUNT: an account's endpoints leased at once across the nodes (each sends one delivery at a time). */
  sendsPerAccount: number;
  urnNamespace: string;
  publicUrl: string;
}

/** The lease an endpoint is held for around one send: twice the send timeout, and some margin. */
export const leaseSecondsFor = (timeoutSeconds: number) => 2 * timeoutSeconds + 5;

/**
 * How long one endpoint task may go on starting sends (then the endpoint is given back and
 * claimed again in its turn): one lease, so a task renews its lease at most once or twice.
 */
export const endpointBudgetSecondsFor = leaseSecondsFor;

/** Sends due deliveries, signed, to their endpoints (docs/webhooks.md). */
export interface WebhookRelay {
  /**
   * One pass: leases endpoints with due deliveries (as many as the node has free tasks) and
   * starts a task for each, without waiting for them; answers how many were leased.
   */
  dispatch(): Promise<number>;
  /** One pass, then waits for the tasks it started (tests drive the relay with it). */
  run(): Promise<number>;
  /** Starts no more sends and waits for the tasks under way (each ends after its send in hand). */
  stop(): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const WEBHOOK_RELAY_STORE = storeUseOf<Repos & AccountsRepos & MailRepos & WebhooksRepos>()({ reads: ['webhooks'], writes: ['accounts', 'events', 'outbox', 'users', 'webhooks'] });

export function createWebhookRelay(deps: {
  store: SliceOf<typeof WEBHOOK_RELAY_STORE, Repos & AccountsRepos & MailRepos & WebhooksRepos>;
  clock: Clock;
  sender: WebhookSender;
  sendMail: SendMail;
  settings: WebhookRelaySettings;
  logger: Logger;
  metrics: CoreMetrics;
}): WebhookRelay {
  const { clock, sender, sendMail, settings, logger, metrics } = deps;
  const store = sliceOf(deps.store, WEBHOOK_RELAY_STORE);
  const leaseMs = leaseSecondsFor(settings.timeoutSeconds) * 1000;
  const budgetMs = endpointBudgetSecondsFor(settings.timeoutSeconds) * 1000;

  /**
   * One attempt to the endpoint's current address, signed with its current secrets: 'sent'
   * (2xx, or dropped), 'refused' (a 4xx: this delivery's subject waits) or 'down' (the
   * endpoint is paused: the circuit breaker).
   */
  async function attempt(endpoint: ClaimedEndpoint, target: LeasedTarget, d: DueDelivery): Promise<'sent' | 'refused' | 'down'> {
    const fields = { webhookId: endpoint.id, accountId: endpoint.accountId, deliveryId: d.id, attempt: d.attempts + 1 };
    const payload = webhookPayload(d.event, settings.urnNamespace);
    if (!payload) {
      // Only deliverable events are fanned out; a type made undeliverable since is dropped, not sent.
      await store.repos.webhooks.settle(d.id, d.attempts, { state: 'failed', status: null, error: 'the event type is no longer delivered' }, clock.now());
      return 'sent';
    }
    const body = JSON.stringify(payload);
    const now = clock.now();
    const secrets = [target.secret];
    if (target.previousSecret && target.previousSecretUntil && target.previousSecretUntil > now) secrets.push(target.previousSecret);
    const headers = { 'content-type': 'application/json', ...signedHeaders(secrets, d.id, Math.floor(now.getTime() / 1000), body) };
    let status: number | null = null;
    let error: string;
    let detail: string | undefined;
    let down: boolean;
    try {
      status = (await sender.send({ url: target.url, headers, body })).status;
      if (status >= 200 && status < 300) {
        metrics.webhookDelivered();
        if (!(await store.repos.webhooks.settle(d.id, d.attempts, { state: 'delivered', status, at: clock.now() }, clock.now()))) {
          logger.warn(fields, 'webhook relay: delivered, but the delivery had moved on (replayed or deleted)');
        }
        endpoint.breakerFailures = 0;
        return 'sent';
      }
      error = `HTTP ${status}`;
      down = pausesEndpoint(status);
    } catch (e) {
      if (!(e instanceof WebhookSendError)) throw e;
      // The owner sees the class only (timeout, connection-failed, address-refused…): the
      // details (addresses, the DNS answer, the error text) go to the node's log.
      error = e.reason;
      detail = failureLine(e.message, WEBHOOK_RELAY.maxErrorChars);
      down = true;
    }
    const nowMs = clock.nowMs();
    const retryAt = nextAttemptAt(d.attempts + 1, nowMs, d.retryUntil, settings.firstRetrySeconds);
    // The breaker: the endpoint as a whole waits as a delivery would after as many failures in a row.
    const pauseUntil = down ? new Date(nowMs + retryDelaySeconds(endpoint.breakerFailures + 1, settings.firstRetrySeconds) * 1000) : undefined;
    if (down) endpoint.breakerFailures++;
    metrics.webhookFailed(retryAt === null);
    await store.repos.webhooks.settle(
      d.id, d.attempts, retryAt ? { state: 'pending', status, error, retryAt, pauseUntil } : { state: 'failed', status, error, pauseUntil }, clock.now(),
    );
    logger.warn(
      { ...fields, error, ...(detail ? { detail } : {}), ...(pauseUntil ? { pausedUntil: pauseUntil.toISOString() } : {}) },
      retryAt ? 'webhook relay: attempt failed; retrying later' : 'webhook relay: delivery failed for good',
    );
    return down ? 'down' : 'refused';
  }

  /** The mail to the account's owner and administrators when their endpoint is disabled. */
  async function tellAdministrators(repos: Pick<Repos & AccountsRepos & MailRepos, 'accounts' | 'outbox' | 'users'>, endpoint: ClaimedEndpoint): Promise<void> {
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
      if (!(await repos.webhooks.disable(endpoint.id, 'failing', now))) return false;
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

  /** The tasks under way on this node, one per leased endpoint. */
  const tasks = new Set<Promise<void>>();
  let stopping = false;

  /**
   * Sends the endpoint's due deliveries while it holds the lease, within its time budget;
   * stops at the first failure that pauses the endpoint.
   */
  async function relayEndpoint(endpoint: ClaimedEndpoint): Promise<void> {
    let heldUntil = endpoint.leaseUntil;
    let failingSince = endpoint.failingSince;
    const until = clock.nowMs() + budgetMs;
    const heldBack = new Set<string>();
    try {
      for (;;) {
        const due = await store.repos.webhooks.dueDeliveries(endpoint.id, clock.now(), WEBHOOK_RELAY.deliveriesPerBatch);
        const sendable = due.filter((d) => !heldBack.has(d.subject));
        for (const d of sendable) {
          if (heldBack.has(d.subject)) continue;
          // Out of time: the endpoint goes back to the claims, behind the others.
          if (stopping || clock.nowMs() >= until) return;
          // The lease must outlast this send: renewed once less than half of it is left.
          if (heldUntil.getTime() - clock.nowMs() < leaseMs / 2) {
            const renewed = new Date(clock.nowMs() + leaseMs);
            if (!(await store.repos.webhooks.renewLease(endpoint.id, heldUntil, renewed))) return; // disabled, deleted, or lease lost
            heldUntil = renewed;
          }
          const target = await store.repos.webhooks.leasedTarget(endpoint.id, heldUntil);
          if (!target) return; // disabled, deleted, or lease lost
          const outcome = await attempt(endpoint, target, d);
          if (outcome === 'sent') {
            failingSince = null;
            continue;
          }
          failingSince ??= clock.now();
          if (shouldDisable(failingSince, clock.nowMs())) {
            await disable(endpoint);
            return;
          }
          if (outcome === 'down') return; // paused as a whole: the claims skip it until the pause ends
          heldBack.add(d.subject);
        }
        if (due.length < WEBHOOK_RELAY.deliveriesPerBatch || sendable.length === 0) return;
      }
    } finally {
      await store.repos.webhooks.releaseLease(endpoint.id, heldUntil);
    }
  }

  /** Starts a task for each endpoint, tracked until it ends; answers the tasks. */
  function start(endpoints: ClaimedEndpoint[]): Promise<void>[] {
    return endpoints.map((e) => {
      // A copy: its breaker count follows the task's attempts.
      const task = relayEndpoint({ ...e })
        .catch((err: unknown) => {
          // The lease brings the endpoint back; only the bookkeeping failed (the database).
          logger.error({ webhookId: e.id, ...errorFields(err) }, 'webhook relay: an endpoint task failed; retried after its lease');
        })
        .finally(() => tasks.delete(task));
      tasks.add(task);
      return task;
    });
  }

  async function claim(): Promise<ClaimedEndpoint[]> {
    const free = WEBHOOK_RELAY.endpointsPerNode - tasks.size;
    if (stopping || free <= 0) return [];
    const now = clock.nowMs();
    return store.repos.webhooks.claimEndpoints(new Date(now), new Date(now + leaseMs), free, settings.sendsPerAccount);
  }

  return {
    async dispatch() {
      return start(await claim()).length;
    },
    async run() {
      const started = start(await claim());
      await Promise.all(started);
      return started.length;
    },
    async stop() {
      stopping = true;
      await Promise.all(tasks);
    },
  };
}


/** Every node's periodic pass over the due deliveries (one node per endpoint: the lease). */
export function webhookRelayPasses(relay: WebhookRelay, intervalSeconds: number): PeriodicTask {
  return {
    name: 'webhook-relay', everySeconds: intervalSeconds, atStart: true, run: () => relay.dispatch(),
    failure: { level: 'error', message: `webhook relay pass failed; next pass in ${intervalSeconds} s` },
  };
}
