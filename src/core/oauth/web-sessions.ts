// Browser sessions of the authorize pages: an opaque cookie value (only its hash is
// stored) and a CSRF token every form post must echo.
import { safeEqual, sha256Hex } from '../crypto/digest.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { Store, WebSessionRecord } from '../ports/repositories.ts';

export const WEB_SESSION_SECONDS = 12 * 3600;

export interface WebSession {
  cookie: string;
  userId: string | null;
  csrf: string;
}

export function createWebSessions(deps: { store: Store; clock: Clock; ids: Ids }) {
  const { store, clock, ids } = deps;
  return {
    /** The session behind a cookie, or a new anonymous one. */
    async resume(cookie: string | undefined): Promise<WebSession> {
      if (cookie && cookie.length <= 128) {
        const rec: WebSessionRecord | null = await store.repos.webSessions.byIdHash(sha256Hex(cookie), clock.now());
        if (rec) return { cookie, userId: rec.userId, csrf: rec.csrf };
      }
      const fresh = { cookie: ids.secret(32), userId: null, csrf: ids.secret(24) };
      const now = clock.now();
      await store.repos.webSessions.insert(
        {
          idHash: sha256Hex(fresh.cookie),
          userId: null,
          csrf: fresh.csrf,
          expiresAt: new Date(now.getTime() + WEB_SESSION_SECONDS * 1000),
        },
        now,
      );
      return fresh;
    },
    checkCsrf(session: WebSession, submitted: unknown): boolean {
      return typeof submitted === 'string' && safeEqual(session.csrf, submitted);
    },
    /** Replaces the anonymous session by a signed-in one (new cookie, new CSRF token: no fixation). */
    async signedIn(session: WebSession, userId: string): Promise<WebSession> {
      const next = { cookie: ids.secret(32), userId, csrf: ids.secret(24) };
      const now = clock.now();
      await store.transaction(async (repos) => {
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

export type WebSessions = ReturnType<typeof createWebSessions>;
