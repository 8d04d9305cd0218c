// "Forgot password?" (docs/security.md "Forgot password"): anyone may ask for a reset link
// for an e-mail address. The answer is the same whether an account has that address or
// not (no account enumeration); only a known address gets a mail, holding a one-time link
// (the invitation mechanism, purpose 'reset') valid for one hour. Requests are throttled
// per address and per client IP, counted before anything is looked up, cluster-wide (the
// sign-in throttle's rows), so a refused request looks the same for every address too.
import { DomainError } from '../errors.ts';
import { sha256Hex } from '../crypto/digest.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { SendMail } from '../mail/index.ts';
import type { StoreSlice } from '../ports/store-slices.ts';

export const PASSWORD_RESET = {
  /** The link's lifetime. */
  linkSeconds: 3600,
  /** Requests for one e-mail address (from anywhere) per window. */
  maxPerEmail: 3,
  /** Requests from one client IP (whatever the addresses) per window. */
  maxPerAddress: 10,
  /** The window and the lock after the limit: 15 minutes (the janitor keeps throttle rows that long). */
  windowSeconds: 15 * 60,
};

export const tooManyResetRequests = (retryAfter: number) =>
  new DomainError(
    'too-many',
    'too-many-password-reset-requests',
    `Too many password reset requests; try again in ${retryAfter} seconds`,
    { retryAfter },
    { 'retry-after': String(retryAfter) },
  );

/** "Forgot password?": a reset link by mail, without saying whether the address is known. */
export interface PasswordResets {
  /**
   * Mails a one-time reset link when a user has this e-mail address; answers nothing
   * either way (the caller shows one page for both). Throws 429 when throttled.
   */
  request(email: string, address: string): Promise<void>;
}

export function createPasswordResets(deps: { store: StoreSlice<never>; clock: Clock; ids: Ids; sendMail: SendMail; publicUrl: string }): PasswordResets {
  const { store, clock, ids, sendMail, publicUrl } = deps;

  /** Counts the request against the e-mail and the client IP; throws 429 (counting nothing) when either is over its limit. */
  async function reserve(email: string, address: string): Promise<void> {
    const now = clock.now();
    const windowCutoff = new Date(now.getTime() - PASSWORD_RESET.windowSeconds * 1000);
    const lockedUntil = new Date(now.getTime() + PASSWORD_RESET.windowSeconds * 1000);
    const limits = [
      { key: `reset-email:${email.toLowerCase()}`, max: PASSWORD_RESET.maxPerEmail },
      { key: `reset-address:${address}`, max: PASSWORD_RESET.maxPerAddress },
    ];
    await store.transaction(async (repos) => {
      for (const { key, max } of limits) {
        const r = await repos.throttle.reserve(key, { now, windowCutoff, max, lockedUntil });
        if (r.failures > max) {
          const until = r.lockedUntil?.getTime() ?? lockedUntil.getTime();
          throw tooManyResetRequests(Math.max(1, Math.ceil((until - now.getTime()) / 1000)));
        }
      }
    });
  }

  return {
    /**
     * Mails a one-time reset link when a user has this e-mail address; answers nothing
     * either way (the caller shows one page for both). Throws 429 when throttled.
     */
    async request(email: string, address: string): Promise<void> {
      const normalized = email.trim();
      await reserve(normalized, address);
      if (normalized.length > 320 || !normalized.includes('@')) return;
      await store.transaction(async (repos) => {
        const user = await repos.users.byEmail(normalized);
        if (!user) return;
        const token = ids.secret(32);
        const now = clock.now();
        const expiresAt = new Date(now.getTime() + PASSWORD_RESET.linkSeconds * 1000);
        await repos.invitations.insert({ tokenHash: sha256Hex(token), userId: user.id, accountId: null, expiresAt, purpose: 'reset' }, now);
        const link = `${publicUrl}/password-reset/${token}`;
        await sendMail(repos, {
          to: user.email,
          subject: 'Reset your Scanbase password',
          text:
            `Someone (hopefully you) asked to reset the password of ${user.email} on Scanbase.\n\n` +
            `Choose a new password: ${link}\n\nThe link works once, for 1 hour. If you did not ask, ignore this mail: ` +
            'your password stays as it is.',
          links: [link],
          secret: token,
        });
      });
    },
  };
}
