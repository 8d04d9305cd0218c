// Start-up failures that are the configuration's, told as one line naming the setting (as
// config.ts tells a bad value), instead of a stack: a port another process holds, a HOST
// that is not this machine's, a store or database the settings cannot reach. Pure: each
// function answers the ConfigError to print, or null when the failure is not one it knows
// (a bug, printed whole by serve.ts).
import { ConfigError, shownSetting } from './config.ts';

const codeOf = (e: unknown): string | undefined => {
  for (let c: unknown = e; c instanceof Error; c = c.cause) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
};

const HOST_EXPECTED = 'an address of this machine (127.0.0.1, ::1, 0.0.0.0 for every interface) or a name resolving to one';

/** A listener (`PORT` on `HOST`, or `METRICS_PORT`) that could not start. */
export function listenFailure(e: unknown, where: { host: string; port: number; portSetting: 'PORT' | 'METRICS_PORT' }): ConfigError | null {
  const { host, port, portSetting } = where;
  switch (codeOf(e)) {
    case 'EADDRINUSE':
      return new ConfigError(`${portSetting}=${port} is already in use on ${host}: another process listens there (stop it, or set ${portSetting} to a free port)`);
    case 'EACCES':
      return new ConfigError(`${portSetting}=${port} may not be opened on ${host} by this user: ports below 1024 need privileges (set ${portSetting} to 1024 or above)`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(`HOST=${JSON.stringify(host)} is not an address of this machine: expected ${HOST_EXPECTED}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return new ConfigError(`HOST=${JSON.stringify(host)} does not resolve: expected ${HOST_EXPECTED}`);
    default:
      return null;
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/** The S3 store could not be opened at start (STORAGE_URL=s3://…): no credentials, or no answer from its endpoint. */
export function s3Failure(e: unknown, storageUrl: string): ConfigError | null {
  const shown = `STORAGE_URL=${JSON.stringify(shownSetting(storageUrl))}`;
  if (e instanceof Error && e.name === 'CredentialsProviderError') {
    return new ConfigError(
      `${shown}: no AWS credentials were found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or run with an instance role)`,
    );
  }
  const code = codeOf(e);
  if (code && CONNECTION_CODES.has(code)) return new ConfigError(`${shown}: the store does not answer (${code}): check its endpoint`);
  return null;
}

/** The database could not be reached at start (DATABASE_URL=postgres://…). */
export function databaseFailure(e: unknown, databaseUrl: string): ConfigError | null {
  const shown = `DATABASE_URL=${JSON.stringify(shownSetting(databaseUrl))}`;
  const code = codeOf(e);
  if (code && CONNECTION_CODES.has(code)) return new ConfigError(`${shown}: the database server does not answer (${code})`);
  // PostgreSQL's own refusals: wrong password or role, no such database.
  if (code === '28P01' || code === '28000') return new ConfigError(`${shown}: the server refused the user or password`);
  if (code === '3D000') return new ConfigError(`${shown}: the server has no such database`);
  return null;
}
