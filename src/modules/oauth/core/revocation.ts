// Evicting every session of a user (docs/security.md "Evicting every session"): each user
// has a revocation point, his "valid after" (users.tokens_valid_after). Ending his sessions
// moves it to now and, in the same statement, deletes his browser sessions, revokes his
// refresh tokens and spends his unused authorization codes; from then on an access token
// issued at or before that second is refused where tokens are authenticated (the token
// service, through its per-node cache of users, dropped on every node by the event the
// caller publishes). Callers: a password set through a link (the users module's invitations), reset or
// cleared (the administration command), changed by a seed, "sign out everywhere" (below);
// and, for the issues to come, a user's removal from the platform (SCIM deactivation).
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { OauthRepos } from './ports.ts';

/** The second up to which (included) a user's access tokens are revoked; null when none are. */
export const revokedUpTo = (tokensValidAfter: Date | null): number | null =>
  tokensValidAfter === null ? null : Math.floor(tokensValidAfter.getTime() / 1000);

/**
 * The rule of the bearer check: a token issued at `issuedAt` (its `iat`, seconds) outlives
 * the revocation when it was issued in a later second. A token of the revocation's own
 * second is refused, since it may have been issued just before it (an attacker refreshing
 * in a loop); `firstIssuableSecond` keeps tokens issued after it out of that second.
 */
export const tokenOutlivesRevocation = (issuedAt: number, upTo: number | null): boolean => upTo === null || issuedAt > upTo;

/**
 * The `iat` a token issued now gets: now, or the second after the user's revocation when
 * that is later (a sign-in right after "sign out everywhere", in the same second).
 */
export const firstIssuableSecond = (nowSeconds: number, upTo: number | null): number =>
  upTo === null ? nowSeconds : Math.max(nowSeconds, upTo + 1);

/**
 * Ends every session of the user in the caller's transaction: his revocation point becomes
 * `now`, his browser sessions, refresh tokens and unused codes end. The caller publishes the
 * event of the change (its `user:<id>` scope drops the user from every node's bearer cache).
 */
export async function endEverySession(repos: Pick<OauthRepos, 'oauth'>, userId: string, now: Date): Promise<void> {
  await repos.oauth.endUserSessions(userId, now);
}

/** "Sign out everywhere" (the account page, API 2 `POST /api/2/me/sign-out-everywhere`). */
export interface Revocation {
  /**
   * Ends every session of the user: browser sign-ins, refresh tokens, codes, and (from the
   * next request, on every node) every access token issued until now, the caller's own.
   */
  signOutEverywhere(userId: string): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const REVOCATION_STORE = storeUseOf<Repos & OauthRepos>()({ reads: ['oauth', 'users'], writes: ['events', 'oauth', 'users'] });

export function createRevocation(deps: { store: SliceOf<typeof REVOCATION_STORE, Repos & OauthRepos>; clock: Clock }): Revocation {
  const { clock } = deps;
  const store = sliceOf(deps.store, REVOCATION_STORE);
  return {
    async signOutEverywhere(userId: string): Promise<void> {
      await store.transaction(async (repos) => {
        // The lock every token issuance takes: no pair is half-issued across the revocation.
        if (!(await repos.users.lock(userId))) return;
        const now = clock.now();
        await endEverySession(repos, userId, now);
        await repos.events.publish(eventOf('user.signed-out-everywhere', null, subjectOf('user', userId), { userId }), now);
      });
    },
  };
}
