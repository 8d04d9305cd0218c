// Bearer authentication for API 1 and API 2: a missing, malformed, expired or unknown
// access token answers 401 `unauthorized` in the surface's format.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized, type Clock } from '../core/http-face.ts';
import type { Principal, TokenService } from '../modules/oauth/index.ts';
import type { Activity } from '../modules/activity/index.ts';
import type { RateLimiter } from '../modules/limits/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const BEARER_RE = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const SCHEME = 'bearer ';

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  return BEARER_RE.exec(h)?.[1] ?? null;
}

/** What follows "Bearer " (any case), unchecked; null when the header is not a bearer one. */
function bearerCandidate(h: string | undefined): string | null {
  if (typeof h !== 'string' || h.length <= SCHEME.length) return null;
  if (!h.startsWith('Bearer ') && h.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return null;
  return h.slice(SCHEME.length);
}

export interface GuardOptions {
  /**
   * Charge the API rate limits (docs/security.md "Rate limits"): the caller's address
   * before authentication (so floods of bad tokens count too), the user after it. An
   * empty bucket answers 429 with Retry-After in the surface's format; a limit that is
   * off costs nothing.
   */
  rateLimited?: boolean;
}

/** What the authentication hook uses (typed without Core, so a module's route file can name it). */
export interface AuthenticationUse {
  tokens: TokenService;
  activity: Activity;
  rateLimiter: RateLimiter;
  clock: Clock;
}

/**
 * Adds one onRequest hook to this (encapsulated) context requiring a valid access token,
 * with the rate limits when asked: one hook step per request for all three (each hook
 * step costs the cheapest requests a measurable share of their CPU, `npm run bench`).
 * A token verified before is answered from the token service's cache without a promise;
 * since only well-formed tokens enter that cache, the header's syntax is checked on a miss only.
 */
export function requireAuthentication(
  app: FastifyInstance,
  core: AuthenticationUse,
  opts: GuardOptions = {},
): void {
  const tokens = core.tokens;
  const activity = core.activity; // users-last-activity report: a Map lookup per request
  const limiter = core.rateLimiter;
  const clock = core.clock;
  const limitAddress = opts.rateLimited === true && limiter.enabled.address;
  const limitUser = opts.rateLimited === true && limiter.enabled.user;

  /**
   * The caller is known: charge the user's bucket, note the activity, go on. `now`: the
   * clock as this request read it (once: the charges, the token's expiry and the activity
   * date share one read, which costs about as much as a charge).
   */
  const admit = (req: FastifyRequest, principal: Principal, now: number, done: (e?: Error) => void) => {
    req.principal = principal;
    if (limitUser) {
      try {
        limiter.user(principal.userId, now);
      } catch (e) {
        return done(e as Error);
      }
    }
    // The day's first call of this user waits for its activity write (reports read it).
    const writing = activity.userActive(principal.userId, now);
    if (writing !== undefined) return void writing.then(() => done());
    done();
  };

  app.addHook('onRequest', (req, _reply, done) => {
    const now = clock.nowMs();
    if (limitAddress) {
      try {
        limiter.address(req.ip, now);
      } catch (e) {
        return done(e as Error);
      }
    }
    const candidate = bearerCandidate(req.headers.authorization);
    if (candidate === null) return done(unauthorized());
    const hit = tokens.cached(candidate, now);
    if (hit !== undefined) return hit === null ? done(unauthorized()) : admit(req, hit, now, done);
    const token = bearerToken(req);
    if (token === null) return done(unauthorized());
    tokens.authenticate(token).then(
      (principal) => (principal ? admit(req, principal, clock.nowMs(), done) : done(unauthorized())),
      (e: unknown) => done(e as Error),
    );
  });
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** The caller as the core's Actor. */
export const actorOf = (req: FastifyRequest) => ({ userId: principalOf(req).userId });
