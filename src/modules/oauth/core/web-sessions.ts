// Browser sessions of the authorize pages. A browser gets a random cookie value at once,
// but a database row only when it signs in: before that its CSRF token is stateless (an
// HMAC of the cookie value and the time, under a key shared by every node), so
// unauthenticated clients cannot grow the web_sessions table.
import crypto from 'node:crypto';
import { safeEqual, sha256Hex } from '../../../core/crypto/digest.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { OauthRepos, WebSessionRecord } from './ports.ts';

export const WEB_SESSION_SECONDS = 12 * 3600;
/** A sign-in form older than this answers "Expired form" (its token is not stored anywhere). */
export const SIGN_IN_FORM_SECONDS = WEB_SESSION_SECONDS;
/** Tokens dated this far in the future are refused (nodes' clocks differ a little). */
const FUTURE_SKEW_SECONDS = 60;

/**
 * What a form post's CSRF token is worth: `ok`; `missing` (no token); `mismatch` (not this
 * session's: another browser's or page's, a cookie that did not come back, a forgery);
 * `expired` (this browser's sign-in form, but older than SIGN_IN_FORM_SECONDS). The pages
 * tell each apart: only an expired form says "expired".
 */
export type CsrfVerdict = 'ok' | 'missing' | 'mismatch' | 'expired';

export interface WebSession {
  cookie: string;
  /** null: an anonymous browser, which has no row. */
  userId: string | null;
  /** The token the session's forms carry: stored for a signed-in session, derived for an anonymous one. */
  csrf: string;
}

const COOKIE_MAX = 128;

/** The browser session of the sign-in pages: cookie, CSRF token, signed-in user. */
export interface WebSessions {
  /**
   * The session behind a cookie: a signed-in one (from its row), or an anonymous one with
   * a fresh sign-in token. A browser without a usable cookie gets a new random value; no
   * row is written either way.
   */
  resume(cookie: string | undefined): Promise<WebSession>;
  /** Whether a form post carries the session's token (compared in constant time), and if not, why. */
  checkCsrf(session: WebSession, submitted: unknown): Promise<CsrfVerdict>;
  /** Creates the signed-in session (new cookie, new CSRF token: no fixation); its row is the first one. */
  signedIn(session: WebSession, userId: string): Promise<WebSession>;
  /** Ends the session (its row is deleted). */
  signOut(session: WebSession): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const WEB_SESSIONS_STORE = storeUseOf<OauthRepos>()({ reads: ['webSessions'], writes: ['webSessions'] });

export function createWebSessions(deps: { store: SliceOf<typeof WEB_SESSIONS_STORE, OauthRepos>; clock: Clock; ids: Ids }): WebSessions {
  const { clock, ids } = deps;
  const store = sliceOf(deps.store, WEB_SESSIONS_STORE);

  // The HMAC key: created once for the deployment (first node wins), kept in the database.
  let key: Promise<Buffer> | null = null;
  const csrfKey = (): Promise<Buffer> =>
    (key ??= store.repos.webSessions.csrfKey(ids.secret(32)).then(
      (k) => Buffer.from(k, 'utf8'),
      (e: unknown) => {
        key = null; // retry on the next request
        throw e;
      },
    ));

  const mac = (k: Buffer, cookie: string, issued: string) =>
    crypto.createHmac('sha256', k).update(`sign-in|${cookie}|${issued}`).digest('base64url');

  /** A sign-in form token bound to the cookie value and dated, so it needs no row. */
  async function signInToken(cookie: string): Promise<string> {
    const issued = Math.floor(clock.nowMs() / 1000).toString(36);
    return `${issued}.${mac(await csrfKey(), cookie, issued)}`;
  }

  async function checkSignInToken(cookie: string, submitted: string): Promise<CsrfVerdict> {
    const dot = submitted.indexOf('.');
    if (dot < 1 || dot > 12) return 'mismatch';
    const issued = submitted.slice(0, dot);
    if (!/^[0-9a-z]+$/.test(issued)) return 'mismatch';
    // The signature first: only a token this browser was given may be called expired.
    if (!safeEqual(submitted.slice(dot + 1), mac(await csrfKey(), cookie, issued))) return 'mismatch';
    const age = Math.floor(clock.nowMs() / 1000) - parseInt(issued, 36);
    if (age > SIGN_IN_FORM_SECONDS) return 'expired';
    return age < -FUTURE_SKEW_SECONDS ? 'mismatch' : 'ok';
  }

  return {
    /**
     * The session behind a cookie: a signed-in one (from its row), or an anonymous one with
     * a fresh sign-in token. A browser without a usable cookie gets a new random value; no
     * row is written either way.
     */
    async resume(cookie: string | undefined): Promise<WebSession> {
      if (cookie && cookie.length <= COOKIE_MAX) {
        const rec: WebSessionRecord | null = await store.repos.webSessions.byIdHash(sha256Hex(cookie), clock.now());
        if (rec?.userId) return { cookie, userId: rec.userId, csrf: rec.csrf };
        return { cookie, userId: null, csrf: await signInToken(cookie) };
      }
      const fresh = ids.secret(32);
      return { cookie: fresh, userId: null, csrf: await signInToken(fresh) };
    },

    /** Whether a form post carries the session's token (compared in constant time), and if not, why. */
    async checkCsrf(session: WebSession, submitted: unknown): Promise<CsrfVerdict> {
      if (submitted === undefined || submitted === '') return 'missing';
      if (typeof submitted !== 'string' || submitted.length > 256) return 'mismatch';
      if (session.userId) return safeEqual(session.csrf, submitted) ? 'ok' : 'mismatch';
      return checkSignInToken(session.cookie, submitted);
    },

    /** Creates the signed-in session (new cookie, new CSRF token: no fixation); its row is the first one. */
    async signedIn(session: WebSession, userId: string): Promise<WebSession> {
      const next = { cookie: ids.secret(32), userId, csrf: ids.secret(24) };
      const now = clock.now();
      await store.transaction(async (repos) => {
        // A browser that signs in again replaces its previous session.
        await repos.webSessions.remove(sha256Hex(session.cookie));
        await repos.webSessions.insert(
          {
            idHash: sha256Hex(next.cookie),
            userId,
            csrf: next.csrf,
            expiresAt: new Date(now.getTime() + WEB_SESSION_SECONDS * 1000),
          },
          now,
        );
      });
      return next;
    },

    async signOut(session: WebSession): Promise<void> {
      await store.repos.webSessions.remove(sha256Hex(session.cookie));
    },
  };
}
