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
