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
import { createMetrics, type Metrics } from './adapters/telemetry/prometheus.ts';
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
import { createProbes, type Probes } from './probes.ts';
import { seedFileReader } from './seed-file.ts';
import { Composition, type Sealed } from './core/modules.ts';
import { composeModules, STORE_MODULES, type ContractOffers, type ModuleRepos } from './modules/registries.ts';
import type { Authorizer } from './core/permissions/authorizer.ts';
import type { Revocation, SigningKeys, TokenService, WebSessions } from './core/oauth/index.ts';
import type { AccountInvitations, AccountUsers, Invitations, PasswordResets, SignIn, UserProfiles } from './core/users/index.ts';
import type { ApplySeed, AuthenticateOperator, Operator, SandboxClock, SeedDocument } from './core/operator/index.ts';
import type { MailRelay, SendMail } from './core/mail/index.ts';
import type { Accounts } from './core/accounts/index.ts';
import type { Groups } from './modules/groups/index.ts';
import type { ProjectAccess, ProjectDetailsService, Projects, Reach } from './core/projects/index.ts';
import type { WorkzoneCopy, Workzones } from './core/workzones/index.ts';
import type { Members } from './core/members/index.ts';
import type { JobRunner } from './modules/jobs/index.ts';
import { noDetections, type TagDetector, type TagLists } from './modules/tags/index.ts';
import type { Files, UploadSweeper } from './core/files/index.ts';
import type { WebhookOwnerNotices, WebhookRelay, Webhooks } from './core/webhooks/index.ts';
import { httpWebhookSender } from './adapters/webhooks/http-sender.ts';
import type { Ids } from './core/ports/ids.ts';
import type { PasswordHasher, TokenSigner } from './core/ports/crypto.ts';
import type { Repos, Store } from './core/ports/repositories.ts';
import type { ListenerState } from './core/ports/events.ts';
import type { ObjectStore } from './core/ports/object-store.ts';
import { VERSION } from './version.ts';
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

/** What start-up did, for its log lines (src/main.ts). */
export interface StartupFacts {
  migrationsApplied: number;
  migrationsTotal: number;
}

/**
 * The composed service: the adapters, then each module's use cases (src/http receives this,
 * and reads use cases only). The modules under src/modules add their offers through
 * ContractOffers (src/modules/registries.ts); src/core's modules are listed here.
 */
export interface Core extends ContractOffers {
  // Adapters and process facts.
  config: Config;
  version: string;
  logger: Logger;
  metrics: Metrics;
  /** The node's caches by name (GET /metrics); the tag routes make theirs here. */
  caches: CacheRegistry;
  startup: StartupFacts;
  /** The clock every use case reads; the sandbox clock moves it. */
  clock: OffsetClock;
  ids: Ids;
  /** The database (administration, tests); never read by src/http (eslint.config.js). */
  store: Store<Repos & ModuleRepos> & { close(): Promise<void> };
  objectStore: ObjectStore;
  signer: TokenSigner;
  // oauth
  signingKeys: SigningKeys;
  tokens: TokenService;
  webSessions: WebSessions;
  /** "Sign out everywhere": every session of a user ends (docs/security.md "Evicting every session"). */
  revocation: Revocation;
  // users
  signIn: SignIn;
  accountUsers: AccountUsers;
  invitations: Invitations;
  passwordResets: PasswordResets;
  userProfiles: UserProfiles;
  /** The signed-in user's own pending invitations to accounts (accept, decline). */
  accountInvitations: AccountInvitations;
  // mail
  sendMail: SendMail;
  /** The SMTP relay; null without SMTP_URL. */
  mailRelay: MailRelay | null;
  // operator
  applySeed: ApplySeed;
  /** Reads SEED_FILE afresh (null when unset); throws a 400-kind error naming the file. */
  loadSeedFile(): Promise<SeedDocument | null>;
  sandboxClock: SandboxClock;
  operator: Operator;
  /** The operator token's check; null without OPERATOR_TOKEN (every /_operator path answers 404). */
  authenticateOperator: AuthenticateOperator | null;
  // permissions, accounts, roles, groups, activity, limits
  authorizer: Authorizer;
  accounts: Accounts;
  groups: Groups;
  // projects, work zones, members, reports
  projectAccess: ProjectAccess;
  reach: Reach;
  projects: Projects;
  projectDetails: ProjectDetailsService;
  workzones: Workzones;
  workzoneCopy: WorkzoneCopy;
  members: Members;
  // files, crops, connect, tags, jobs
  files: Files;
  uploadSweeper: UploadSweeper;
  tagLists: TagLists;
  jobRunner: JobRunner;
  webhooks: Webhooks;
  webhookRelay: WebhookRelay;
  webhookOwnerNotices: WebhookOwnerNotices;
  /** The feature modules built, in order, with what each declared (docs/architecture.md "Module descriptors"). */
  modules: Sealed<unknown>['modules'];
  /** GET /healthz and GET /readyz, and the drain (src/probes.ts). */
  health: Probes['health'];
  ready: Probes['ready'];
  beginDrain(): void;
  isDraining(): boolean;
  /** How this node hears other nodes' events (GET /readyz, GET /metrics); null on the embedded database. */
  eventsListener(): ListenerState | null;
  /** Stops the periodic tasks and background jobs (after the pass or job in hand), then closes storage and the database (the PGlite lock is released). */
  close(): Promise<void>;
}

/**
 * What src/http sees of the composed service: every use case, the settings and telemetry,
 * never the store, the signer, the object store or the id generator (docs/architecture.md
 * "The HTTP layer's face"). Route files are typed by it, or narrower, so that reaching the
 * store from src/http fails to compile (test/types/http-face.ts); only src/http/app.ts takes
 * the whole Core (the local-disk blob routes serve the object store's files).
 */
export type Services = Omit<Core, 'store' | 'signer' | 'objectStore' | 'ids'>;

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
