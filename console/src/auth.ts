// Sign-in with the service's own OAuth 2 flow (docs/console.md): authorization code +
// PKCE (S256) from the browser, redirect_uri = PUBLIC_URL/console/callback (an exact
// address the service allows), state of [a-z0-9]. Tokens live in memory only; the PKCE
// verifier and the page to return to wait in sessionStorage (this tab) during the redirect.
// Refresh tokens are single-use: one refresh is in flight at a time and every caller waits for it.

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token expires. */
  expiresAt: number;
  userId: string;
}

const PENDING = 'scanbase.console.signin.';
export const CALLBACK_PATH = '/console/callback';
const callbackUri = () => `${location.origin}${CALLBACK_PATH}`;

let tokens: Tokens | null = null;
let refreshing: Promise<Tokens | null> | null = null;
const listeners = new Set<() => void>();

export const currentTokens = (): Tokens | null => tokens;
export function onAuthChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
function setTokens(t: Tokens | null): void {
  tokens = t;
  for (const f of listeners) f();
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function randomLowerAlnum(n: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  // 36 does not divide 256: drop the biased top values (rejection sampling).
  let out = '';
  for (const b of bytes) if (b < 252) out += alphabet[b % 36];
  return out.length >= 24 ? out : out + randomLowerAlnum(n);
}

/** Sends the browser to the authorize page; it comes back to /console/callback. */
export async function signIn(returnTo: string): Promise<void> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const state = randomLowerAlnum(32);
  sessionStorage.setItem(PENDING + state, JSON.stringify({ verifier, returnTo }));
  const q = new URLSearchParams({
    response_type: 'code',
    redirect_uri: callbackUri(),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  location.assign(`/oauth/authorize?${q}`);
}

export class SignInError extends Error {}

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  user_id: string;
}

async function tokenRequest(fields: Record<string, string>): Promise<Tokens> {
  const res = await fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const body = (await res.json().catch(() => ({}))) as Partial<TokenAnswer> & { error?: string; error_description?: string };
  if (!res.ok || !body.access_token || !body.refresh_token) {
    throw new SignInError(body.error_description ?? body.error ?? `The token endpoint answered ${res.status}`);
  }
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    // Refresh a little early: a request must not leave with a token about to expire.
    expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 0) - 30) * 1000,
    userId: body.user_id ?? '',
  };
}

/** Finishes the sign-in on /console/callback; answers the path to return to. */
export async function completeSignIn(search: string): Promise<string> {
  const q = new URLSearchParams(search);
  const state = q.get('state') ?? '';
  const key = PENDING + state;
  const pending = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  if (q.get('error')) throw new SignInError(q.get('error') === 'access_denied' ? 'Access was denied.' : `Sign-in failed: ${q.get('error')}`);
  if (!/^[a-z0-9]+$/.test(state) || !pending) throw new SignInError('This sign-in link is not one this tab started. Sign in again.');
  const { verifier, returnTo } = JSON.parse(pending) as { verifier: string; returnTo: string };
  const code = q.get('code');
  if (!code) throw new SignInError('The authorization answer carries no code.');
  setTokens(
    await tokenRequest({ grant_type: 'authorization_code', code, authorization_code: callbackUri(), redirect_uri: callbackUri(), code_verifier: verifier }),
  );
  return returnTo.startsWith('/console/') && returnTo !== CALLBACK_PATH ? returnTo : '/console/';
}

/**
 * A fresh pair from the refresh token. Single-use rule: a second caller while one refresh
 * is in flight gets the same promise (sending the same refresh token twice would revoke it).
 */
export function refresh(): Promise<Tokens | null> {
  if (refreshing) return refreshing;
  const held = tokens;
  if (!held) return Promise.resolve(null);
  refreshing = tokenRequest({ grant_type: 'refresh_token', refresh_token: held.refreshToken })
    .then((t) => {
      setTokens(t);
      return t;
    })
    .catch(() => {
      setTokens(null);
      return null;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** A usable access token, refreshed first when it has expired. */
export async function accessToken(): Promise<string | null> {
  if (refreshing) return (await refreshing)?.accessToken ?? null;
  if (!tokens) return null;
  if (Date.now() >= tokens.expiresAt) return (await refresh())?.accessToken ?? null;
  return tokens.accessToken;
}

/** Revokes the refresh token (RFC 7009) and forgets the pair: nothing stays in the browser. */
export async function signOut(): Promise<void> {
  const held = tokens;
  setTokens(null);
  if (!held) return;
  await fetch('/oauth/revoke', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: held.refreshToken }),
  });
}
