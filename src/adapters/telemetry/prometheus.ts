// GET /metrics: one prom-client registry per composed service (tests compose many). The
// core's counters (CoreMetrics), the HTTP counters (src/http/metrics.ts), and gauges read
// at each scrape: the database pool, the job queue and the outbox (by relay state).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Sql } from '../postgres/sql.ts';
import type { DeadlineObserver, DeadlineSql } from '../postgres/deadlines.ts';
import { opsStats } from '../postgres/repos/ops-stats.ts';
import { errorFields, type CoreMetrics, type Logger } from '../../core/ports/telemetry.ts';
import type { ListenerState } from '../../core/ports/events.ts';
import type { CacheStats } from '../../core/cache/lru.ts';
import { createRequestSeries } from './request-series.ts';

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** SQLSTATE class of a database error; 'other' when it has none (e.g. the server could not be reached). */
function errorClass(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code.slice(0, 2) : 'other';
}

/** The Prometheus registry of this process and the CoreMetrics the core writes to. */
export interface Metrics {
  /** The prom-client registry behind GET /metrics. */
  registry: Registry<'text/plain; version=0.0.4; charset=utf-8'>;
  /** What the core writes to (ports/telemetry.ts). */
  core: CoreMetrics;
  /** Counts a failed database query (instrumentSql calls it). */
  queryError(e: unknown): void;
  /** The database deadlines' waits and timeouts (deadlines.ts). */
  database: DeadlineObserver;
  /** Records one answered request (http/metrics.ts). */
  request: (method: string, route: string, status: number, seconds: number) => void;
  /** The exposition text. */
  text(): Promise<string>;
  /** Adds the series of the node's LISTEN connection (compose.ts, when the database has one). */
  watchListener(read: () => ListenerState | null): void;
  /** Adds the series of the node's caches, read at each scrape (compose.ts: its CacheRegistry). */
  watchCaches(read: () => readonly CacheStats[]): void;
}

export function createMetrics(deps: { sql: () => Sql & Partial<Pick<DeadlineSql, 'load'>>; logger: Logger; processMetrics?: boolean }): Metrics {
  const registry = new Registry();
  // Process metrics (CPU, memory, event loop, GC) for the real process only: each call
  // starts its own observers.
  if (deps.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'scanbase_' });
  const stats = () => opsStats(deps.sql());
  /** A gauge read at scrape time fails alone (logged, no sample): the scrape still answers. */
  const scraped = async (what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (e) {
      deps.logger.warn({ metric: what, ...errorFields(e) }, 'reading a metric failed');
    }
  };

  const requests = createRequestSeries(
    {
      count: { name: 'scanbase_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' },
      duration: { name: 'scanbase_http_request_duration_seconds', help: 'HTTP request duration in seconds, by method, route pattern and status' },
    },
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  const queryErrors = new Counter({
    name: 'scanbase_db_query_errors_total',
    help: 'Database statements that failed, by SQLSTATE class (23: constraint, 40: serialization/deadlock, 08: connection)',
    labelNames: ['class'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'scanbase_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on embedded PGlite',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = deps.sql().poolStats?.();
      this.reset();
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  new Gauge({
    name: 'scanbase_db_oldest_transaction_seconds',
    help: 'Age of the oldest open database transaction of this node (0: none open)',
    registers: [registry],
    collect() {
      this.set((deps.sql().load?.().oldestTransactionMs ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'scanbase_db_connection_queue',
    help: 'Database calls of this node waiting for a connection (PGlite: its only one; PostgreSQL: the pool)',
    registers: [registry],
    collect() {
      this.set(deps.sql().load?.().waiting ?? 0);
    },
  });
  const connectionWait = new Histogram({
    name: 'scanbase_db_connection_wait_seconds',
    help: 'How long database calls that had to wait for a connection waited',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const connectionWaitTimeouts = new Counter({
    name: 'scanbase_db_connection_wait_timeouts_total',
    help: 'Database calls that gave up waiting for a connection (answered 503)',
    registers: [registry],
  });
  const transactionTimeouts = new Counter({
    name: 'scanbase_db_transaction_timeouts_total',
    help: 'Transactions rolled back for outliving DB_TRANSACTION_TIMEOUT, by the code that opened them',
    labelNames: ['transaction'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'scanbase_jobs',
    help: 'Background jobs queued or running, by kind and state',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await scraped('scanbase_jobs', async () => {
        for (const r of await stats().jobs()) this.set({ kind: r.kind, state: r.state }, r.count);
      });
    },
  });
  const jobFailures = new Counter({
    name: 'scanbase_job_failures_total',
    help: 'Failed job attempts by kind; final="true" when the job will not be retried',
    labelNames: ['kind', 'final'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'scanbase_outbox_messages',
    help: 'Mails in the outbox, whatever their relay state (kept until a reset)',
    registers: [registry],
    async collect() {
      this.reset();
      await scraped('scanbase_outbox_messages', async () => this.set((await stats().outbox()).reduce((n, r) => n + r.count, 0)));
    },
  });
  new Gauge({
    name: 'scanbase_mail_relay_messages',
    help: 'Outbox mails the SMTP relay has to send (pending) or gave up on (failed: see npm run admin -- outbox)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await scraped('scanbase_mail_relay_messages', async () => {
        const rows = await stats().outbox();
        for (const state of ['pending', 'failed']) this.set({ state }, rows.find((r) => r.state === state)?.count ?? 0);
      });
    },
  });
  const mailRelayed = new Counter({
    name: 'scanbase_mail_relayed_total',
    help: 'Mails the SMTP server accepted from this node',
    registers: [registry],
  });
  const mailRelayFailures = new Counter({
    name: 'scanbase_mail_relay_failures_total',
    help: 'Failed SMTP relay attempts of this node; final="true" when the mail will not be retried',
    labelNames: ['final'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'scanbase_webhook_deliveries_total',
    help: 'Webhook delivery attempts of this node: outcome="delivered" (2xx), "failed" (retried later) or "failed-final" (given up)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'scanbase_webhook_delivery_lag_seconds',
    help: "Per account: seconds its oldest due webhook delivery has waited (enabled endpoints; a paused endpoint's deliveries count); no sample when none waits",
    labelNames: ['account'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await scraped('scanbase_webhook_delivery_lag_seconds', async () => {
        for (const r of await stats().webhookLag()) this.set({ account: r.accountId }, Math.max(0, r.seconds));
      });
    },
  });
  const webhooksDisabled = new Counter({
    name: 'scanbase_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints this node disabled after a day of failed deliveries',
    registers: [registry],
  });
  const uploadBytes = new Counter({
    name: 'scanbase_upload_bytes_total',
    help: 'Bytes of uploads registered as files',
    registers: [registry],
  });
  const refreshLost = new Counter({
    name: 'scanbase_oauth_refresh_lost_total',
    help: 'Refresh-token grants whose conditional update consumed nothing (a concurrent refresh won the race, or the token was spent)',
    registers: [registry],
  });

  /** The LISTEN connection's series (PostgreSQL only: absent on embedded PGlite, which has no listener). */
  const watchListener = (read: () => ListenerState | null) => {
    new Gauge({
      name: 'scanbase_events_listener_up',
      help: "1 while this node's LISTEN connection listens and its heartbeat comes back, 0 while it is replaced (caches dropped once back)",
      registers: [registry],
      collect() {
        this.set(read()?.state === 'listening' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'scanbase_events_listener_reconnects',
      help: "Times this node's LISTEN connection was replaced since start (lost, or a heartbeat not back in time)",
      registers: [registry],
      collect() {
        this.set(read()?.reconnects ?? 0);
      },
    });
    new Gauge({
      name: 'scanbase_events_listener_heartbeat_age_seconds',
      help: "Seconds since this node's LISTEN connection last got its heartbeat back (every 10 s while healthy)",
      registers: [registry],
      collect() {
        const at = read()?.lastHeartbeatAt;
        this.reset();
        if (at) this.set((Date.now() - at.getTime()) / 1000);
      },
    });
  };

  /** Per cache (label `cache`: its name, docs/performance.md "Caches"): its size and weight now, its counts since start. */
  const watchCaches = (read: () => readonly CacheStats[]) => {
    const series: { name: string; help: string; type: 'gauge' | 'counter'; of: (s: CacheStats) => number }[] = [
      { name: 'scanbase_cache_entries', help: 'Entries a per-node cache keeps', type: 'gauge', of: (s) => s.size },
      { name: 'scanbase_cache_weight', help: "The total weight of a per-node cache's entries (entries, projects or bytes: its bound's unit)", type: 'gauge', of: (s) => s.weight },
      { name: 'scanbase_cache_weight_limit', help: "A per-node cache's bound on its weight (its setting)", type: 'gauge', of: (s) => s.maxWeight },
      { name: 'scanbase_cache_hits_total', help: 'Reads a per-node cache answered', type: 'counter', of: (s) => s.hits },
      { name: 'scanbase_cache_misses_total', help: 'Reads a per-node cache could not answer (absent or ended)', type: 'counter', of: (s) => s.misses },
      { name: 'scanbase_cache_evictions_total', help: "Entries a per-node cache dropped to stay within its bound", type: 'counter', of: (s) => s.evictions },
    ];
    for (const { name, help, type, of } of series) {
      const collect = function (this: Gauge<'cache'> | Counter<'cache'>) {
        this.reset();
        for (const s of read()) {
          if (this instanceof Gauge) this.set({ cache: s.name }, of(s));
          else this.inc({ cache: s.name }, of(s));
        }
      };
      if (type === 'gauge') new Gauge({ name, help, labelNames: ['cache'], registers: [registry], collect });
      else new Counter({ name, help, labelNames: ['cache'], registers: [registry], collect });
    }
  };

  const core: CoreMetrics = {
    jobFailed: (kind, final) => jobFailures.inc({ kind, final: String(final) }),
    refreshLost: () => refreshLost.inc(),
    mailRelayed: () => mailRelayed.inc(),
    mailRelayFailed: (final) => mailRelayFailures.inc({ final: String(final) }),
    webhookDelivered: () => webhookDeliveries.inc({ outcome: 'delivered' }),
    webhookFailed: (final) => webhookDeliveries.inc({ outcome: final ? 'failed-final' : 'failed' }),
    webhookDisabled: () => webhooksDisabled.inc(),
    uploadedBytes: (bytes) => {
      if (bytes > 0) uploadBytes.inc(bytes);
    },
  };
  return {
    registry,
    core,
    queryError: (e: unknown) => queryErrors.inc({ class: errorClass(e) }),
    database: {
      waited: (seconds) => connectionWait.observe(seconds),
      waitTimedOut: () => connectionWaitTimeouts.inc(),
      transactionTimedOut: (name) => transactionTimeouts.inc({ transaction: name.slice(0, 120) }),
    },
    request: requests.observe,
    /** The exposition text. */
    text: async () => `${await registry.metrics()}\n${requests.text()}`,
    watchListener,
    watchCaches,
  };
}
