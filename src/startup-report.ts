// What start-up logs, one line per fact (docs/operations.md): enough for an operator to see
// which database, storage, URL and switches this process runs with. No secret is ever in
// it: the database URL loses its password, the storage URL its query string, tokens are
// only "on"/"off".
import { type Config, DEFAULT_STORAGE_QUOTA_BYTES } from './config.ts';
import type { SeedResult } from './modules/operator/index.ts';

export interface StartupReport {
  version: string;
  nodeVersion: string;
  migrationsApplied: number;
  migrationsTotal: number;
  /** null: no SEED_FILE. */
  seed: { file: string; result: SeedResult } | null;
}

/** The database as logged: its engine and where it is, never its password. */
export function describeDatabase(config: Config): Record<string, unknown> {
  const db = config.database;
  if (db.kind === 'pglite-file') return { engine: 'pglite', dir: db.dir };
  if (db.kind === 'pglite-memory') return { engine: 'pglite', dir: 'memory (nothing is kept)' };
  const url = new URL(db.url);
  return {
    engine: 'postgresql',
    host: url.hostname,
    port: url.port ? Number(url.port) : 5432,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined,
    user: url.username ? decodeURIComponent(url.username) : undefined,
  };
}

/** The object store as logged: its kind and bucket or container, never its credentials. */
export function describeStorage(config: Config): Record<string, unknown> {
  const url = config.storageUrl;
  if (!url) {
    const memory = config.database.kind === 'pglite-memory';
    return { kind: 'local-disk', dir: memory ? 'a temporary directory (removed at stop)' : `${config.dataDir}/blobs` };
  }
  const parsed = new URL(url.replace(/^(s3|azure):/, 'http:'));
  if (url.startsWith('s3://')) {
    return { kind: 's3', bucket: parsed.hostname, endpoint: parsed.searchParams.get('endpoint') ?? undefined };
  }
  return { kind: 'azure', container: parsed.hostname };
}

const onOff = (b: boolean) => (b ? 'on' : 'off');

/** The SMTP relay as logged: on with the server's host and port (never its user or password), or off and where mail goes instead. */
export function describeMail(config: Config): Record<string, unknown> {
  if (!config.mail.smtpUrl) return { smtp: 'off', delivery: config.mail.delivery };
  const url = new URL(config.mail.smtpUrl);
  const secure = url.protocol === 'smtps:';
  return { smtp: 'on', host: url.hostname, port: url.port ? Number(url.port) : secure ? 465 : 587, secure, from: config.mail.from };
}

/**
 * The mail line. Without SMTP it says, where a newcomer looks first, that invitations and
 * "Forgot password?" links reach nobody, and how to read them (a warning, so that it shows
 * at LOG_LEVEL=warn too).
 */
export const MAIL_OFF_LINE =
  'mail: SMTP off: NO e-mail is sent (invitations, password resets). Read the links with `npm run admin -- outbox`, ' +
  'set SMTP_URL to send them, or MAIL_TO_LOG=1 to print them here (loopback HOST only)';

function mailLine(config: Config): StartupLine {
  const mail = describeMail(config);
  if (config.mail.delivery === 'outbox') return [{ mail }, MAIL_OFF_LINE, 'warn'];
  if (config.mail.delivery === 'log') return [{ mail }, 'mail: SMTP off, MAIL_TO_LOG on: every mail (its links included) is printed to this log, none is sent'];
  return [{ mail }, `mail: SMTP on, ${String(mail.host)}:${String(mail.port)} from ${config.mail.from}`];
}

/** One start-up line: its fields, its message, and its level when not info. */
export type StartupLine = [Record<string, unknown>, string, 'warn'?];

/** The start-up lines, each logged at info unless it names another level. */
export function startupLines(config: Config, r: StartupReport): StartupLine[] {
  const db = describeDatabase(config);
  const storage = describeStorage(config);
  const seed = r.seed;
  return [
    [{ version: r.version }, `scanbase ${r.version}`],
    [{ node: r.nodeVersion }, `node ${r.nodeVersion}`],
    [{ database: db }, `database: ${db.engine} ${db.engine === 'postgresql' ? `${String(db.host)}:${String(db.port)}` : String(db.dir)}`],
    [{ storage }, `storage: ${String(storage.kind)} ${String(storage.bucket ?? storage.container ?? storage.dir)}`],
    [{ dataDir: config.dataDir }, `data directory: ${config.dataDir}`],
    [{ publicUrl: config.publicUrl }, `public URL: ${config.publicUrl}`],
    [{ operatorApi: config.operatorToken !== undefined }, `operator API: ${onOff(config.operatorToken !== undefined)}`],
    [{ sandbox: config.sandbox }, `sandbox: ${onOff(config.sandbox)}`],
    [
      { migrationsApplied: r.migrationsApplied, migrationsTotal: r.migrationsTotal },
      `migrations: ${r.migrationsApplied} applied now, ${r.migrationsTotal} in total`,
    ],
    seed
      ? [
          { seed: { file: seed.file, users: seed.result.users.length, accounts: seed.result.accounts.length } },
          `seed: applied ${seed.file} (${seed.result.users.length} users, ${seed.result.accounts.length} accounts)`,
        ]
      : [{ seed: null }, 'seed: none (no SEED_FILE)'],
    mailLine(config),
    [
      { metrics: { token: config.metricsToken !== undefined, port: config.metricsPort } },
      `metrics: ${[config.metricsToken ? 'GET /metrics with METRICS_TOKEN' : '', config.metricsPort ? `port ${config.metricsPort}` : ''].filter(Boolean).join(', ') || 'off'}`,
    ],
    [
      { webhooks: { allowPrivateTargets: config.webhooks.allowPrivateTargets, timeoutSeconds: config.webhooks.timeoutSeconds } },
      `webhooks: ${config.webhooks.allowPrivateTargets ? 'private targets ALLOWED (WEBHOOKS_ALLOW_PRIVATE_TARGETS)' : 'public targets only'}, ${config.webhooks.timeoutSeconds} s timeout`,
    ],
    ...startupWarnings(config),
  ];
}

const GIB = 1024 ** 3;

/**
 * The start-up warnings (the last start-up lines, at warn): settings a production deployment
 * (NODE_ENV=production, as the image runs) should not leave to their defaults. Today: the
 * storage quota (STORAGE_QUOTA_BYTES), which bounds what one subscription can put on the
 * store's disk or bill (docs/security.md "Unbounded stored bytes").
 */
export function startupWarnings(config: Config): StartupLine[] {
  const out: StartupLine[] = [];
  if (config.production && !config.storageQuotaSet) {
    out.push([
      { setting: 'STORAGE_QUOTA_BYTES', storageQuotaBytes: config.storageQuotaBytes },
      `STORAGE_QUOTA_BYTES is unset: each subscription may store up to the default ${DEFAULT_STORAGE_QUOTA_BYTES / GIB} GiB; ` +
        'set it to what your store and your subscriptions call for (docs/files.md "Capacities")',
      'warn',
    ]);
  }
  return out;
}
