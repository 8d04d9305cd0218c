// The rules of GET /oauth/authorize (CONTRACT §4): the redirect address must be an
// http(s) address on localhost or 127.0.0.1 (any port, any path) or "/"; state is
// [a-z0-9]+; PKCE S256 only; no fragment (RFC 6749 §3.1.2). A failing request is never
// redirected. Besides those, the service's own first-party pages may be named as exact
// addresses (the API docs pages' oauth2-redirect on PUBLIC_URL, docs/security.md; the web
// console's callback, consoleRedirect).
import { DomainError } from '../../../core/errors.ts';
import { isValidChallenge, normaliseChallengeMethod } from './pkce.ts';

export interface AuthorizeRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string | null;
  /** The client_id parameter: the client the code (and the tokens from it) are issued to; null: none named. */
  clientId: string | null;
}

/**
 * The client a token names when its authorization request named none (and the one every
 * token named before client ids were kept, docs/tokens.md "Client ids").
 */
export const DEFAULT_CLIENT_ID = 'scanbase';

/** A client_id as kept: 1 to 256 printable ASCII characters, no space (RFC 6749 §2.2 leaves the form to the server). */
const CLIENT_ID_RE = /^[\x21-\x7e]{1,256}$/;

/** The client_id of a request (the authorize pages, the token endpoint); undefined when not given; throws invalid_request when malformed. */
export function clientIdOf(v: unknown): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !CLIENT_ID_RE.test(v)) throw bad('client_id must be 1 to 256 printable ASCII characters without spaces, given once');
  return v;
}

const STATE_RE = /^[a-z0-9]{1,512}$/;
const NO_OWN_REDIRECTS: ReadonlySet<string> = new Set();

/** The web console's sign-in callback (docs/console.md): one exact address on PUBLIC_URL. */
export const consoleRedirect = (publicUrl: string): string => `${publicUrl}/console/callback`;

/**
 * First-party clients (docs/security.md "The console's session"): the service's own apps,
 * whose authorization needs no consent page. Only the web console, named by its exact
 * callback address, and only with a PKCE challenge: a code issued without the user's click
 * is then worth nothing to anyone but the console tab that holds the verifier. The API docs
 * pages keep the approval page (they hand a token to whoever uses the page).
 */
export function skipsConsent(a: AuthorizeRequest, publicUrl: string): boolean {
  return a.codeChallenge !== null && a.redirectUri === consoleRedirect(publicUrl);
}

/**
 * `ownRedirects`: exact addresses of the service's own pages (on its PUBLIC_URL) that act
 * as public PKCE clients; compared character for character, so no prefix, query or other
 * path on that origin is allowed by them.
 */
export function isAllowedRedirectUri(uri: string, ownRedirects: ReadonlySet<string> = NO_OWN_REDIRECTS): boolean {
  if (uri === '/' || ownRedirects.has(uri)) return true;
  if (uri.length > 2048) return false;
  // RFC 6749 §3.1.2: the endpoint URI MUST NOT include a fragment (an empty "#" included).
  if (uri.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1';
}

const bad = (message: string) => new DomainError('invalid', 'invalid_request', message);

export function parseAuthorizeRequest(
  q: Record<string, unknown>,
  ownRedirects: ReadonlySet<string> = NO_OWN_REDIRECTS,
): AuthorizeRequest {
  const str = (k: string): string | undefined => {
    const v = q[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw bad(`${k} must be given once`);
    return v;
  };
  const redirectUri = str('redirect_uri');
  if (!redirectUri) throw bad('redirect_uri is required');
  if (!isAllowedRedirectUri(redirectUri, ownRedirects)) {
    throw bad('redirect_uri must be an http(s) address on localhost or 127.0.0.1 without a fragment, or "/"');
  }
  const state = str('state');
  if (!state) throw bad('state is required');
  if (!STATE_RE.test(state)) throw bad('state must match [a-z0-9]+');
  const type = str('response_type');
  if (type !== undefined && type !== 'code') throw bad('response_type must be code');
  const clientId = clientIdOf(q.client_id) ?? null;
  const challenge = str('code_challenge');
  const method = str('code_challenge_method');
  if (challenge === undefined || challenge === '') {
    if (method) throw bad('code_challenge_method given without code_challenge');
    return { redirectUri, state, codeChallenge: null, clientId };
  }
  if (!method) throw bad('code_challenge_method is required with code_challenge');
  if (!normaliseChallengeMethod(method)) {
    throw bad('code_challenge_method must be S256 (also spelled SHA256 or SHA-256); plain is not supported');
  }
  if (!isValidChallenge(challenge)) throw bad('code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
  return { redirectUri, state, codeChallenge: challenge, clientId };
}

/** The address approval (or denial) sends the browser to. */
export function redirectWith(redirectUri: string, params: Record<string, string>): string {
  const base = redirectUri === '/' ? new URL('http://placeholder/') : new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) base.searchParams.set(k, v);
  return redirectUri === '/' ? `/${base.search}` : base.toString();
}
