// OAuth 2 authorization code + PKCE (RFC 7636, S256) against the service's token
// endpoints, with Web Crypto and fetch only (browsers and Node >= 20), and the token
// manager: one refresh at a time in a process, and across processes when the store
// offers a lock (the file store of `@scanbase/sdk/node` does).
import { errorFromResponse, ScanbaseError } from './errors.ts';

const b64url = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** A verifier of 43 characters (32 random bytes, base64url) and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await pkceChallenge(verifier) };
}

export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return b64url(new Uint8Array(digest));
}

/** A `state` of 32 characters of `[a-z0-9]` (the service refuses anything else). */
export function randomState(length = 32): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const out: string[] = [];
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 36).
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length))) if (b < 252 && out.length < length) out.push(alphabet[b % 36]!);
  }
  return out.join('');
}

export interface AuthorizationRequest {
  /** Open this address in a browser. */
  url: string;
  state: string;
  verifier: string;
  redirectUri: string;
}

/** The authorize address with a fresh state and PKCE pair. */
export async function authorizationRequest(baseUrl: string, redirectUri: string): Promise<AuthorizationRequest> {
  const { verifier, challenge } = await pkcePair();
  const state = randomState();
  const url = new URL('/oauth/authorize', baseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    redirect_uri: redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.href, state, verifier, redirectUri };
}

/**
 * The `iss` claim of an access token (the service's PUBLIC_URL, its address), read without
 * verifying: to know where a token pair came from (`scanbase login --with-token`), never to
 * trust it. Undefined when the token is not a JWT with an http(s) issuer.
 */
export function tokenIssuer(accessToken: string): string | undefined {
  const payload = accessToken.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)))) as { iss?: unknown };
    if (typeof json.iss !== 'string') return undefined;
    const url = new URL(json.iss);
    return url.protocol === 'http:' || url.protocol === 'https:' ? json.iss.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** What the token endpoint answers. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  user_id: string;
}

/** What a token store keeps: the pair, when the access token expires (ms), whose it is. */
export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds, from this machine's clock at issuance + expires_in. */
  expiresAt: number;
  userId: string;
  server: string;
}

export const toStored = (server: string, t: TokenResponse, now = Date.now()): StoredTokens => ({
  accessToken: t.access_token,
  refreshToken: t.refresh_token,
  expiresAt: now + t.expires_in * 1000,
  userId: t.user_id,
  server,
});

export interface TokenStore {
  read(): Promise<StoredTokens | null>;
  write(tokens: StoredTokens): Promise<void>;
  clear(): Promise<void>;
  /**
   * Runs `fn` holding a lock every user of this store respects (other processes too,
   * for a store shared between them). Stores used by one process only may omit it.
   */
  withLock?<T>(fn: () => Promise<T>): Promise<T>;
}

/** Tokens in memory (a browser tab, a test, a short script). */
export class MemoryTokenStore implements TokenStore {
  #tokens: StoredTokens | null;
  constructor(tokens: StoredTokens | null = null) {
    this.#tokens = tokens;
  }
  async read() {
    return this.#tokens;
  }
  async write(t: StoredTokens) {
    this.#tokens = t;
  }
  async clear() {
    this.#tokens = null;
  }
}

type Fetch = typeof fetch;

async function tokenCall(baseUrl: string, path: string, fields: Record<string, string>, fetchFn: Fetch): Promise<Response> {
  const url = new URL(path, baseUrl).href;
  // Never retried: a refresh cut off after the service consumed the token cannot be replayed.
  const res = await fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });
  if (!res.ok) throw await errorFromResponse(res, 'POST');
  return res;
}

/** Code exchange (POST /oauth/token, grant_type=authorization_code). */
export async function exchangeCode(
  baseUrl: string,
  o: { code: string; redirectUri: string; verifier: string },
  fetchFn: Fetch = fetch,
): Promise<TokenResponse> {
  const res = await tokenCall(
    baseUrl,
    '/oauth/token',
    // The vendor names the redirect address `authorization_code`; the service accepts both.
    { grant_type: 'authorization_code', code: o.code, authorization_code: o.redirectUri, redirect_uri: o.redirectUri, code_verifier: o.verifier },
    fetchFn,
  );
  return (await res.json()) as TokenResponse;
}

/** Refresh (POST /oauth/token, grant_type=refresh_token). The refresh token is spent. */
export async function refreshTokens(baseUrl: string, refreshToken: string, fetchFn: Fetch = fetch): Promise<TokenResponse> {
  const res = await tokenCall(baseUrl, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken }, fetchFn);
  return (await res.json()) as TokenResponse;
}

/** Revocation (RFC 7009, POST /oauth/revoke) of a refresh token. */
export async function revokeToken(baseUrl: string, refreshToken: string, fetchFn: Fetch = fetch): Promise<void> {
  await tokenCall(baseUrl, '/oauth/revoke', { token: refreshToken, token_type_hint: 'refresh_token' }, fetchFn);
}

/** Refresh this long before the recorded expiry (clocks drift; a request takes time). */
export const EXPIRY_MARGIN_MS = 60_000;

/**
 * Hands out a valid access token and refreshes the pair when it expires or the service
 * answers 401 to it. Refreshes are single flight in the process (one promise), and
 * serialised across processes by the store's lock: inside the lock the store is read
 * again, and when another process already replaced the token that failed, its new pair
 * is used instead of spending the refresh token a second time.
 */
export class TokenManager {
  readonly baseUrl: string;
  readonly store: TokenStore;
  readonly #fetch: Fetch;
  #current: StoredTokens | null = null;
  #refreshing: Promise<StoredTokens> | null = null;
  /** Refreshes this manager performed (for diagnostics and tests). */
  refreshCount = 0;

  constructor(baseUrl: string, store: TokenStore, fetchFn: Fetch = fetch) {
    this.baseUrl = baseUrl;
    this.store = store;
    this.#fetch = fetchFn;
  }

  async #load(): Promise<StoredTokens> {
    this.#current ??= await this.store.read();
    if (!this.#current) throw notSignedIn(this.baseUrl);
    return this.#current;
  }

  /** A token to send now: refreshed first when it is (about to be) expired. */
  async accessToken(): Promise<string> {
    const t = await this.#load();
    if (t.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return t.accessToken;
    return (await this.refresh(t.accessToken)).accessToken;
  }

  /** The service refused `failed` (401): answers the token to retry with. */
  async replace(failed: string): Promise<string> {
    return (await this.refresh(failed)).accessToken;
  }

  /** Refreshes unless someone (this process or another) already replaced `stale`. */
  refresh(stale: string): Promise<StoredTokens> {
    if (this.#current && this.#current.accessToken !== stale && this.#current.expiresAt - EXPIRY_MARGIN_MS > Date.now()) {
      return Promise.resolve(this.#current);
    }
    this.#refreshing ??= this.#refreshLocked(stale).finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refreshLocked(stale: string): Promise<StoredTokens> {
    const run = async () => {
      const stored = await this.store.read();
      if (!stored) throw notSignedIn(this.baseUrl);
      // Another process refreshed while we waited for the lock: its pair is ours too.
      if (stored.accessToken !== stale && stored.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return stored;
      const next = toStored(this.baseUrl, await refreshTokens(this.baseUrl, stored.refreshToken, this.#fetch));
      this.refreshCount++;
      await this.store.write(next);
      return next;
    };
    this.#current = await (this.store.withLock ? this.store.withLock(run) : run());
    return this.#current;
  }

  /** Signs out: revokes the refresh token at the service and empties the store. */
  async logout(): Promise<void> {
    const stored = await this.store.read();
    if (stored) await revokeToken(this.baseUrl, stored.refreshToken, this.#fetch);
    await this.store.clear();
    this.#current = null;
  }
}

const notSignedIn = (baseUrl: string) =>
  new ScanbaseError({ status: 401, errorCode: 'not-signed-in', message: `No tokens stored for ${baseUrl}: sign in first`, surface: 'http', method: '', url: baseUrl });
