// Wires adapters into the core by hand: no container, no module-level side effects.
import fs from 'node:fs/promises';
import type { Config } from './config.ts';
import { openDatabase } from './adapters/postgres/open.ts';
import { migrate, readMigrations } from './adapters/postgres/migrate.ts';
import { instrumentSql } from './adapters/postgres/instrumented.ts';
import { createMetrics } from './adapters/telemetry/prometheus.ts';
import { errorFields, silentLogger, type Logger } from './core/ports/telemetry.ts';
import { createStore } from './adapters/postgres/store.ts';
import { openObjectStore } from './adapters/storage/open.ts';
import type { Sql } from './adapters/postgres/sql.ts';
import { OffsetClock } from './adapters/clock/offset-clock.ts';
import { randomIds } from './adapters/ids/random-ids.ts';
import { argon2Hasher } from './adapters/crypto/argon2-hasher.ts';
import { createEs256Signer } from './adapters/jwt/es256-signer.ts';
import { createTokenService } from './core/oauth/token-service.ts';
import { createWebSessions } from './core/oauth/web-sessions.ts';
import { createSignIn } from './core/users/sign-in.ts';
import { createSeeder, type SeedDocument } from './core/operator/seed.ts';
import { createOperator } from './core/operator/operator.ts';
import { createOperatorAuth } from './core/operator/operator-auth.ts';
import { createSigningKeys } from './core/oauth/signing-keys.ts';
import { createSandboxClock } from './core/operator/sandbox-clock.ts';
import { createJanitor, JANITOR } from './core/maintenance/janitor.ts';
import { createSendMail } from './core/mail/send-mail.ts';
import { createMailRelay } from './core/mail/relay.ts';
import { smtpTransport } from './adapters/mail/smtp.ts';
import { createPasswordResets } from './core/users/password-resets.ts';
import { createAuthorizer } from './core/permissions/authorizer.ts';
import { createAccounts } from './core/accounts/accounts.ts';
import { createRoles } from './core/roles/roles.ts';
import { createGroups } from './core/groups/groups.ts';
import { createAccountUsers } from './core/users/account-users.ts';
import { createInvitations } from './core/users/invitations.ts';
import { seedRolesAndGroups } from './core/operator/seed-extensions.ts';
import { createActivity } from './core/activity/activity.ts';
import { createProjectAccess } from './core/projects/project-access.ts';
import { createReach } from './core/projects/reach.ts';
import { createRateLimiter } from './core/limits/rate-limits.ts';
import { createProjects } from './core/projects/projects.ts';
import { createWorkzones } from './core/workzones/workzones.ts';
import { createMembers } from './core/members/members.ts';
import { createReports } from './core/reports/reports.ts';
import { createProjectDetails } from './core/projects/project-details.ts';
import { createJobRunner, type JobHandler } from './core/jobs/job-runner.ts';
import { COPY_JOB, createWorkzoneCopy } from './core/workzones/copy.ts';
import { createTagLists, DETECT_JOB } from './core/tags/tag-lists.ts';
import { createDetectionJob } from './core/tags/detection.ts';
import { TagTexts } from './core/tags/tag-texts.ts';
import { noDetections, type TagDetector } from './core/ports/tag-detector.ts';
import { createFiles } from './core/files/files.ts';
import { createCrops } from './core/crops/crops.ts';
import { createUploadSweeper } from './core/files/upload-sweeper.ts';
import { createConnectJobs } from './core/connect/connect-jobs.ts';
import { formatUrn } from './core/ids/urn.ts';
import type { Ids } from './core/ports/ids.ts';
import type { PasswordHasher } from './core/ports/crypto.ts';
import { invalidInput } from './core/errors.ts';
import { VERSION } from './version.ts';
import { Value } from 'typebox/value';
import { SeedDocument as SeedDocumentSchema } from './http/operator/schemas.ts';

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

export async function compose(config: Config, opts: ComposeOptions = {}) {
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
  const tokens = createTokenService({
    store, clock, ids, signer, urnNamespace: config.urnNamespace, refreshReuseDetection: config.refreshReuseDetection,
    metrics: metrics.core,
  });
  const signingKeys = createSigningKeys({ store, clock, signer, logger });
  const webSessions = createWebSessions({ store, clock, ids });
  const signIn = createSignIn({ store, clock, hasher });
  // The outbox keeps a mail's secret (an invitation link) only while someone can read it
  // there: the operator API, or until the SMTP relay has sent it (docs/security.md, "Secrets and keys").
  const sendMail = createSendMail(ids, clock, {
    keepSecrets: config.operatorToken !== undefined,
    relay: config.mail.smtpUrl !== undefined,
  });
  // With SMTP_URL, every node relays the outbox's pending mails (one node per mail: src/core/mail/relay.ts).
  const mailTransport = config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl, config.mail.from) : null;
  const mailRelay = mailTransport
    ? createMailRelay({
        store, clock, transport: mailTransport, domain: new URL(config.publicUrl).hostname,
        settings: config.mail, logger, metrics: metrics.core,
      })
    : null;
  const applySeed = createSeeder({ store, clock, ids, hasher, extensions: [seedRolesAndGroups(ids, clock)] });
  const authorizer = createAuthorizer({ store });
  const accounts = createAccounts({ store, clock, authorizer, storageQuotaBytes: config.storageQuotaBytes });
  const roles = createRoles({ store, clock, ids, authorizer });
  const groups = createGroups({ store, clock, ids, authorizer });
  const activity = createActivity({
    store, clock, onError: (e) => logger.warn(errorFields(e), 'activity date write failed; the next call retries'),
  });
  const projectAccess = createProjectAccess({ store, clock, authorizer, activity });
  const projects = createProjects({ store, clock, ids, authorizer, access: projectAccess });
  const workzones = createWorkzones({ store, clock, ids, access: projectAccess });
  const members = createMembers({ store, clock, ids, access: projectAccess, sendMail, publicUrl: config.publicUrl });
  const reports = createReports({ store, authorizer });
  const files = createFiles({
    store, clock, ids, access: projectAccess, objectStore, sandbox: config.sandbox,
    uploadTtlSeconds: config.uploadTtlSeconds, uploadUrlTtlSeconds: config.uploadUrlTtlSeconds, metrics: metrics.core,
    storageQuotaBytes: config.storageQuotaBytes, logger,
  });
  const crops = createCrops({ store, clock, ids, access: projectAccess, files });
  const connectJobs = createConnectJobs({ store, clock, ids, access: projectAccess, files, objectStore, publicUrl: config.publicUrl });
  const uploadSweeper = createUploadSweeper({ store, clock, objectStore });
  const projectDetails = createProjectDetails({ store, access: projectAccess });
  const reach = createReach({ access: projectAccess });
  // Job kinds register their handlers with the one runner of this node.
  const jobHandlers: Record<string, JobHandler> = {};
  const jobRunner = createJobRunner({ store, clock, ids, handlers: jobHandlers, logger, metrics: metrics.core });
  const workzoneCopy = createWorkzoneCopy({
    store, clock, ids, authorizer, access: projectAccess, jobs: jobRunner, sendMail, publicUrl: config.publicUrl,
    urn: (type, id) => formatUrn(config.urnNamespace, type, id),
    copyFiles: files.copyFiles,
  });
  jobHandlers[COPY_JOB] = workzoneCopy.handler;
  const tagTexts = new TagTexts();
  const tagLists = createTagLists({ store, clock, ids, access: projectAccess, jobs: jobRunner, tagTexts });
  jobHandlers[DETECT_JOB] = createDetectionJob({ store, clock, ids, detector: opts.detector ?? noDetections, tagTexts });
  jobRunner.start();
  const accountUsers = createAccountUsers({
    store, clock, ids, authorizer, sendMail, publicUrl: config.publicUrl,
    ownedProjects: (repos, userId, accountId) => repos.projects.ownedBy(userId, accountId),
  });
  const invitations = createInvitations({ store, clock, hasher });
  const passwordResets = createPasswordResets({ store, clock, ids, sendMail, publicUrl: config.publicUrl });
  const sandboxClock = createSandboxClock({ store, clock });
  const janitor = createJanitor({ store, clock, retention: config.retention });

  // SEED_FILE is checked against the same schema as POST /_operator/seed; every failure names it.
  const loadSeedFile = async (): Promise<SeedDocument | null> => {
    if (!config.seedFile) return null;
    let doc: unknown;
    try {
      doc = JSON.parse(await fs.readFile(config.seedFile, 'utf8'));
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? 'not valid JSON';
      throw invalidInput(`SEED_FILE ${config.seedFile} cannot be read: ${why}`);
    }
    const first = Value.Errors(SeedDocumentSchema, doc)[0];
    if (first) {
      throw invalidInput(`SEED_FILE ${config.seedFile} is not a seed document: ${first.instancePath || '/'} ${first.message}`, {
        field: first.instancePath,
      });
    }
    return doc as SeedDocument;
  };
  // A reset deletes every blob too (CONTRACT §3), whichever store holds them.
  const operator = createOperator({
    store, tokens, applySeed, loadSeedFile,
    onReset: [async () => objectStore.deleteAll?.()],
  });
  // Without OPERATOR_TOKEN there is no operator surface at all (every path answers 404).
  const authenticateOperator = config.operatorToken
    ? createOperatorAuth({ store, clock, expected: config.operatorToken })
    : null;

  const timers: NodeJS.Timeout[] = [];
  if (config.sandbox) {
    await sandboxClock.load();
    // Other nodes may move the shared clock: follow it.
    const t = setInterval(
      () => sandboxClock.load().catch((e: unknown) => logger.warn(errorFields(e), 'sandbox clock reload failed; retrying in 2 s')),
      2000,
    );
    t.unref();
    timers.push(t);
  }
  // API rate limits: buckets in memory, exchanged with the other nodes every few seconds.
  const rateLimiter = createRateLimiter({ clock, repo: store.repos.rateLimits, ...config.rateLimits });
  let rateLimitSync: Promise<void> = Promise.resolve();
  if (rateLimiter.enabled.user || rateLimiter.enabled.address) {
    const t = setInterval(() => {
      rateLimitSync = rateLimitSync
        .then(() => rateLimiter.sync())
        // The takes stay pending and go with the next exchange; until then this node limits alone.
        .catch((e: unknown) => logger.warn(errorFields(e), 'rate-limit exchange failed; its takes are kept for the next one'));
    }, config.rateLimits.syncSeconds * 1000);
    t.unref();
    timers.push(t);
  }
  // Housekeeping once at start, then every 10 minutes; one node of the cluster does each pass.
  let janitorPass: Promise<unknown> = Promise.resolve();
  const sweep = () =>
    (janitorPass = janitorPass
      .then(() => janitor.run({ ifDue: true }))
      .catch((e: unknown) => logger.error(errorFields(e), 'janitor pass failed; next pass in 10 minutes'))
      .then(() => uploadSweeper.run()) // unregistered uploads past UPLOAD_TTL (docs/files.md)
      .catch((e: unknown) => logger.error(errorFields(e), 'upload sweep failed; next pass in 10 minutes')));
  sweep();
  const janitorTimer = setInterval(sweep, JANITOR.intervalSeconds * 1000);
  janitorTimer.unref();
  timers.push(janitorTimer);

  let relayPass: Promise<unknown> = Promise.resolve();
  if (mailRelay) {
    // A pass still at work (a slow SMTP server) is not joined by another.
    let relaying = false;
    const relay = () => {
      if (relaying) return;
      relaying = true;
      relayPass = mailRelay
        .run()
        .catch((e: unknown) => logger.error(errorFields(e), `mail relay pass failed; next pass in ${config.mail.relayIntervalSeconds} s`))
        .finally(() => (relaying = false));
    };
    relay();
    const t = setInterval(relay, config.mail.relayIntervalSeconds * 1000);
    t.unref();
    timers.push(t);
  }

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
    config,
    version: VERSION,
    logger,
    metrics,
    startup,
    clock,
    ids,
    store,
    objectStore,
    signer,
    signingKeys,
    tokens,
    webSessions,
    signIn,
    sendMail,
    applySeed,
    loadSeedFile,
    sandboxClock,
    janitor,
    operator,
    authenticateOperator,
    authorizer,
    accounts,
    roles,
    groups,
    accountUsers,
    invitations,
    passwordResets,
    mailRelay,
    activity,
    projectAccess,
    reach,
    rateLimiter,
    projects,
    workzones,
    members,
    reports,
    projectDetails,
    files,
    crops,
    uploadSweeper,
    workzoneCopy,
    connectJobs,
    tagLists,
    tagTexts,
    jobRunner,
    health,
    /** Shutdown has begun: not ready any more (GET /readyz 503). */
    beginDrain(): void {
      draining = true;
    },
    isDraining: () => draining,
    /** GET /readyz: not draining, database and storage reachable. */
    async ready(): Promise<boolean> {
      return !draining && (await health());
    },
    /** Stops timers and background jobs (after the job in hand), then closes storage and the database (the PGlite lock is released). */
    async close(): Promise<void> {
      for (const t of timers) clearInterval(t);
      await jobRunner.stop();
      await janitorPass;
      await rateLimitSync;
      await relayPass;
      mailTransport?.close();
      await objectStore.close?.();
      await store.close();
      if (ownsSql) await sql.close();
    },
  };
}

export type Core = Awaited<ReturnType<typeof compose>>;
