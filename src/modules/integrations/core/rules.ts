// The integrations module's pure rules (docs/integrations.md).
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { invalidInput } from '../../../core/errors.ts';
import type { AccountKonektSyncStrategy, ProjectKonektSyncStrategy } from './ports.ts';

/** An Autodesk sign-in must come back within 10 minutes of its start. */
export const AUTODESK_STATE_TTL_SECONDS = 600;
/** The state sent to Autodesk: 32 random bytes (stored as its SHA-256 only). */
export const STATE_BYTES = 32;
/** The longest `redirectUri` kept for the end of an Autodesk sign-in. */
export const MAX_REDIRECT_URI_CHARS = 2000;

export const hashState = (state: string): string => sha256Hex(state);

/** Where Autodesk sends the browser back (registered with the Autodesk application). */
export const autodeskCallbackUrl = (publicUrl: string): string => `${publicUrl}/integrations/autodesk/callback`;

/** The end of the sign-in: an absolute http(s) address (400 `invalid-input` otherwise). */
export function checkRedirectUri(raw: string): void {
  let url: URL | null = null;
  try {
    url = raw.length <= MAX_REDIRECT_URI_CHARS ? new URL(raw) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidInput(`redirectUri must be an absolute http(s) address of at most ${MAX_REDIRECT_URI_CHARS} characters`, { field: 'redirectUri' });
  }
}

/** A project's strategy when it names none: the hub's, or BOTH_WAY when the hub leaves it to each project (or there is no hub). */
export function projectSyncStrategy(hub: AccountKonektSyncStrategy | null): ProjectKonektSyncStrategy {
  return hub === 'UPDATES_ONLY_FROM_KONEKT' ? 'UPDATES_ONLY_FROM_KONEKT' : 'BOTH_WAY';
}

// The batch that creates pending integration links at the third party (docs/integrations.md
// "Integration links").

/** Attempts of a link the third party does not answer before it fails. */
export const LINK_ATTEMPTS = 8;
/** Links claimed at once by a node (asked in parallel). */
export const LINK_CLAIM_BATCH = 8;
/** An Autodesk access token this close to its end is refreshed before use. */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 60;

/** After `attempts` unanswered attempts, the next is due in 30 s doubled each time, at most an hour: 30 s, 1, 2, 4 … 60 min. */
export const linkRetryDelaySeconds = (attempts: number): number => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

/**
 * How long a node holds a claimed link: one attempt is at most three requests to the third
 * party (a refresh, the creation, the creation again after a refused token), each bounded by
 * INTEGRATIONS_TIMEOUT, plus a margin. A node that dies holding it lets another take it after.
 */
export const linkLeaseSeconds = (timeoutSeconds: number): number => 3 * timeoutSeconds + 30;

/** The key a third party may use to create nothing more for a repeated request (a lease taken over). */
export const linkRequestKey = (annotationId: string, type: string): string => `scanbase-annotation-${annotationId}-${type}`;

/** Where a person opens the annotation's project in the console. */
export const annotationConsoleLink = (publicUrl: string, accountId: string, projectId: string): string =>
  `${publicUrl}/console/a/${accountId}/p/${projectId}?tab=annotations`;

/** The third party's issue title: the annotation's number and title, as the annotations list shows them. */
export const issueTitle = (number: number, title: string): string => `#${number} ${title}`;
