// Wires adapters into the core by hand: no container, no module-level side effects. It
// lists the adapters, then the feature modules (each imported through its index.ts,
// docs/architecture.md "Modules"); it holds no rule and does no I/O of its own: the seed
// file is read by src/seed-file.ts, the periodic tasks the modules declare run on
// src/background.ts.
import type { Config } from './config.ts';
import { openDatabase } from './adapters/postgres/open.ts';
import { migrate, readMigrations } from './adapters/postgres/migrate.ts';
import { instrumentSql } from './adapters/postgres/instrumented.ts';
import { createMetrics, type Metrics } from './adapters/telemetry/prometheus.ts';
import { errorFields, silentLogger, type Logger } from './core/ports/telemetry.ts';
import { createStore } from './adapters/postgres/store.ts';
import { openObjectStore } from './adapters/storage/open.ts';
import type { Sql } from './adapters/postgres/sql.ts';
import { OffsetClock } from './adapters/clock/offset-clock.ts';
import { randomIds } from './adapters/ids/random-ids.ts';
import { argon2Hasher } from './adapters/crypto/argon2-hasher.ts';
import { createEs256Signer } from './adapters/jwt/es256-signer.ts';
import { smtpTransport } from './adapters/mail/smtp.ts';
import { createScheduler } from './background.ts';
import { seedFileReader } from './seed-file.ts';
import { createAuthorizer, type Authorizer } from './core/permissions/authorizer.ts';
import { createSigningKeys, createTokenService, createWebSessions, type SigningKeys, type TokenService, type WebSessions } from './core/oauth/index.ts';
import {
  createAccountUsers, createInvitations, createPasswordResets, createSignIn, createUserProfiles,
  type AccountUsers, type Invitations, type PasswordResets, type SignIn, type UserProfiles,
} from './core/users/index.ts';
import {
  createOperator, createOperatorAuth, createSandboxClock, createSeeder, followSandboxClock, seedRolesAndGroups,
  type ApplySeed, type AuthenticateOperator, type Operator, type SandboxClock, type SeedDocument,
} from './core/operator/index.ts';
import { createJanitor, housekeeping, type Janitor } from './core/maintenance/index.ts';
import { createMailRelay, createSendMail, mailRelayPasses, type MailRelay, type SendMail } from './core/mail/index.ts';
import { createAccounts, type Accounts } from './core/accounts/index.ts';
import { createRoles, type Roles } from './core/roles/index.ts';
import { createGroups, type Groups } from './core/groups/index.ts';
import { createActivity, type Activity } from './core/activity/index.ts';
import {
  createProjectAccess, createProjectDetails, createProjects, createReach, ownedProjects,
  type ProjectAccess, type ProjectDetailsService, type Projects, type Reach,
} from './core/projects/index.ts';
import { createRateLimiter, rateLimitExchange, type RateLimiter } from './core/limits/index.ts';
import { createWorkzoneCopy, createWorkzones, COPY_JOB, type WorkzoneCopy, type Workzones } from './core/workzones/index.ts';
import { createMembers, type Members } from './core/members/index.ts';
import { createReports, type Reports } from './core/reports/index.ts';
import { createJobRunner, type JobHandler, type JobRunner } from './core/jobs/index.ts';
import { createDetectionJob, createTagLists, DETECT_JOB, TagTexts, type TagLists } from './core/tags/index.ts';
import { api1TagJson } from './http/api1/tag-json.ts';
import { api2TagJson } from './http/api2/tag-json.ts';
import { noDetections, type TagDetector } from './core/ports/tag-detector.ts';
import { createFiles, createUploadSweeper, uploadSweep, type Files, type UploadSweeper } from './core/files/index.ts';
import { createCrops, type Crops } from './core/crops/index.ts';
import { createConnectJobs, type ConnectJobs } from './core/connect/index.ts';
import { formatUrn } from './core/ids/urn.ts';
import { createWebhookRelay, createWebhooks, webhookRelayPasses, type WebhookRelay, type Webhooks } from './core/webhooks/index.ts';
import { httpWebhookSender } from './adapters/webhooks/http-sender.ts';
import type { Ids } from './core/ports/ids.ts';
import type { PasswordHasher, TokenSigner } from './core/ports/crypto.ts';
import type { Store } from './core/ports/repositories.ts';
import type { ObjectStore } from './core/ports/object-store.ts';
import { VERSION } from './version.ts';

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

/** The composed service: the adapters, then each module's use cases (src/http receives this, and reads use cases only). */
export interface Core {
  // Adapters and process facts.
  config: Config;
  version: string;
  logger: Logger;
  metrics: Metrics;
  startup: StartupFacts;
  /** The clock every use case reads; the sandbox clock moves it. */
  clock: OffsetClock;
  ids: Ids;
  /** The database (administration, tests); never read by src/http (eslint.config.js). */
  store: Store & { close(): Promise<void> };
  objectStore: ObjectStore;
  signer: TokenSigner;
  // oauth
  signingKeys: SigningKeys;
  tokens: TokenService;
  webSessions: WebSessions;
  // users
  signIn: SignIn;
  accountUsers: AccountUsers;
  invitations: Invitations;
  passwordResets: PasswordResets;
  userProfiles: UserProfiles;
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
  // maintenance
  janitor: Janitor;
  // permissions, accounts, roles, groups, activity, limits
  authorizer: Authorizer;
  accounts: Accounts;
  roles: Roles;
  groups: Groups;
  activity: Activity;
  rateLimiter: RateLimiter;
  // projects, work zones, members, reports
  projectAccess: ProjectAccess;
  reach: Reach;
  projects: Projects;
  projectDetails: ProjectDetailsService;
  workzones: Workzones;
  workzoneCopy: WorkzoneCopy;
  members: Members;
  reports: Reports;
  // files, crops, connect, tags, jobs
  files: Files;
  uploadSweeper: UploadSweeper;
  crops: Crops;
  connectJobs: ConnectJobs;
  tagLists: TagLists;
  jobRunner: JobRunner;
  webhooks: Webhooks;
  webhookRelay: WebhookRelay;
  /** GET /healthz: the database and storage answer (a failure is logged with its reason). */
  health(): Promise<boolean>;
  /** Shutdown has begun: not ready any more (GET /readyz 503). */
  beginDrain(): void;
  isDraining(): boolean;
  /** GET /readyz: not draining, database and storage reachable. */
  ready(): Promise<boolean>;
  /** Stops the periodic tasks and background jobs (after the pass or job in hand), then closes storage and the database (the PGlite lock is released). */
  close(): Promise<void>;
}

export async function compose(config: Config, opts: ComposeOptions = {}): Promise<Core> {
  // Adapters.
  const logger = opts.logger ?? silentLogger;
  const ownsSql = !opts.sql;
  const metrics = createMetrics({ sql: () => sql, logger, processMetrics: opts.processMetrics });
  const sql = instrumentSql(opts.sql ?? (await openDatabase(config.database, logger)), metrics.queryError);
  const migrations = readMigrations();
  const applied = await migrate(sql, migrations);
  const startup: StartupFacts = { migrationsApplied: applied.length, migrationsTotal: migrations.length };

  const clock = new OffsetClock();
  const ids = opts.ids ?? randomIds;
  const hasher = opts.hasher ?? argon2Hasher;
  const store = await createStore(sql, logger);
  // The local-disk store's URL key is created by migration 0008, shared by every node.
  const objectStore = await openObjectStore(config, {
    clock,
    async signingKey() {
      const key = await store.repos.settings.get<string>('storage.signing_key');
      if (!key) throw new Error('storage.signing_key is missing (migration 0008)');
      return Buffer.from(key, 'utf8');
    },
    logger,
  });
  const signer = await createEs256Signer(sql, { issuer: config.publicUrl, audience: config.publicUrl });
  const mailTransport = config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl, config.mail.from) : null;
  const loadSeedFile = seedFileReader(config.seedFile);
  const scheduler = createScheduler(logger);

  // oauth
  const tokens = createTokenService({
    store, clock, ids, signer, urnNamespace: config.urnNamespace, refreshReuseDetection: config.refreshReuseDetection,
    metrics: metrics.core,
  });
  const signingKeys = createSigningKeys({ store, clock, signer, logger });
  const webSessions = createWebSessions({ store, clock, ids });

  // mail: the outbox keeps a mail's secret (an invitation link) only while someone can read it
  // there: the operator API, or until the SMTP relay has sent it (docs/security.md, "Secrets and keys").
  const sendMail = createSendMail(ids, clock, {
    keepSecrets: config.operatorToken !== undefined,
    relay: config.mail.smtpUrl !== undefined,
  });
  // With SMTP_URL, every node relays the outbox's pending mails (one node per mail: src/core/mail/relay.ts).
  const mailRelay = mailTransport
    ? createMailRelay({
        store, clock, transport: mailTransport, domain: new URL(config.publicUrl).hostname,
        settings: config.mail, logger, metrics: metrics.core,
      })
    : null;

  // permissions, accounts, roles, groups, activity, limits
  const authorizer = createAuthorizer({ store });
  const accounts = createAccounts({ store, clock, authorizer, storageQuotaBytes: config.storageQuotaBytes });
  const roles = createRoles({ store, clock, ids, authorizer });
  const groups = createGroups({ store, clock, ids, authorizer });
  const activity = createActivity({
    store, clock, onError: (e) => logger.warn(errorFields(e), 'activity date write failed; the next call retries'),
  });
  const rateLimiter = createRateLimiter({ clock, repo: store.repos.rateLimits, ...config.rateLimits });

  // users
  const signIn = createSignIn({ store, clock, hasher });
  const accountUsers = createAccountUsers({
    store, clock, ids, authorizer, sendMail, publicUrl: config.publicUrl, ownedProjects,
  });
  const invitations = createInvitations({ store, clock, hasher });
  const passwordResets = createPasswordResets({ store, clock, ids, sendMail, publicUrl: config.publicUrl });
  const userProfiles = createUserProfiles({ store });

  // projects, work zones, members, reports
  const projectAccess = createProjectAccess({ store, clock, authorizer, activity });
  const projects = createProjects({ store, clock, ids, authorizer, access: projectAccess });
  const workzones = createWorkzones({ store, clock, ids, access: projectAccess, viewCacheEntries: config.workzoneCacheEntries });
  const members = createMembers({ store, clock, ids, access: projectAccess, sendMail, publicUrl: config.publicUrl });
  const reports = createReports({ store, authorizer });
  const projectDetails = createProjectDetails({ store, access: projectAccess });
  const reach = createReach({ access: projectAccess });

  // files, crops, connect
  const files = createFiles({
    store, clock, ids, access: projectAccess, objectStore, sandbox: config.sandbox,
    uploadTtlSeconds: config.uploadTtlSeconds, uploadUrlTtlSeconds: config.uploadUrlTtlSeconds, metrics: metrics.core,
    storageQuotaBytes: config.storageQuotaBytes, logger,
  });
  const crops = createCrops({ store, clock, ids, access: projectAccess, files });
  const connectJobs = createConnectJobs({ store, clock, ids, access: projectAccess, files, objectStore, publicUrl: config.publicUrl });
  const uploadSweeper = createUploadSweeper({ store, clock, objectStore });

  // jobs: each job kind's module hands its handler to the one runner of this node.
  const jobHandlers: Record<string, JobHandler> = {};
  const jobRunner = createJobRunner({ store, clock, ids, handlers: jobHandlers, logger, metrics: metrics.core });
  const workzoneCopy = createWorkzoneCopy({
    store, clock, ids, authorizer, access: projectAccess, jobs: jobRunner, sendMail, publicUrl: config.publicUrl,
    urn: (type, id) => formatUrn(config.urnNamespace, type, id),
    copyFiles: files.copyFiles,
  });
  jobHandlers[COPY_JOB] = workzoneCopy.handler;
  const tagTexts = new TagTexts([api1TagJson, api2TagJson(config.urnNamespace)]);
  const tagLists = createTagLists({ store, clock, ids, access: projectAccess, jobs: jobRunner, tagTexts });
  jobHandlers[DETECT_JOB] = createDetectionJob({ store, clock, ids, detector: opts.detector ?? noDetections, tagTexts });
  jobRunner.start();

  // operator, maintenance
  const applySeed = createSeeder({ store, clock, ids, hasher, extensions: [seedRolesAndGroups(ids, clock)] });
  // A reset deletes every blob too (CONTRACT §3), whichever store holds them.
  const operator = createOperator({
    store, clock, tokens, applySeed, loadSeedFile,
    onReset: [async () => objectStore.deleteAll?.()],
  });
  // Without OPERATOR_TOKEN there is no operator surface at all (every path answers 404).
  const authenticateOperator = config.operatorToken
    ? createOperatorAuth({ store, clock, expected: config.operatorToken })
    : null;
  const sandboxClock = createSandboxClock({ store, clock });
  const janitor = createJanitor({ store, clock, retention: config.retention });

  // The modules' periodic tasks on this node.
  if (config.sandbox) {
    await sandboxClock.load();
    scheduler.every(followSandboxClock(sandboxClock));
  }
  if (rateLimiter.enabled.user || rateLimiter.enabled.address) scheduler.every(rateLimitExchange(rateLimiter, config.rateLimits.syncSeconds));
  scheduler.every(housekeeping(janitor));
  scheduler.every(uploadSweep(uploadSweeper));
  if (mailRelay) scheduler.every(mailRelayPasses(mailRelay, config.mail.relayIntervalSeconds));

  // Webhooks (docs/webhooks.md): the endpoints' use cases, and every node's relay of due deliveries.
  const webhooks = createWebhooks({ store, clock, ids, authorizer, allowPrivateTargets: config.webhooks.allowPrivateTargets });
  const webhookRelay = createWebhookRelay({
    store, clock, sendMail, logger, metrics: metrics.core,
    sender: httpWebhookSender({ allowPrivateTargets: config.webhooks.allowPrivateTargets, timeoutMs: config.webhooks.timeoutSeconds * 1000 }),
    settings: { ...config.webhooks, urnNamespace: config.urnNamespace, publicUrl: config.publicUrl },
  });
  scheduler.every(webhookRelayPasses(webhookRelay, config.webhooks.relayIntervalSeconds));

  /** GET /healthz: the database and storage answer (a failure is logged with its reason). */
  const health = async (): Promise<boolean> => {
    try {
      await store.ping();
      await objectStore.ping?.();
      return true;
    } catch (e) {
      logger.warn(errorFields(e), 'health check failed');
      return false;
    }
  };
  // Draining (shutdown under way): /readyz answers 503 so that load balancers stop sending.
  let draining = false;

  return {
    config, version: VERSION, logger, metrics, startup, clock, ids, store, objectStore, signer,
    signingKeys, tokens, webSessions,
    signIn, accountUsers, invitations, passwordResets, userProfiles,
    sendMail, mailRelay,
    applySeed, loadSeedFile, sandboxClock, operator, authenticateOperator,
    janitor,
    authorizer, accounts, roles, groups, activity, rateLimiter,
    projectAccess, reach, projects, projectDetails, workzones, workzoneCopy, members, reports,
    files, uploadSweeper, crops, connectJobs, tagLists, jobRunner, webhooks, webhookRelay,
    health,
    beginDrain(): void {
      draining = true;
    },
    isDraining: () => draining,
    async ready(): Promise<boolean> {
      return !draining && (await health());
    },
    async close(): Promise<void> {
      await scheduler.stop(); // no new pass; the passes under way finish
      await jobRunner.stop();
      mailTransport?.close();
      await objectStore.close?.();
      await store.close();
      if (ownsSql) await sql.close();
    },
  };
}
