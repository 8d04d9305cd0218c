// The kernel's settings and the value readers every setting is read with (CONTRACT §1:
// read once, at start, from the environment; a bad value stops the service with a message
// naming the variable). The modules' own settings are read by their contracts' readers
// (src/modules/<m>/settings.ts) with these value readers; src/config.ts assembles both into
// the node's Config. This file imports no module: the modules' settings files import it.
import net from 'node:net';
import path from 'node:path';
import { AZURE_CREDENTIALS_MISSING, accountCredentials } from './adapters/storage/azure-connection-string.ts';

export type DatabaseConfig =
  | { kind: 'pglite-file'; dir: string }
  | { kind: 'pglite-memory' }
  | { kind: 'postgres'; url: string };

/** Deadlines on the database (docs/decisions.md, "Deadlines on the database"). */
export interface DatabaseDeadlineConfig {
  /** DB_STATEMENT_TIMEOUT (s): one statement at most (PostgreSQL's statement_timeout; PGlite cannot stop a statement). */
  statementMs: number;
  /** DB_TRANSACTION_TIMEOUT (s): one transaction at most, then it is rolled back (503). */
  transactionMs: number;
  /** DB_WAIT_TIMEOUT (s): the longest wait for a connection (PGlite's only one, or the pool's), then 503. */
  waitMs: number;
}

/** The settings of the node itself, which no one module owns (module settings: src/config.ts Config). */
export interface KernelConfig {
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  databaseDeadlines: DatabaseDeadlineConfig;
  seedFile: string | undefined;
  operatorToken: string | undefined;
  sandbox: boolean;
  /** GC_COUNT_EXTERNAL_MEMORY: V8 counts Buffers' memory in the heap's global limit (src/main.ts). */
  gcCountExternalMemory: boolean;
  urnNamespace: string;
  logLevel: string;
  uploadTtlSeconds: number;
  uploadUrlTtlSeconds: number;
  /** STORAGE_QUOTA_BYTES: bytes stored per subscription, every category and live pending upload counted. */
  storageQuotaBytes: number;
  /** Whether STORAGE_QUOTA_BYTES was set (unset in production: a start-up warning, src/startup-report.ts). */
  storageQuotaSet: boolean;
  /** NODE_ENV=production (the image sets it): only start-up warnings depend on it. */
  production: boolean;
  /** Bulk invitations (docs/security.md "Invitations"): INVITE_* caps and the per-recipient mail throttle. */
  invitations: InvitationLimits;
  storageUrl: string | undefined;
  storagePublicUrl: string | undefined;
  /**
   * BLOB_PUBLIC_URL: the base of the local-disk store's signed /_blobs URLs, another origin
   * than PUBLIC_URL (recommended in production: user bytes never share the service's origin).
   */
  blobPublicUrl: string | undefined;
  /** AZURE_STORAGE_CONNECTION_STRING (required with STORAGE_URL=azure://…; never printed). */
  azureConnectionString: string | undefined;
  /**
   * Which peers may set X-Forwarded-For, in the form Fastify's `trustProxy` takes: false
   * trusts none (the client is the socket's peer), true every hop, a list those addresses
   * and CIDR ranges (and proxy-addr's names loopback, linklocal, uniquelocal), a hop count
   * as a function (Fastify refuses a bare number: it trusts nothing then).
   */
  trustProxy: TrustProxy;
  /** REFRESH_TOKEN_REUSE_DETECTION: a consumed refresh token presented again revokes its family (RFC 9700 §4.14.2). */
  refreshReuseDetection: boolean;
  /** HEADERS_TIMEOUT (s): the request line and headers must arrive within it (408). */
  headersTimeoutSeconds: number;
  /** BODY_TIMEOUT (s): a request body (not a verified /_blobs upload) must arrive entirely within it from the request's start (408, closed). */
  bodyTimeoutSeconds: number;
  /** IDLE_TIMEOUT (s): a connection with no traffic either way for this long is closed. */
  idleTimeoutSeconds: number;
  /** MAX_CONNECTIONS: open connections this node accepts; further ones are closed at once. */
  maxConnections: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: of those, what one client address (after TRUST_PROXY) may hold; 0 turns the cap off. */
  maxConnectionsPerAddress: number;
  /** METRICS_TOKEN: GET /metrics on the main port with this bearer token (never printed). */
  metricsToken: string | undefined;
  /** METRICS_PORT: GET /metrics without a token on its own listener (HOST, this port). */
  metricsPort: number | undefined;
  /** TASK_PERIODS (`name=seconds,…`): periodic tasks' periods overriding their own (tests, soak runs; docs/operations.md). */
  taskPeriods: Record<string, number>;
  /** SHUTDOWN_DRAIN_SECONDS: how long in-flight requests may take to finish after SIGTERM. */
  shutdownDrainSeconds: number;
  /** WORKZONE_CACHE_ENTRIES: work zones whose read model (roles, counts) a node keeps, least recently read out first; 0 turns it off. */
  workzoneCacheEntries: number;
  /** PROJECT_LIST_CACHE_PROJECTS: projects across the callers' lists a node keeps (as built, and serialised; a list counts its projects), least recently read out first; 0 turns it off. */
  projectListCacheProjects: number;
  // The other per-node caches' bounds (docs/performance.md "Caches"; each in GET /metrics by name).
  /** ACCESS_CACHE_ENTRIES: callers' account scopes (roles, groups, subscriptions) a node keeps (cache `account-access`). */
  accessCacheEntries: number;
  /** PROJECT_ACCESS_CACHE_ENTRIES: callers' project grants a node keeps (cache `project-access`). */
  projectAccessCacheEntries: number;
  /** ROLE_LIST_CACHE_ENTRIES: accounts whose role list a node keeps (cache `role-lists`). */
  roleListCacheEntries: number;
  /** TOKEN_CACHE_ENTRIES: verified access tokens a node keeps (cache `verified-tokens`, oldest out first). */
  tokenCacheEntries: number;
  /** KNOWN_USER_CACHE_ENTRIES: users whose existence and revocation point a node keeps (cache `known-users`, oldest out first). */
  knownUserCacheEntries: number;
  /** TAG_TEXT_CACHE_BYTES: bytes of whole tag lists as sent each API generation keeps (caches `api1-tag-text`, `api2-tag-text`); 0 keeps none. */
  tagTextCacheBytes: number;
  /** ACTIVITY_CACHE_ENTRIES: ids per kind (projects, users) whose last-access date a node remembers writing today. */
  activityCacheEntries: number;
  /** POINT_CLOUD_CACHE_ENTRIES: converted point clouds (file and cloud rows) a node keeps (cache `point-clouds`, oldest out first). */
  pointCloudCacheEntries: number;
}

export interface InvitationLimits {
  /** INVITE_MAX_PER_REQUEST: addresses one bulk-invite request may name. */
  maxPerRequest: number;
  /** INVITE_MAX_PER_ACCOUNT_DAY: new invitations one account may send in 24 hours (every route that invites). */
  maxPerAccountPerDay: number;
  /** INVITE_MAILS_PER_RECIPIENT_DAY: invitation mails one address receives in 24 hours, from every account together. */
  mailsPerRecipientPerDay: number;
}

/** Trusts the first `hops` addresses from the socket's peer backwards, whatever they are. */
export type TrustProxyHops = ((address: string, hop: number) => boolean) & { readonly hops: number };
export type TrustProxy = boolean | string[] | TrustProxyHops;

const trustHops = (hops: number): TrustProxyHops =>
  Object.assign((_address: string, hop: number) => hop < hops, { hops });

/** STORAGE_QUOTA_BYTES when unset: 100 GiB per subscription (docs/files.md "Capacities"). */
export const DEFAULT_STORAGE_QUOTA_BYTES = 100 * 1024 ** 3;

/** CONTRACT §10: the operator token has at least 24 characters. */
export const OPERATOR_TOKEN_MIN = 24;
/** The metrics token has at least 24 characters too (docs/operations.md). */
export const METRICS_TOKEN_MIN = 24;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The environment a setting is read from (process.env at start; tests pass their own). */
export type Env = Record<string, string | undefined>;

/** A setting's value as printed: never a password given in a URL's user-info. */
export const shownSetting = (value: string): string => value.replace(/(\/\/[^:/@\s]*:)[^@/\s]*@/, '$1***@');

/** Stops the start: `variable` has a value other than `expected` (the value shown without a URL's password). */
export function fail(variable: string, value: string, expected: string): never {
  throw new ConfigError(`${variable}=${JSON.stringify(shownSetting(value))} is invalid: expected ${expected}`);
}

/** An integer setting from `min` to `max`; unset or empty: `fallback`. */
export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) fail(name, raw, `an integer from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) fail(name, raw, `an integer from ${min} to ${max}`);
  return n;
}

function taskPeriods(env: Env): Record<string, number> {
  const raw = env.TASK_PERIODS;
  const periods: Record<string, number> = {};
  if (!raw) return periods;
  for (const item of raw.split(',')) {
    const m = /^\s*([a-z][a-z0-9-]*)=(\d+)\s*$/.exec(item);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 86_400) fail('TASK_PERIODS', raw, 'name=seconds pairs separated by commas, e.g. janitor=5,signing-keys=2 (1 to 86400 s)');
    periods[m[1]!] = Number(m[2]);
  }
  return periods;
}

/** A yes/no setting's "yes" spellings (any case); src/main.ts reads one with it before the configuration is loaded. */
export const isOn = (raw: string | undefined): boolean => raw !== undefined && ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());

/** An on/off setting (1/true/yes/on, 0/false/no/off); unset: off. */
export function bool(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  if (isOn(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  return fail(name, raw, '1/true/yes/on or 0/false/no/off');
}

/** An absolute http(s) URL without query or fragment, its trailing slashes dropped. */
export function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(name, raw, 'an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(name, raw, 'an absolute http(s) URL');
  if (url.search || url.hash) fail(name, raw, 'a URL without query or fragment');
  return url.toString().replace(/\/+$/, '');
}

const TRUST_PROXY_EXPECTED =
  'unset or 0/false (trust no proxy), a number of proxy hops (1 = the one proxy in front), true (every hop), ' +
  'or a comma-separated list of IP addresses and CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1; also loopback, linklocal, uniquelocal)';
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = net.isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const prefix = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function trustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '') return false;
  const lower = raw.toLowerCase();
  if (['false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 100) fail('TRUST_PROXY', raw, TRUST_PROXY_EXPECTED);
    return hops === 0 ? false : trustHops(hops);
  }
  const entries = raw.split(',').map((e) => e.trim());
  for (const e of entries) {
    if (!isAddressOrCidr(e)) {
      throw new ConfigError(
        `TRUST_PROXY=${JSON.stringify(raw)} is invalid: ${JSON.stringify(e)} is not an IP address or CIDR range; expected ${TRUST_PROXY_EXPECTED}`,
      );
    }
  }
  return entries;
}

/** A comma list of ports (1-65535), or `any`; unset: none. */
export function portList(env: Env, name: string): readonly number[] | 'any' {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return [];
  if (raw.toLowerCase() === 'any') return 'any';
  const ports = raw.split(',').map((p) => p.trim());
  if (!ports.every((p) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535)) fail(name, raw, 'a comma-separated list of ports (1-65535), or any');
  return [...new Set(ports.map(Number))];
}

/** A HOST that only this machine reaches: 127.0.0.0/8, ::1, localhost. */
export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || (net.isIPv4(host) && host.startsWith('127.'));

/** Reads the kernel's settings (src/config.ts loadConfig adds each module's). */
export function loadKernelConfig(env: Env): KernelConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = httpUrl('PUBLIC_URL', env.PUBLIC_URL || `http://localhost:${port}`);

  const dbRaw = env.DATABASE_URL;
  let database: DatabaseConfig;
  if (!dbRaw) database = { kind: 'pglite-file', dir: path.join(dataDir, 'pglite') };
  else if (dbRaw === 'memory:') database = { kind: 'pglite-memory' };
  else if (/^postgres(ql)?:\/\/[^\s]+$/.test(dbRaw)) {
    try {
      new URL(dbRaw);
    } catch {
      fail('DATABASE_URL', dbRaw, 'postgres://user@host:port/db or memory:');
    }
    database = { kind: 'postgres', url: dbRaw };
  } else fail('DATABASE_URL', dbRaw, 'postgres://user@host:port/db or memory:');

  const sandbox = bool(env, 'SANDBOX');
  // Acted on by src/main.ts before anything else runs; read here so that a bad value stops the start.
  const gcCountExternalMemory = bool(env, 'GC_COUNT_EXTERNAL_MEMORY');
  // CONTRACT §10: at least 24 characters (e.g. `openssl rand -base64 32`); never echoed.
  const operatorToken = env.OPERATOR_TOKEN || undefined;
  if (operatorToken !== undefined && operatorToken.length < OPERATOR_TOKEN_MIN) {
    throw new ConfigError(`OPERATOR_TOKEN is invalid: expected at least ${OPERATOR_TOKEN_MIN} characters`);
  }
  const urnNamespace = env.URN_NAMESPACE || 'svc';
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(urnNamespace)) {
    fail('URN_NAMESPACE', urnNamespace, 'lower-case letters, digits and hyphens (1-32 characters)');
  }
  const seedFile = env.SEED_FILE ? path.resolve(env.SEED_FILE) : undefined;
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    fail('LOG_LEVEL', logLevel, 'one of fatal, error, warn, info, debug, trace, silent');
  }
  const storageUrl = env.STORAGE_URL || undefined;
  if (storageUrl !== undefined && !/^(s3|azure):\/\/[^/?#\s]+([/?][^\s]*)?$/.test(storageUrl)) {
    fail('STORAGE_URL', storageUrl, 's3://BUCKET?endpoint=…&region=… or azure://CONTAINER');
  }
  const storagePublicUrl = env.STORAGE_PUBLIC_URL ? httpUrl('STORAGE_PUBLIC_URL', env.STORAGE_PUBLIC_URL) : undefined;
  if (storageUrl?.startsWith('s3://')) {
    const endpoint = new URL(storageUrl.replace(/^s3:/, 'http:')).searchParams.get('endpoint');
    if (endpoint !== null && !/^https?:\/\/[^\s/?#]+(\/[^\s]*)?$/.test(endpoint)) {
      fail('STORAGE_URL', storageUrl, 's3://BUCKET?endpoint=http(s)://host:port&region=…&forcePathStyle=true');
    }
  }
  const blobPublicUrl = env.BLOB_PUBLIC_URL ? httpUrl('BLOB_PUBLIC_URL', env.BLOB_PUBLIC_URL) : undefined;
  if (blobPublicUrl !== undefined && storageUrl !== undefined) {
    throw new ConfigError('BLOB_PUBLIC_URL is for the local-disk store only: unset it, or unset STORAGE_URL (S3 and Azure serve from their own origin; see STORAGE_PUBLIC_URL)');
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && (metricsToken.length < METRICS_TOKEN_MIN || /\s/.test(metricsToken))) {
    throw new ConfigError(`METRICS_TOKEN is invalid: expected at least ${METRICS_TOKEN_MIN} characters, no spaces`);
  }
  const metricsPort = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 1, 65535) : undefined;
  if (metricsPort !== undefined && metricsPort === port) fail('METRICS_PORT', String(metricsPort), 'a port other than PORT');
  const azureConnectionString = env.AZURE_STORAGE_CONNECTION_STRING || undefined;
  if (storageUrl?.startsWith('azure://') && !azureConnectionString) {
    throw new ConfigError('AZURE_STORAGE_CONNECTION_STRING is required with STORAGE_URL=azure://CONTAINER');
  }
  if (storageUrl?.startsWith('azure://') && !accountCredentials(azureConnectionString!)) throw new ConfigError(AZURE_CREDENTIALS_MISSING);

  return {
    host,
    port,
    publicUrl,
    dataDir,
    database,
    databaseDeadlines: {
      statementMs: integer(env, 'DB_STATEMENT_TIMEOUT', 30, 1, 3600) * 1000,
      transactionMs: integer(env, 'DB_TRANSACTION_TIMEOUT', 60, 1, 3600) * 1000,
      waitMs: integer(env, 'DB_WAIT_TIMEOUT', 10, 1, 600) * 1000,
    },
    seedFile,
    operatorToken,
    sandbox,
    gcCountExternalMemory,
    urnNamespace,
    logLevel,
    uploadTtlSeconds: integer(env, 'UPLOAD_TTL', 24 * 3600, 60, 365 * 24 * 3600),
    uploadUrlTtlSeconds: integer(env, 'UPLOAD_URL_TTL', 3600, 10, 7 * 24 * 3600),
    // 100 GiB by default; at most 2^53 - 1 (exact in a JavaScript number).
    storageQuotaBytes: integer(env, 'STORAGE_QUOTA_BYTES', DEFAULT_STORAGE_QUOTA_BYTES, 0, Number.MAX_SAFE_INTEGER),
    storageQuotaSet: (env.STORAGE_QUOTA_BYTES ?? '') !== '',
    production: env.NODE_ENV === 'production',
    invitations: {
      maxPerRequest: integer(env, 'INVITE_MAX_PER_REQUEST', 100, 1, 1000),
      maxPerAccountPerDay: integer(env, 'INVITE_MAX_PER_ACCOUNT_DAY', 500, 1, 1_000_000),
      mailsPerRecipientPerDay: integer(env, 'INVITE_MAILS_PER_RECIPIENT_DAY', 3, 1, 100),
    },
    storageUrl,
    storagePublicUrl,
    blobPublicUrl,
    azureConnectionString,
    trustProxy: trustProxy(env),
    refreshReuseDetection: bool(env, 'REFRESH_TOKEN_REUSE_DETECTION'),
    headersTimeoutSeconds: integer(env, 'HEADERS_TIMEOUT', 30, 1, 600),
    bodyTimeoutSeconds: integer(env, 'BODY_TIMEOUT', 120, 1, 3600),
    idleTimeoutSeconds: integer(env, 'IDLE_TIMEOUT', 300, 1, 3600),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1000, 1, 1_000_000),
    maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 100, 0, 1_000_000),
    metricsToken,
    metricsPort,
    taskPeriods: taskPeriods(env),
    shutdownDrainSeconds: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 25, 0, 3600),
    workzoneCacheEntries: integer(env, 'WORKZONE_CACHE_ENTRIES', 10_000, 0, 1_000_000),
    projectListCacheProjects: integer(env, 'PROJECT_LIST_CACHE_PROJECTS', 50_000, 0, 10_000_000),
    accessCacheEntries: integer(env, 'ACCESS_CACHE_ENTRIES', 50_000, 1, 10_000_000),
    projectAccessCacheEntries: integer(env, 'PROJECT_ACCESS_CACHE_ENTRIES', 50_000, 1, 10_000_000),
    roleListCacheEntries: integer(env, 'ROLE_LIST_CACHE_ENTRIES', 10_000, 1, 1_000_000),
    tokenCacheEntries: integer(env, 'TOKEN_CACHE_ENTRIES', 10_000, 1, 10_000_000),
    knownUserCacheEntries: integer(env, 'KNOWN_USER_CACHE_ENTRIES', 50_000, 1, 10_000_000),
    tagTextCacheBytes: integer(env, 'TAG_TEXT_CACHE_BYTES', 256 * 1024 * 1024, 0, 64 * 1024 * 1024 * 1024),
    activityCacheEntries: integer(env, 'ACTIVITY_CACHE_ENTRIES', 100_000, 1, 10_000_000),
    pointCloudCacheEntries: integer(env, 'POINT_CLOUD_CACHE_ENTRIES', 2000, 1, 1_000_000),
  };
}
