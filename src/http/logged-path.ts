// The path of a request as the logs and the sandbox journal keep it (docs/security.md).
/**
 * Paths whose segments are secrets, each with the part to keep (docs/security.md):
 * - /invitations/{token}: the token sets a user's first password;
 * - /password-reset/{token}: the token replaces a user's password ("Forgot password?").
 * Not secrets: /connect/{slug} (needs a member's bearer token too), /_blobs/{key} (the
 * signature is in the query string, never logged), /avatars/{file}.
 */
const SECRET_PATHS: RegExp[] = [/^(\/invitations\/)[^/]+/, /^(\/password-reset\/)[^/]+/];

/** The path as logged: no query string (it may hold codes and state), secrets redacted, capped in length. */
export function loggedPath(url: string): string {
  let path = url.split('?')[0]!;
  for (const re of SECRET_PATHS) path = path.replace(re, '$1[redacted]');
  return path.slice(0, 2048);
}
