// Sign-in with the service's own OAuth 2 flow (docs/console.md "Sign-in"): authorization
// code + PKCE (S256) from the browser, redirect_uri = PUBLIC_URL/console/callback (an exact
// address the service allows, and a first-party client: a signed-in browser is not asked
// to approve). The code is exchanged at the console's own session endpoint
// (/console/session, src/http/console-session.ts), which keeps the refresh token in an
// HttpOnly cookie the page cannot read; the page holds only the access token, in memory.
// A reload asks /console/session/refresh for a new access token: no sign-in again.
// Refresh tokens are single-use (with reuse detection): one refresh is in flight per tab,
// and tabs take turns through a Web Lock, so two tabs reloading at once rotate the cookie
// one after the other instead of spending the same token twice.
import { pkcePair, randomState } from '@scanbase/sdk';
import { reportAnswer, reportUnreachable } from './connection.ts';

export interface Tokens {
  accessToken: string;
  /** Epoch ms when the access token expires (a little early). */
  expiresAt: number;
  userId: string;
}

export type SessionState = 'restoring' | 'signed-in' | 'signed-out';
/**
 * Why the console is signed out, when it was signed in before in this tab: `everywhere`
 * (this user's "Sign out everywhere", from this tab or another of this browser), `ended`
 * (the service refused the session: a password reset, a sign-out everywhere elsewhere, an
 * expired or revoked session). Null after a plain sign-out or when no session was found.
 */
export type SignedOutReason = 'everywhere' | 'ended' | null;

const PENDING = 'scanbase.console.signin.';
export const CALLBACK_PATH = '/console/callback';
const SESSION = '/console/session';
const LOCK = 'scanbase-console-session';
const callbackUri = () => `${location.origin}${CALLBACK_PATH}`;
/** Tells the other tabs of this browser that the console signed out. */
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('scanbase-console') : null;

let tokens: Tokens | null = null;
let state: SessionState = 'restoring';
let reason: SignedOutReason = null;
let refreshing: Promise<Tokens | null> | null = null;
const listeners = new Set<() => void>();

export const currentTokens = (): Tokens | null => tokens;
export const sessionState = (): SessionState => state;
export const signedOutReason = (): SignedOutReason => reason;
export function onAuthChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
function setTokens(t: Tokens | null, why: SignedOutReason = null): void {
  reason = t ? null : why;
  tokens = t;
  state = t ? 'signed-in' : 'signed-out';
  for (const f of listeners) f();
}
channel?.addEventListener('message', (e: MessageEvent) => {
  if (e.data === 'signed-out' && tokens) setTokens(null);
  if (e.data === 'signed-out-everywhere') setTokens(null, 'everywhere');
});

/** Sends the browser to the authorize page; it comes back to /console/callback. */
export async function signIn(returnTo: string): Promise<void> {
  const { verifier, challenge } = await pkcePair();
  const st = randomState();
  sessionStorage.setItem(PENDING + st, JSON.stringify({ verifier, returnTo }));
  const q = new URLSearchParams({
    response_type: 'code',
    redirect_uri: callbackUri(),
    state: st,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  location.assign(`/oauth/authorize?${q}`);
}

export class SignInError extends Error {}
/** The session endpoint refused (no cookie, a spent or revoked token): signed out. */
class Refused extends Error {}

interface AccessAnswer {
  access_token: string;
  expires_in: number;
  user_id: string;
}

/** A call of the console's session endpoint (same origin: the cookie goes with it; the marker header proves it is this page). */
async function sessionCall(path: string, body?: unknown): Promise<Tokens | null> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'x-scanbase-console': '1', accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    reportUnreachable();
    throw e;
  }
  reportAnswer();
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    const p = (await res.json().catch(() => ({}))) as { detail?: string };
    throw new Refused(p.detail ?? `The service answered ${res.status}`);
  }
  if (!res.ok) throw new Error(`The session endpoint answered ${res.status}`);
  if (path.endsWith('/end')) return null;
  const a = (await res.json()) as AccessAnswer;
  return {
    accessToken: a.access_token,
    // Refresh a little early: a request must not leave with a token about to expire.
    expiresAt: Date.now() + Math.max(0, a.expires_in - 30) * 1000,
    userId: a.user_id,
  };
}

/** Runs `f` while holding the browser-wide session lock (one tab at a time rotates the cookie). */
function exclusive<T>(f: () => Promise<T>): Promise<T> {
  // request() answers what f answers once its promise settles (the lock is held until then).
  return navigator.locks ? (navigator.locks.request(LOCK, f) as unknown as Promise<T>) : f();
}

/** Finishes the sign-in on /console/callback; answers the path to return to. */
export async function completeSignIn(search: string): Promise<string> {
  const q = new URLSearchParams(search);
  const st = q.get('state') ?? '';
  const key = PENDING + st;
  const pending = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  if (q.get('error')) throw new SignInError(q.get('error') === 'access_denied' ? 'Access was denied.' : `Sign-in failed: ${q.get('error')}`);
  if (!/^[a-z0-9]+$/.test(st) || !pending) throw new SignInError('This sign-in link is not one this tab started. Sign in again.');
  const { verifier, returnTo } = JSON.parse(pending) as { verifier: string; returnTo: string };
  const code = q.get('code');
  if (!code) throw new SignInError('The authorization answer carries no code.');
  try {
    setTokens(await exclusive(() => sessionCall(SESSION, { code, code_verifier: verifier })));
  } catch (e) {
    throw new SignInError(e instanceof Error ? e.message : String(e));
  }
  return returnTo.startsWith('/console/') && returnTo !== CALLBACK_PATH ? returnTo : '/console/';
}

/**
 * A new access token from the session cookie. One refresh in flight per tab (every caller
 * gets the same promise), and one per browser at a time (the lock): the cookie's refresh
 * token is single-use. Answers null when the service refuses (signed out); a network
 * failure keeps the state and throws.
 */
export function refresh(): Promise<Tokens | null> {
  if (refreshing) return refreshing;
  refreshing = exclusive(() => sessionCall(`${SESSION}/refresh`))
    .then(
      (t) => {
        setTokens(t);
        return t;
      },
      (e: unknown) => {
        if (e instanceof Refused) {
          // A session this tab held was refused: say so (a first load without a session is no news).
          setTokens(null, tokens ? 'ended' : reason);
          return null;
        }
        throw e;
      },
    )
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** At start: the session of this browser, if it has one (a reload, a new tab). */
export async function restoreSession(): Promise<void> {
  try {
    await refresh();
  } catch (e) {
    // The service cannot be reached: the banner says so; sign-in stays offered.
    console.warn('console session: not restored', e);
    if (!tokens) setTokens(null);
  }
}

/** A usable access token, refreshed first when it has expired. */
export async function accessToken(): Promise<string | null> {
  if (refreshing) return (await refreshing)?.accessToken ?? null;
  if (!tokens) return null;
  if (Date.now() >= tokens.expiresAt) return (await refresh())?.accessToken ?? null;
  return tokens.accessToken;
}

/** Ends the session: the service revokes the cookie's refresh token and clears it; the other tabs are told. */
export async function signOut(): Promise<void> {
  setTokens(null);
  channel?.postMessage('signed-out');
  await exclusive(() => sessionCall(`${SESSION}/end`));
}

/**
 * After the service ended every session of the user (POST /api/2/me/sign-out-everywhere,
 * which the caller made): the console forgets its token, the other tabs are told why, and
 * the cookie (its refresh token already revoked) is cleared. Signed out with the reason
 * `everywhere`, so the page can say what happened.
 */
export async function endedEverywhere(): Promise<void> {
  setTokens(null, 'everywhere');
  channel?.postMessage('signed-out-everywhere');
  await exclusive(() => sessionCall(`${SESSION}/end`));
}
