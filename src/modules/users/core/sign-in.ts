// Password sign-in with throttling (docs/security.md, "Secrets and keys"). Failures are
// counted per (account, client address), per address and per account, each attempt before
// its password is checked (one conditional UPSERT per key), so the limits hold across
// concurrent requests on every node:
// - 5 failures for one account from one address lock that pair for 15 minutes (429 with
//   Retry-After): the guessing address is stopped, the owner elsewhere is not;
// - 20 failures from one address, whatever the accounts, lock the address for 15 minutes;
// - failures for one account from every address only slow its sign-ins down (a delay
//   growing with the count), never refuse them: nobody can lock the owner out by
//   failing on purpose, and a guesser spread over many addresses gets ever slower answers.
import { setTimeout as sleepMs } from 'node:timers/promises';
import { DomainError } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { PasswordHasher } from '../../../core/ports/crypto.ts';
import type { ThrottleReservation, UserRecord } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUse, type SliceOf } from '../../../core/ports/store-slices.ts';
import { noteSignedIn } from '../../../core/permissions/decisions.ts';

export const THROTTLE = {
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  maxFailuresPerAccountAndAddress: 5,
  maxFailuresPerAddress: 20,
  /** Failures for one account (all addresses) answered without delay. */
  freeFailuresPerAccount: 5,
  /** The delay after that: 250 ms for the 6th failure, doubling, at most 8 s. */
  firstDelayMs: 250,
  maxDelayMs: 8_000,
};

/** How long an attempt waits when the account has `failures` failures in its window (pure). */
export function accountDelayMs(failures: number): number {
  const over = failures - THROTTLE.freeFailuresPerAccount;
  if (over <= 0) return 0;
  return Math.min(THROTTLE.maxDelayMs, THROTTLE.firstDelayMs * 2 ** Math.min(over - 1, 16));
}

export const invalidCredentials = () =>
  new DomainError('unauthorized', 'invalid-credentials', 'The e-mail address or the password is wrong');

const tooMany = (retryAfter: number) =>
  new DomainError(
    'too-many',
    'too-many-sign-in-attempts',
    `Too many failed sign-in attempts; try again in ${retryAfter} seconds`,
    { retryAfter },
    { 'retry-after': String(retryAfter) },
  );

type KeyKind = 'pair' | 'address' | 'account';

interface Limit {
  kind: KeyKind;
  key: string;
  /** Counts at which the key locks; null: never locks (it only slows down). */
  max: number | null;
}

/**
 * Checks an e-mail and password for the sign-in page, throttled per address and per
 * account; answers the user or throws 401 (wrong pair) or 429 (throttled).
 */
export type SignIn = (email: string, password: string, address: string) => Promise<UserRecord>;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SIGN_IN_STORE = storeUse({ reads: ['users'], writes: ['throttle'] });

export function createSignIn(deps: {
  store: SliceOf<typeof SIGN_IN_STORE>;
  clock: Clock;
  hasher: PasswordHasher;
  /** Waits (real time); injected by tests. */
  sleep?: (ms: number) => Promise<unknown>;
}): SignIn {
  const { clock, hasher } = deps;
  const store = sliceOf(deps.store, SIGN_IN_STORE);
  const sleep = deps.sleep ?? sleepMs;
  // Verified against when the e-mail is unknown, so timing does not reveal which accounts exist.
  const dummyHash = hasher.hash('scanbase-timing-equaliser');

  const limits = (email: string, address: string): Limit[] => {
    const account = email.toLowerCase();
    return [
      { kind: 'pair', key: `account-address:${address}|${account}`, max: THROTTLE.maxFailuresPerAccountAndAddress },
      { kind: 'address', key: `address:${address}`, max: THROTTLE.maxFailuresPerAddress },
      { kind: 'account', key: `account:${account}`, max: null },
    ];
  };

  /**
   * Counts the attempt as a failure, for every key, before the password is checked: of N
   * concurrent attempts from one address at most `max` get through. When a key is locked
   * the transaction rolls back (a refused attempt counts nothing) and sign-in answers 429.
   */
  function reserve(email: string, address: string): Promise<(Limit & ThrottleReservation)[]> {
    const now = clock.now();
    const windowCutoff = new Date(now.getTime() - THROTTLE.windowSeconds * 1000);
    const lockedUntil = new Date(now.getTime() + THROTTLE.lockSeconds * 1000);
    return store.transaction(async (repos) => {
      const out: (Limit & ThrottleReservation)[] = [];
      for (const limit of limits(email, address)) {
        const r = await repos.throttle.reserve(limit.key, { now, windowCutoff, max: limit.max, lockedUntil });
        if (limit.max !== null && r.failures > limit.max) {
          const until = r.lockedUntil?.getTime() ?? lockedUntil.getTime();
          throw tooMany(Math.max(1, Math.ceil((until - now.getTime()) / 1000)));
        }
        out.push({ ...limit, ...r });
      }
      return out;
    });
  }

  return async function signIn(email: string, password: string, address: string): Promise<UserRecord> {
    const reserved = await reserve(email, address);
    // This attempt is counted already: the failures before it set the delay.
    const accountFailures = reserved.find((r) => r.kind === 'account')!.failures - 1;
    const delay = accountDelayMs(accountFailures);
    if (delay > 0) await sleep(delay);
    const user = email.length <= 320 ? await store.repos.users.byEmail(email) : null;
    const ok = user?.passwordHash
      ? await hasher.verify(user.passwordHash, password)
      : (await hasher.verify(await dummyHash, password), false);
    // A failure is already counted.
    if (!user || !ok) throw invalidCredentials();
    // Success clears the pair's and the account's counters and gives the attempt back to the address.
    await store.transaction(async (repos) => {
      for (const r of reserved) {
        if (r.kind === 'address') await repos.throttle.refund(r.key, r.windowStart, r.max!);
        else await repos.throttle.clear(r.key);
      }
    });
    noteSignedIn(user.id);
    return user;
  };
}
