// Password sign-in with throttling per account and per client address: after repeated
// failures the key is locked for a while and sign-in answers 429 with Retry-After.
import { DomainError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { PasswordHasher } from '../ports/crypto.ts';
import type { Store, UserRecord } from '../ports/repositories.ts';

export const THROTTLE = {
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  maxFailuresPerAccount: 5,
  maxFailuresPerAddress: 20,
};

export const invalidCredentials = () =>
  new DomainError('unauthorized', 'invalid-credentials', 'The e-mail address or the password is wrong');

export function createSignIn(deps: { store: Store; clock: Clock; hasher: PasswordHasher }) {
  const { store, clock, hasher } = deps;
  // Verified against when the e-mail is unknown, so timing does not reveal which accounts exist.
  const dummyHash = hasher.hash('scanbase-timing-equaliser');

  const keys = (email: string, address: string) => [
    { key: `account:${email.toLowerCase()}`, max: THROTTLE.maxFailuresPerAccount },
    { key: `address:${address}`, max: THROTTLE.maxFailuresPerAddress },
  ];

  async function assertNotLocked(email: string, address: string): Promise<void> {
    const now = clock.nowMs();
    for (const { key } of keys(email, address)) {
      const r = await store.repos.throttle.get(key);
      if (r?.lockedUntil && r.lockedUntil.getTime() > now) {
        const retryAfter = Math.ceil((r.lockedUntil.getTime() - now) / 1000);
        throw new DomainError(
          'too-many',
          'too-many-sign-in-attempts',
          `Too many failed sign-in attempts; try again in ${retryAfter} seconds`,
          { retryAfter },
          { 'retry-after': String(retryAfter) },
        );
      }
    }
  }

  async function recordFailure(email: string, address: string): Promise<void> {
    const now = clock.now();
    await store.transaction(async (repos) => {
      for (const { key, max } of keys(email, address)) {
        const r = await repos.throttle.get(key);
        const fresh = !r || now.getTime() - r.windowStart.getTime() > THROTTLE.windowSeconds * 1000;
        const failures = fresh ? 1 : r.failures + 1;
        await repos.throttle.put({
          key,
          failures,
          windowStart: fresh ? now : r.windowStart,
          lockedUntil: failures >= max ? new Date(now.getTime() + THROTTLE.lockSeconds * 1000) : null,
        });
      }
    });
  }

  // Attempts on one account run one at a time (per process): otherwise concurrent guesses
  // all pass the lock check while the first ones are still being verified, and a burst
  // of N parallel attempts gets N guesses instead of maxFailuresPerAccount.
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (queues.get(key) ?? Promise.resolve()).then(fn);
    const tail = run.catch(() => undefined);
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return run;
  }

  return (email: string, password: string, address: string): Promise<UserRecord> =>
    oneAtATime(`account:${email.toLowerCase()}`, () => attempt(email, password, address));

  async function attempt(email: string, password: string, address: string): Promise<UserRecord> {
    await assertNotLocked(email, address);
    const user = email.length <= 320 ? await store.repos.users.byEmail(email) : null;
    const ok = user?.passwordHash
      ? await hasher.verify(user.passwordHash, password)
      : (await hasher.verify(await dummyHash, password), false);
    if (!user || !ok) {
      await recordFailure(email, address);
      throw invalidCredentials();
    }
    await store.repos.throttle.clear(`account:${email.toLowerCase()}`);
    return user;
  }
}

export type SignIn = ReturnType<typeof createSignIn>;
