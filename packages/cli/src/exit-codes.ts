// Exit codes by kind of failure (docs/cli.md, docs/decisions.md), so scripts can tell
// "sign in again" from "no such project" from "the network is down" without parsing text.
import { ScanbaseError, isConnectionFailure } from '@scanbase/sdk';

export const EXIT = {
  ok: 0,
  /** Anything else: a local file that cannot be read, a bug. */
  failure: 1,
  /** The command line is wrong (unknown command or option, missing value). */
  usage: 2,
  /** Not signed in, or the service refused the credentials (401, invalid_grant). */
  auth: 3,
  /** Signed in but not allowed (403). */
  forbidden: 4,
  /** What was named does not exist (404, 410). */
  notFound: 5,
  /** The service refused the input or the state (400, 409, 412, 413, 422). */
  refused: 6,
  /** The service is busy or failing after the retries (429, 5xx). */
  unavailable: 7,
  /** No answer at all (connection refused, reset, DNS), after the retries. */
  network: 8,
  /** Cancelled (Ctrl-C, SIGTERM): run the same command again to resume. */
  cancelled: 130,
} as const;

/** Usage errors found by the command itself (beyond what the argument parser checks). */
export class UsageError extends Error {}

/** Errors of the machine, not of the program: a file missing or unreadable, a full disk. Told in one line, no stack. */
const LOCAL_FAILURES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'already exists',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
};

/** How each account role is named to people. */
const ROLE_NAMES: Record<string, string> = { owner: 'the account owner', administrator: 'administrator', projectManager: 'project manager', projectLister: 'project lister' };

/** What the command prints on standard error for a failure: one line, except for a bug (the stack: exit 1). */
export function failureLine(e: unknown): string {
  if (e instanceof ScanbaseError) {
    const granted = Array.isArray(e.errorValues.grantedBy) && e.errorValues.grantedBy.length
      ? ` (granted by: ${(e.errorValues.grantedBy as string[]).map((r) => ROLE_NAMES[r] ?? r).join(', ')})`
      : '';
    // The HTTP status; none: the service did not answer (timeout, connection), or the failure
    // is the client's own finding (a cut answer, an MD5 that differs), which the message says.
    const status = e.status ? String(e.status) : e.errorCode === 'timeout' || e.errorCode === 'connection-failed' ? 'no answer' : null;
    return `scanbase: ${e.errorCode}${status ? ` (${status})` : ''}: ${e.message}${granted}`;
  }
  const err = e as NodeJS.ErrnoException;
  if (err instanceof Error && typeof err.code === 'string' && LOCAL_FAILURES[err.code]) {
    return `scanbase: ${err.path ? `${err.path}: ` : ''}${LOCAL_FAILURES[err.code]}${err.path ? '' : ` (${err.message})`}`;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return `scanbase: no answer in time: ${err.message}`;
  const code = exitCodeOf(e);
  if (code === EXIT.network) return `scanbase: no answer: ${err.message}${err.cause ? ` (${String(err.cause)})` : ''}`;
  if (code === EXIT.failure) return `scanbase: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
  return `scanbase: ${err.message}`;
}

export function exitCodeOf(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof Error && e.name === 'TimeoutError') return EXIT.network;
  if (e instanceof Error && e.name === 'NotSignedIn') return EXIT.auth;
  if (e instanceof Error && e.name === 'AbortError') return EXIT.cancelled;
  if (isConnectionFailure(e)) return EXIT.network;
  if (!(e instanceof ScanbaseError)) return EXIT.failure;
  const s = e.status;
  if (s === 0) return e.errorCode === 'md5-mismatch' ? EXIT.failure : EXIT.network;
  if (s === 401 || e.errorCode === 'invalid_grant') return EXIT.auth;
  if (s === 403) return EXIT.forbidden;
  if (s === 404 || s === 410) return EXIT.notFound;
  if (s === 429 || s >= 500) return EXIT.unavailable;
  if (s >= 400) return EXIT.refused;
  return EXIT.failure;
}
