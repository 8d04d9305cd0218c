// Password sign-in with throttling per account and per client address: after repeated
// failures the key is locked for a while and sign-in answers 429 with Retry-After. Every
// attempt is counted in the database before its password is checked (one conditional
// UPSERT per key), so the limits hold across concurrent requests on every node.
import { DomainError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { PasswordHasher } from '../ports/crypto.ts';
import type { Store, ThrottleReservation, UserRecord } from '../ports/repositories.ts';

export const THROTTLE = {
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  maxFailuresPerAccount: 5,
  maxFailuresPerAddress: 20,
};

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

interface Limit {
  key: string;
  max: number;
}

export function createSignIn(deps: { store: Store; clock: Clock; hasher: PasswordHasher }) {
  const { store, clock, hasher } = deps;
  // Verified against when the e-mail is unknown, so timing does not reveal which accounts exist.
  const dummyHash = hasher.hash('scanbase-timing-equaliser');

  const accountKey = (email: string) => `account:${email.toLowerCase()}`;
  const limits = (email: string, address: string): Limit[] => [
    { key: accountKey(email), max: THROTTLE.maxFailuresPerAccount },
    { key: `address:${address}`, max: THROTTLE.maxFailuresPerAddress },
  ];

  /**
   * Counts the attempt as a failure, for every key, before the password is checked: of N
   * concurrent attempts at most `max` get through. When a key is locked the transaction
   * rolls back (a refused attempt counts nothing) and sign-in answers 429.
   */
  function reserve(email: string, address: string): Promise<(Limit & ThrottleReservation)[]> {
    const now = clock.now();
    const windowCutoff = new Date(now.getTime() - THROTTLE.windowSeconds * 1000);
    const lockedUntil = new Date(now.getTime() + THROTTLE.lockSeconds * 1000);
    return store.transaction(async (repos) => {
      const out: (Limit & ThrottleReservation)[] = [];
      for (const limit of limits(email, address)) {
        const r = await repos.throttle.reserve(limit.key, { now, windowCutoff, max: limit.max, lockedUntil });
        if (r.failures > limit.max) {
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
    const user = email.length <= 320 ? await store.repos.users.byEmail(email) : null;
    const ok = user?.passwordHash
      ? await hasher.verify(user.passwordHash, password)
      : (await hasher.verify(await dummyHash, password), false);
    // A failure is already counted.
    if (!user || !ok) throw invalidCredentials();
    // Success clears the e-mail's counter and gives the attempt back to the address.
    await store.transaction(async (repos) => {
      for (const r of reserved) {
        if (r.key.startsWith('account:')) await repos.throttle.clear(r.key);
        else await repos.throttle.refund(r.key, r.windowStart, r.max);
      }
    });
    return user;
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
