// Accepting an invitation: the link in the e-mail lets a new user set a password
// (single use, 7 days), after which he signs in through the OAuth flow. The same one-time
// links, with purpose 'reset', carry "Forgot password?" (password-resets.ts, 1 hour): those
// replace an existing password and spend his other reset links. Setting a password through
// either ends every session of the user in the same transaction (oauth endEverySession:
// browser sign-ins, refresh tokens, codes, and access tokens issued until then).
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { redactSpentSecret, type MailRepos } from '../../mail/index.ts';
import { endEverySession, type OauthRepos } from '../../oauth/index.ts';
import { joinAccount } from './account-invitations.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { PasswordHasher } from '../../../core/ports/crypto.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { InvitationPurpose, UsersRepos } from './ports.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

const invalidLink = () =>
  new DomainError('not-found', 'invitation-not-found', 'This invitation link is invalid, expired or already used');

/** The invitation and password-reset links: what a link stands for, and setting the password. */
export interface Invitations {
  /** The e-mail the link is for, and what it does; 404 when the link is not usable. */
  pending(token: string): Promise<{ email: string; purpose: InvitationPurpose }>;
  /** Sets the password (and the names of an invited user) and uses the link up. */
  accept(token: string, input: { password: string; firstName?: string; lastName?: string }): Promise<{ email: string }>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const INVITATIONS_STORE = storeUseOf<Repos & AccountsRepos & MailRepos & UsersRepos & OauthRepos>()({ reads: ['invitations', 'users'], writes: ['accountInvitations', 'accounts', 'events', 'invitations', 'oauth', 'outbox', 'users'] });

export function createInvitations(deps: { store: SliceOf<typeof INVITATIONS_STORE, Repos & AccountsRepos & MailRepos & UsersRepos & OauthRepos>; clock: Clock; hasher: PasswordHasher }): Invitations {
  const { clock, hasher } = deps;
  const store = sliceOf(deps.store, INVITATIONS_STORE);
  return {
    /** The e-mail the link is for, and what it does; 404 when the link is not usable. */
    async pending(token: string): Promise<{ email: string; purpose: InvitationPurpose }> {
      const inv = token.length <= 128 ? await store.repos.invitations.byTokenHash(sha256Hex(token)) : null;
      if (!inv || inv.usedAt || inv.expiresAt.getTime() <= clock.nowMs()) throw invalidLink();
      const user = await store.repos.users.byId(inv.userId);
      // A set-password link only sets a first password: once the user has one (through
      // another invitation, or the seed), it would reset it without the current one.
      if (!user || (inv.purpose === 'set-password' && user.passwordHash)) throw invalidLink();
      return { email: user.email, purpose: inv.purpose };
    },

    async accept(token: string, input: { password: string; firstName?: string; lastName?: string }) {
      if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX) {
        throw invalidInput(`The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, { field: 'password' });
      }
      if (token.length > 128) throw invalidLink();
      const passwordHash = await hasher.hash(input.password);
      return store.transaction(async (repos) => {
        const inv = await repos.invitations.consume(sha256Hex(token), clock.now());
        if (!inv) throw invalidLink();
        // Spent: the outbox's copy of the link is of no more use to anyone.
        await redactSpentSecret(repos, token);
        // Locked, so two links of one user accepted at once cannot both set a password.
        await repos.users.lock(inv.userId);
        const now = clock.now();
        if (inv.purpose === 'reset') {
          // The old password may be known to someone else: no other reset link works.
          await repos.invitations.spendUnused(inv.userId, 'reset', now);
        } else if ((await repos.users.byId(inv.userId))?.passwordHash) throw invalidLink();
        // Whoever held a session of his (a stolen cookie, a refresh token, an access token) is out.
        await endEverySession(repos, inv.userId, now);
        // The link of an account's invitation accepts that invitation: he followed it by choice.
        if (inv.accountId) await joinAccount(repos, inv.accountId, inv.userId, now);
        await repos.users.update(
          inv.userId,
          {
            passwordHash,
            firstName: input.firstName?.trim() || undefined,
            lastName: input.lastName?.trim() || undefined,
          },
          now,
        );
        await repos.events.publish(eventOf('user.password-set', inv.accountId, subjectOf('user', inv.userId), { userId: inv.userId, purpose: inv.purpose }), now);
        const user = await repos.users.byId(inv.userId);
        return { email: user!.email };
      });
    },
  };
}
