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

export function exitCodeOf(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
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
