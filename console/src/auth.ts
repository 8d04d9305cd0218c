// Sign-in with the service's own OAuth 2 flow (docs/console.md): authorization code +
// PKCE (S256) from the browser, redirect_uri = PUBLIC_URL/console/callback (an exact
// address the service allows), state of [a-z0-9]. Tokens live in memory only; the PKCE
// verifier and the page to return to wait in sessionStorage (this tab) during the redirect.
// Refresh tokens are single-use: one refresh is in flight at a time and every caller waits for it.
// The PKCE pair, the state and the token endpoint calls are the SDK's (packages/sdk/src/auth.ts).
import { exchangeCode, pkcePair, randomState, refreshTokens, revokeToken, type TokenResponse } from '@scanbase/sdk';

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

/** Sends the browser to the authorize page; it comes back to /console/callback. */
export async function signIn(returnTo: string): Promise<void> {
  const { verifier, challenge } = await pkcePair();
  const state = randomState();
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

/** The pair as the console keeps it; a refusal of the token endpoint becomes a SignInError. */
async function tokenRequest(call: (origin: string) => Promise<TokenResponse>): Promise<Tokens> {
  let body: TokenResponse;
  try {
    body = await call(location.origin);
  } catch (e) {
    throw new SignInError(e instanceof Error ? e.message : String(e));
  }
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    // Refresh a little early: a request must not leave with a token about to expire.
    expiresAt: Date.now() + Math.max(0, body.expires_in - 30) * 1000,
    userId: body.user_id,
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
  setTokens(await tokenRequest((origin) => exchangeCode(origin, { code, redirectUri: callbackUri(), verifier })));
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
  refreshing = tokenRequest((origin) => refreshTokens(origin, held.refreshToken))
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
  await revokeToken(location.origin, held.refreshToken);
}
