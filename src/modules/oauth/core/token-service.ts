// The token service (spec "Authentication", CONTRACT §4): single-use 5-minute codes
// bound to user, redirect and challenge; 3-hour ES256 access tokens; 21-day opaque
// refresh tokens, single use, at most 10 valid per user. An access token of a user who no
// longer exists (deleted, or every user after a reset), or issued before his revocation
// point (revocation.ts: password set, reset or cleared, sign out everywhere), is refused.
import { DomainError } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { formatUrn, uuidOfUrn } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { CoreMetrics } from '../../../core/ports/telemetry.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { TokenSigner } from '../../../core/ports/crypto.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import type { OauthRepos } from './ports.ts';
import { verifyS256 } from './pkce.ts';
import { DEFAULT_CLIENT_ID } from './authorize-request.ts';
import { noteOAuthClient } from '../../../core/permissions/decisions.ts';
import { KnownUsers } from './known-users.ts';
import { firstIssuableSecond, revokedUpTo } from './revocation.ts';
import { cacheScope, onInvalidation } from '../../../core/events/invalidation.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import type { Lru } from '../../../core/cache/lru.ts';

export const ACCESS_TOKEN_SECONDS = 3 * 3600;
export const REFRESH_TOKEN_SECONDS = 21 * 24 * 3600;
export const CODE_SECONDS = 5 * 60;
export const MAX_VALID_REFRESH_TOKENS = 10;

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user_id: string;
}

export interface Principal {
  userId: string;
  /** The OAuth client the access token was issued to (its client_id claim; DEFAULT_CLIENT_ID for one without). */
  clientId: string;
  /** Seconds since the epoch at which the access token was issued. */
  iat: number;
  /** Seconds since the epoch at which the access token expires. */
  exp: number;
}

const invalidGrant = (message: string) => new DomainError('invalid', 'invalid_grant', message);

/** Refresh-token failures answer 401 with both errorCode and the RFC 6749 error (CONTRACT §4). */
const refreshRejected = () =>
  new DomainError('unauthorized', 'unauthorized', 'The refresh token is expired, used or unknown', {
    oauthError: 'invalid_grant',
  });

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const TOKEN_SERVICE_STORE = storeUseOf<Repos & OauthRepos>()({ reads: ['oauth', 'users'], writes: ['oauth', 'users'] });

export interface TokenServiceDeps {
  store: SliceOf<typeof TOKEN_SERVICE_STORE, Repos & OauthRepos> & StoreEvents;
  clock: Clock;
  ids: Ids;
  signer: TokenSigner;
  urnNamespace: string;
  /** Bound on the verified-token cache (entries; TOKEN_CACHE_ENTRIES). */
  cacheSize?: number;
  /** Bound on the user-existence cache (entries; KNOWN_USER_CACHE_ENTRIES). */
  knownUsersSize?: number;
  /** The node's registry of caches (GET /metrics). */
  caches?: CacheRegistry;
  /** How long a node trusts its answer to "does this user exist" without a published change. */
  knownUsersTtlMs?: number;
  /**
   * RFC 9700 §4.14.2 (REFRESH_TOKEN_REUSE_DETECTION, off by default): presenting a consumed
   * refresh token revokes the valid tokens issued from it (its family). Off, a consumed
   * token is only refused (the vendor's "consumed on use").
   */
  refreshReuseDetection?: boolean;
  metrics?: CoreMetrics;
}

/** The OAuth token service: authorization codes, token pairs, refresh, revocation and bearer verification (docs/tokens.md). */
export interface TokenService {
  /** Records a code for an approved authorization; answers the code (only its hash is kept). */
  issueCode(userId: string, redirectUri: string, codeChallenge: string | null, clientId: string | null): Promise<string>;
  /**
   * authorization_code grant: the code is consumed first, in its own statement (outside
   * the issuing transaction, whose rollback would restore it), so a failed check still burns it.
   */
  exchangeCode(input: { code: string; redirectUri: string | undefined; codeVerifier: string | undefined; clientId?: string }): Promise<TokenResponse>;
  /**
   * refresh_token grant: one conditional UPDATE consumes it, so of N concurrent uses one
   * wins. With reuse detection, a consumed token's family is revoked (committed) before
   * the refusal is thrown.
   */
  refresh(refreshToken: string): Promise<TokenResponse>;
  /** RFC 7009: revoking an unknown token is not an error. */
  revoke(token: string): Promise<void>;
  /** Operator shortcut (CONTRACT §3): a pair without the browser step. */
  issueForUser(userId: string): Promise<TokenResponse>;
  /** Verifies a bearer access token; null when missing, malformed, expired, not ours, its user gone or his sessions ended since. */
  authenticate(token: string): Promise<Principal | null>;
  /**
   * The answer the caches hold, without a promise (the bearer hot path): the principal;
   * null when the token is known to be refused (expired, its user gone, or issued at or
   * before his revocation point); undefined
   * when authenticate() must decide. `nowMs`: the clock as the caller already read it for
   * this request (read here otherwise).
   */
  cached(token: string, nowMs?: number): Principal | null | undefined;
  /** Which users still exist and their revocation points, per node (the bearer hot path's user check); tests clear it. */
  knownUsers: KnownUsers;
}

export function createTokenService(deps: TokenServiceDeps): TokenService {
  const { clock, ids, signer, urnNamespace: ns } = deps;
  const store = sliceOf(deps.store, TOKEN_SERVICE_STORE);
  const cacheSize = deps.cacheSize ?? 10_000;
  const reuseDetection = deps.refreshReuseDetection ?? false;
  // Verified access tokens → principal, until expiry: a signature is checked once per node.
  const caches = deps.caches ?? new CacheRegistry();
  const verified = new VerifiedTokens(caches.lru({ name: 'verified-tokens', maxWeight: cacheSize, touchOnRead: false }));
  // Does the token's user still exist, and since when are his tokens valid: one query per
  // user per lifetime, dropped on change (user:<id>, on every node through the event).
  const knownUsers = new KnownUsers(
    async (userId) => {
      const state = await store.repos.users.tokenState(userId);
      return state && { revokedUpTo: revokedUpTo(state.tokensValidAfter) };
    },
    () => clock.nowMs(),
    deps.knownUsersSize ?? 50_000,
    deps.knownUsersTtlMs ?? 60_000,
    caches,
  );
  const userScope = cacheScope.user('');
  onInvalidation(deps.store, (scope) => {
    if (scope === cacheScope.all) knownUsers.clear();
    else if (scope.startsWith(userScope)) knownUsers.forget(scope.slice(userScope.length));
  });

  /**
   * `familyId`: the family of the refresh token this pair replaces; none starts a new family.
   * `grantedAt`: when the authorization code was issued; a code issued at or before the
   * user's revocation point (consumed just before his sessions ended) gives nothing.
   * `clientId`: the client the pair is issued to (the access token's claim, kept with the
   * refresh token for the family's next pairs).
   */
  async function issuePair(repos: Pick<Repos & OauthRepos, 'oauth' | 'users'>, userId: string, opts: { familyId?: string; grantedAt?: Date; clientId: string }): Promise<TokenResponse> {
    const { familyId, grantedAt, clientId } = opts;
    // Serialise issuance per user so the "at most 10 valid" rule holds under concurrency,
    // and against the revocations, which take the same lock (a no-op when the caller
    // already holds it); the revocation point is read under it.
    const validAfter = (await repos.users.lock(userId))?.tokensValidAfter ?? null;
    if (grantedAt && validAfter && grantedAt.getTime() <= validAfter.getTime()) {
      throw invalidGrant('The authorization code was issued before the user\'s sessions ended');
    }
    const upTo = revokedUpTo(validAfter);
    const now = clock.now();
    const iat = firstIssuableSecond(Math.floor(now.getTime() / 1000), upTo);
    const sub = formatUrn(ns, 'user', userId);
    const access = await signer.sign({ sub, jti: ids.uuid(), iat, exp: iat + ACCESS_TOKEN_SECONDS, clientId });
    noteOAuthClient(clientId);
    const refresh = ids.secret(32);
    await repos.oauth.insertRefreshToken(
      {
        id: ids.uuid(),
        tokenHash: sha256Hex(refresh),
        userId,
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
        familyId,
        clientId,
      },
      now,
    );
    await repos.oauth.revokeExcessRefreshTokens(userId, MAX_VALID_REFRESH_TOKENS, now);
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      user_id: sub,
    };
  }

  return {
    /** Records a code for an approved authorization; answers the code (only its hash is kept). */
    async issueCode(userId: string, redirectUri: string, codeChallenge: string | null, clientId: string | null): Promise<string> {
      const code = ids.secret(32);
      const now = clock.now();
      noteOAuthClient(clientId ?? DEFAULT_CLIENT_ID);
      await store.repos.oauth.insertCode(
        {
          codeHash: sha256Hex(code),
          userId,
          redirectUri,
          codeChallenge,
          expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
          clientId,
        },
        now,
      );
      return code;
    },

    /**
     * authorization_code grant: the code is consumed first, in its own statement (outside
     * the issuing transaction, whose rollback would restore it), so a failed check still burns it.
     */
    async exchangeCode(input: { code: string; redirectUri: string | undefined; codeVerifier: string | undefined; clientId?: string }) {
      const rec = await store.repos.oauth.consumeCode(sha256Hex(input.code), clock.now());
      if (!rec) throw invalidGrant('The authorization code is invalid, expired or already used');
      if (input.redirectUri === undefined || input.redirectUri !== rec.redirectUri) {
        throw invalidGrant('The redirect address does not match the one the code was issued for');
      }
      if (rec.codeChallenge !== null) {
        if (input.codeVerifier === undefined) throw invalidGrant('code_verifier is required');
        if (!verifyS256(input.codeVerifier, rec.codeChallenge)) throw invalidGrant('code_verifier does not match');
      } else if (input.codeVerifier !== undefined) {
        // PKCE downgrade (RFC 9700 §2.1.1): a verifier for a code issued without a challenge.
        throw invalidGrant('code_verifier given for a code issued without code_challenge');
      }
      // RFC 6749 §4.1.3: a public client's code is exchanged by the client it was issued to.
      if (rec.clientId !== null && input.clientId !== undefined && input.clientId !== rec.clientId) {
        throw invalidGrant('The authorization code was issued to another client_id');
      }
      const clientId = rec.clientId ?? input.clientId ?? DEFAULT_CLIENT_ID;
      return store.transaction((repos) => issuePair(repos, rec.userId, { grantedAt: rec.createdAt, clientId }));
    },

    /**
     * refresh_token grant: one conditional UPDATE consumes it, so of N concurrent uses one
     * wins. With reuse detection, a consumed token's family is revoked (committed) before
     * the refusal is thrown.
     */
    async refresh(refreshToken: string): Promise<TokenResponse> {
      const pair = await store.transaction(async (repos) => {
        const hash = sha256Hex(refreshToken);
        // Lock the owner before touching token rows: every writer of a user's tokens
        // takes the user lock first, so concurrent refreshes cannot deadlock.
        const owner = await repos.oauth.refreshTokenOwner(hash);
        if (!owner) return null;
        await repos.users.lock(owner);
        const now = clock.now();
        const rec = await repos.oauth.consumeRefreshToken(hash, now);
        if (rec) return issuePair(repos, rec.userId, { familyId: rec.familyId, clientId: rec.clientId ?? DEFAULT_CLIENT_ID });
        // The conditional UPDATE lost: a concurrent refresh consumed the token first (or it was spent).
        deps.metrics?.refreshLost();
        if (reuseDetection) await repos.oauth.revokeFamilyOfConsumed(hash, now);
        return null;
      });
      if (!pair) throw refreshRejected();
      return pair;
    },

    /** RFC 7009: revoking an unknown token is not an error. */
    async revoke(token: string): Promise<void> {
      await store.repos.oauth.revokeRefreshToken(sha256Hex(token), clock.now());
    },

    /** Operator shortcut (CONTRACT §3): a pair without the browser step. */
    issueForUser(userId: string) {
      return store.transaction((repos) => issuePair(repos, userId, { clientId: DEFAULT_CLIENT_ID }));
    },

    /** Verifies a bearer access token; null when missing, malformed, expired, not ours, its user gone or his sessions ended since. */
    async authenticate(token: string): Promise<Principal | null> {
      const principal = await verify(token);
      if (!principal) return null;
      return (await knownUsers.admits(principal.userId, principal.iat)) ? principal : null;
    },

    /**
     * The answer the caches hold, without a promise (the bearer hot path): the principal;
     * null when the token is known to be refused (expired, its user gone, or his sessions
     * ended since); undefined when authenticate() must decide.
     */
    cached(token: string, nowMs = clock.nowMs()): Principal | null | undefined {
      const hit = verified.get(token);
      if (!hit) return undefined;
      if (hit.exp <= Math.floor(nowMs / 1000)) {
        verified.delete(token);
        return null;
      }
      const exists = knownUsers.peek(hit.userId, hit.iat, nowMs);
      return exists === undefined ? undefined : exists ? hit : null;
    },

    /** The user-existence and revocation cache (for tests and diagnostics). */
    knownUsers,
  };

  /** Signature and claims, checked once per token per node. */
  async function verify(token: string): Promise<Principal | null> {
    const nowSeconds = Math.floor(clock.nowMs() / 1000);
    const hit = verified.get(token);
    if (hit) {
      if (hit.exp > nowSeconds) return hit;
      verified.delete(token);
      return null;
    }
    if (token.length > 4096) return null;
    const claims = await signer.verify(token, nowSeconds);
    if (!claims) return null;
    const userId = uuidOfUrn(ns, 'user', claims.sub);
    if (!userId) return null;
    const principal = { userId, clientId: claims.clientId ?? DEFAULT_CLIENT_ID, iat: claims.iat, exp: claims.exp };
    verified.set(token, principal);
    return principal;
  }
}

/**
 * The verified-token cache, bounded (the oldest entry goes first). Keyed by the token's
 * last characters (from its signature) and confirmed by comparing the whole token: the
 * bearer token arrives as a fresh ~600-character string on every request, and hashing
 * all of it for a Map lookup cost more than the rest of the lookup.
 */
class VerifiedTokens {
  private static readonly KEY_CHARS = 32;
  /** Written in verification order, the oldest out first (a read does not move an entry). */
  private readonly entries: Lru<{ token: string; principal: Principal }>;

  constructor(entries: Lru<{ token: string; principal: Principal }>) {
    this.entries = entries;
  }

  get(token: string): Principal | undefined {
    const e = this.entries.get(token.slice(-VerifiedTokens.KEY_CHARS));
    return e !== undefined && e.token === token ? e.principal : undefined;
  }

  delete(token: string): void {
    const key = token.slice(-VerifiedTokens.KEY_CHARS);
    if (this.entries.peek(key)?.token === token) this.entries.delete(key);
  }

  set(token: string, principal: Principal): void {
    this.entries.set(token.slice(-VerifiedTokens.KEY_CHARS), { token, principal });
  }
}
