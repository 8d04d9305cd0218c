// "Forgot password?" (docs/security.md "Forgot password"): anyone may ask for a reset link
// for an e-mail address. The answer is the same whether an account has that address or
// not (no account enumeration), in content and in time: the request only counts the
// throttle and queues a job, the same statements for every address; the job looks the
// address up and, for a known one, writes a one-time link (the invitation mechanism,
// purpose 'reset', valid for one hour) and its mail, off the request path. Requests are
// throttled per address and per client IP, counted before anything else, cluster-wide
// (the sign-in throttle's rows), so a refused request looks the same for every address too.
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { JobRecord } from '../../../core/ports/job-handler.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { MailRepos, SendMail } from '../../mail/index.ts';
import type { JobHandler, JobRunner } from '../../jobs/index.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { JobsRepos } from '../../jobs/index.ts';
import type { UsersRepos } from './ports.ts';

/** The job a reset request queues: `{email}`, looked up and mailed by `PasswordResets.handler`. */
export const RESET_MAIL_JOB = 'password-reset-mail';

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
   * Queues the reset of this e-mail address (a mail with a one-time link when a user has
   * it); answers nothing either way, in the same time (the caller shows one page for both).
   * Throws 429 when throttled.
   */
  request(email: string, address: string): Promise<void>;
  /** The queued reset's job: looks the address up; a known one gets its link and mail. */
  handler: JobHandler;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const PASSWORD_RESETS_STORE = storeUseOf<Repos & JobsRepos & MailRepos & UsersRepos>()({ reads: [], writes: ['events', 'invitations', 'jobs', 'outbox', 'throttle', 'users'] });

export function createPasswordResets(deps: {
  store: SliceOf<typeof PASSWORD_RESETS_STORE, Repos & JobsRepos & MailRepos & UsersRepos>;
  clock: Clock;
  ids: Ids;
  sendMail: SendMail;
  jobs: Pick<JobRunner, 'enqueue'>;
  publicUrl: string;
}): PasswordResets {
  const { clock, ids, sendMail, jobs, publicUrl } = deps;
  const store = sliceOf(deps.store, PASSWORD_RESETS_STORE);

  /**
   * Counts the request against the e-mail and the client IP, in the caller's transaction;
   * throws 429 when either is over its limit (the transaction, and so the count, is undone).
   */
  async function reserve(repos: Pick<Repos, 'throttle'>, email: string, address: string): Promise<void> {
    const now = clock.now();
    const windowCutoff = new Date(now.getTime() - PASSWORD_RESET.windowSeconds * 1000);
    const lockedUntil = new Date(now.getTime() + PASSWORD_RESET.windowSeconds * 1000);
    const limits = [
      { key: `reset-email:${email.toLowerCase()}`, max: PASSWORD_RESET.maxPerEmail },
      { key: `reset-address:${address}`, max: PASSWORD_RESET.maxPerAddress },
    ];
    for (const { key, max } of limits) {
      const r = await repos.throttle.reserve(key, { now, windowCutoff, max, lockedUntil });
      if (r.failures > max) {
        const until = r.lockedUntil?.getTime() ?? lockedUntil.getTime();
        throw tooManyResetRequests(Math.max(1, Math.ceil((until - now.getTime()) / 1000)));
      }
    }
  }

  /** The link and its mail for a known address; nothing for an unknown one. */
  async function mailLink(job: JobRecord): Promise<void> {
    const email = typeof job.payload.email === 'string' ? job.payload.email : '';
    await store.transaction(async (repos) => {
      const user = await repos.users.byEmail(email);
      if (!user) return;
      const token = ids.secret(32);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + PASSWORD_RESET.linkSeconds * 1000);
      await repos.invitations.insert({ tokenHash: sha256Hex(token), userId: user.id, accountId: null, expiresAt, purpose: 'reset' }, now);
      await repos.events.publish(eventOf('user.password-reset-requested', null, subjectOf('user', user.id), { userId: user.id }), now);
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
  }

  return {
    /**
     * Queues the reset of this e-mail address (a mail with a one-time link when a user has
     * it); answers nothing either way, in the same time (the caller shows one page for both).
     * Throws 429 when throttled.
     */
    async request(email: string, address: string): Promise<void> {
      const normalized = email.trim();
      const plausible = normalized.length <= 320 && normalized.includes('@');
      await store.transaction(async (repos) => {
        await reserve(repos, normalized, address);
        // Queued without a kick: the node's runner picks it up at its next poll (a second at
        // most), not right after this answer, where its work would time the next request.
        if (plausible) await jobs.enqueue(repos, { kind: RESET_MAIL_JOB, payload: { email: normalized }, createdBy: null });
      });
    },

    handler: {
      async run(job) {
        await mailLink(job);
        return null; // never whether the address was known: the job's row says nothing about it
      },
    },
  };
}
