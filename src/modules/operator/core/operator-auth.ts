// The operator token's check (CONTRACT §3, §10): compared in constant time, and failed
// attempts are counted per client address: an address with too many wrong tokens is
// refused (429, Retry-After) for a while, right token or not, so the token cannot be
// guessed online. A right token costs one read; only failures write.
import { DomainError, unauthorized } from '../../../core/errors.ts';
import { safeEqual } from '../../../core/crypto/digest.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { readsOf, storeReads, type ReadsOf } from '../../../core/ports/store-slices.ts';
import './errors.ts';

export const OPERATOR_THROTTLE = {
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  maxFailuresPerAddress: 10,
};

const tooMany = (retryAfter: number) =>
  new DomainError(
    'too-many',
    'too-many-operator-attempts',
    `Too many wrong operator tokens from this address; try again in ${retryAfter} seconds`,
    { retryAfter },
    { 'retry-after': String(retryAfter) },
  );

const secondsUntil = (until: Date, nowMs: number) => Math.max(1, Math.ceil((until.getTime() - nowMs) / 1000));

/** Resolves when `token` is the operator token and `address` is not locked out; throws 401 or 429 otherwise. */
export type AuthenticateOperator = (token: string | null, address: string) => Promise<void>;

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const OPERATOR_AUTH_READS = storeReads(['throttle']);

export function createOperatorAuth(deps: { store: ReadsOf<typeof OPERATOR_AUTH_READS>; clock: Clock; expected: string }): AuthenticateOperator {
  const { clock, expected } = deps;
  const store = readsOf(deps.store, OPERATOR_AUTH_READS);
  const keyOf = (address: string) => `operator:${address}`;

  /** Resolves when `token` is the operator token and `address` is not locked out; throws 401 or 429 otherwise. */
  return async function authenticateOperator(token: string | null, address: string): Promise<void> {
    const now = clock.now();
    const key = keyOf(address);
    const row = await store.repos.throttle.get(key);
    if (row?.lockedUntil && row.lockedUntil > now) throw tooMany(secondsUntil(row.lockedUntil, now.getTime()));
    if (token !== null && safeEqual(token, expected)) return;
    const r = await store.repos.throttle.reserve(key, {
      now,
      windowCutoff: new Date(now.getTime() - OPERATOR_THROTTLE.windowSeconds * 1000),
      max: OPERATOR_THROTTLE.maxFailuresPerAddress,
      lockedUntil: new Date(now.getTime() + OPERATOR_THROTTLE.lockSeconds * 1000),
    });
    if (r.failures > OPERATOR_THROTTLE.maxFailuresPerAddress && r.lockedUntil) {
      throw tooMany(secondsUntil(r.lockedUntil, now.getTime()));
    }
    throw unauthorized('The operator token is missing or wrong');
  };
}
