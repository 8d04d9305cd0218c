// Wires adapters into the core: no container, no module-level side effects. It lists the
// adapters, then builds the feature modules in the order of src/module-list.ts
// (docs/architecture.md "Adding a module"); the modules' job handlers, periodic tasks and
// seed extensions come from their descriptors, their repositories and invalidation rows
// reach the store through src/modules/registries.ts. It holds no rule and does no I/O
// of its own: the seed file is read by src/seed-file.ts, the tasks run on src/background.ts.
import { ConfigError, type Config } from './config.ts';
import { connectionsOf, openDatabase } from './adapters/postgres/open.ts';
import { withDeadlines } from './adapters/postgres/deadlines.ts';
import { migrate, readMigrations } from './adapters/postgres/migrate.ts';
import { instrumentSql } from './adapters/postgres/instrumented.ts';
import { createMetrics } from './adapters/telemetry/prometheus.ts';
import { silentLogger, type Logger } from './core/ports/telemetry.ts';
import { CacheRegistry } from './core/cache/registry.ts';
import { createStore } from './adapters/postgres/store.ts';
import { openObjectStore, storedSigningKey } from './adapters/storage/open.ts';
import type { Sql } from './adapters/postgres/sql.ts';
import { OffsetClock } from './adapters/clock/offset-clock.ts';
import { randomIds } from './adapters/ids/random-ids.ts';
import { argon2Hasher } from './adapters/crypto/argon2-hasher.ts';
import { createEs256Signer } from './adapters/jwt/es256-signer.ts';
import { smtpTransport } from './adapters/mail/smtp.ts';
import { logTransport } from './adapters/mail/log.ts';
import { createScheduler } from './background.ts';
import { createProbes } from './probes.ts';
import { seedFileReader } from './seed-file.ts';
import { Composition } from './core/modules.ts';
import { composeModules, STORE_MODULES, type ModuleRepos } from './modules/registries.ts';
import { noDetections, type TagDetector } from './modules/tags/index.ts';
import { httpWebhookSender } from './adapters/webhooks/http-sender.ts';
import type { Ids } from './core/ports/ids.ts';
import type { PasswordHasher, TokenSigner } from './core/ports/crypto.ts';
import type { Repos, Store } from './core/ports/repositories.ts';
import { VERSION } from './version.ts';
import type { HttpServices, StartupFacts } from './services.ts';
import { createSnapshots } from './adapters/snapshots/snapshots.ts';

export interface ComposeOptions {
  /** An already-open database (tests share one engine across apps). */
  sql?: Sql;
  ids?: Ids;
  hasher?: PasswordHasher;
  /** The AI detector behind tag-list detection (default: finds nothing). */
  detector?: TagDetector;
  /** Where background failures and start-up facts go (default: nowhere; main.ts passes the process logger). */
  logger?: Logger;
  /** Process metrics (CPU, memory, GC) in GET /metrics: the real process only. */
  processMetrics?: boolean;
}


/**
 * The composed service: the HTTP layer's face (src/services.ts) and what only the wiring,
 * administration and tests hold: the store, the signer, the object store and the id
 * generator.
 */
export interface Core extends HttpServices {
  ids: Ids;
  /** The database (administration, tests); never reachable from src/http (its face has no store). */
  store: Store<Repos & ModuleRepos> & { close(): Promise<void> };
  signer: TokenSigner;
}

export async function compose(config: Config, opts: ComposeOptions = {}): Promise<Core> {
  // Adapters.
  const logger = opts.logger ?? silentLogger;
  const ownsSql = !opts.sql;
  const metrics = createMetrics({ sql: () => sql, logger, processMetrics: opts.processMetrics });
  // Every per-node cache, by name: made by the modules (and the tag routes), reported in GET /metrics.
  const caches = new CacheRegistry();
  metrics.watchCaches(() => caches.stats());
  const engine = opts.sql ?? (await openDatabase(config.database, config.databaseDeadlines, logger));
  const sql = instrumentSql(
    withDeadlines(engine, { ...config.databaseDeadlines, permits: connectionsOf(engine), logger, observer: metrics.database }),
    metrics.queryError,
  );
  const migrations = readMigrations();
  const applied = await migrate(sql, migrations);
  const startup: StartupFacts = { migrationsApplied: applied.length, migrationsTotal: migrations.length };

  const clock = new OffsetClock();
  const ids = opts.ids ?? randomIds;
  const hasher = opts.hasher ?? argon2Hasher;
  const store = await createStore(sql, logger, STORE_MODULES);
  if (store.eventsListener?.()) metrics.watchListener(() => store.eventsListener!());
  const objectStore = await openObjectStore(config, { clock, signingKey: storedSigningKey(store.repos.settings), logger });
  const signer = await createEs256Signer(sql, { issuer: config.publicUrl, audience: config.publicUrl });
  // SMTP_URL: relayed over SMTP; MAIL_TO_LOG: printed to the log (the local mode); neither: the outbox keeps it.
  const mailTransport = config.mail.smtpUrl
    ? smtpTransport(config.mail.smtpUrl, config.mail.from)
    : config.mail.delivery === 'log' ? logTransport(logger) : null;
  const webhookSender = httpWebhookSender({
    allowPrivateTargets: config.webhooks.allowPrivateTargets, extraPorts: config.webhooks.targetPorts,
    timeoutMs: config.webhooks.timeoutSeconds * 1000,
  });

  // The feature modules, in the order of src/module-list.ts: each is built from the adapters
  // and the offers of the modules above it (a need nothing above supplies fails tsc here).
  const node = composeModules(Composition.of({
    config, logger, metrics, caches, clock, ids, hasher, store, objectStore, signer, mailTransport, webhookSender,
    loadSeedFile: seedFileReader(config.seedFile),
    // The snapshot engine (docs/sandbox.md "Snapshots"): named snapshots under SNAPSHOTS_DIR.
    snapshots: createSnapshots({ sql, store, objectStore, clock, dir: config.sandboxTools.snapshotsDir }),
    detector: opts.detector ?? noDetections,
  })).seal();

  const unknownTasks = Object.keys(config.taskPeriods).filter((name) => !node.tasks.some((t) => t.name === name));
  if (unknownTasks.length) {
    throw new ConfigError(`TASK_PERIODS names no task ${unknownTasks.join(', ')}: the tasks are ${node.tasks.map((t) => t.name).join(', ')}`);
  }

  // Before serving: each module's start (the job runner, the sandbox clock), then its periodic tasks.
  await node.start();
  const scheduler = createScheduler(logger, config.taskPeriods);
  for (const task of node.tasks) scheduler.every(task);

  const probes = createProbes({ store, objectStore, load: () => sql.load(), logger });

  return {
    ...node.use,
    version: VERSION, startup, modules: node.modules,
    ...probes,
    eventsListener: () => store.eventsListener?.() ?? null,
    async close(): Promise<void> {
      await scheduler.stop(); // no new pass; the passes under way finish
      await node.stop(); // each module's stop, last listed first (the job runner: after the job in hand)
      mailTransport?.close();
      await objectStore.close?.();
      await store.close();
      if (ownsSql) await engine.close();
    },
  };
}
