// Request rate limits of API 1 and API 2 (docs/security.md "Rate limits"): a token bucket
// per caller address and one per user. Each bucket holds at most `burst` tokens, refills
// at `rate` tokens a second, and a request takes one; an empty bucket answers 429 with
// Retry-After (the seconds until a token is back).
//
// Buckets live in this node's memory (the hot path is a Map lookup, no database round
// trip). Nodes share what they take through the database every `syncSeconds`: each node
// adds its takes to a per-key cluster count and takes the other nodes' takes out of its
// own buckets. So over any period T a key gets at most rate × T + N × (burst + rate × S)
// requests across N nodes syncing every S seconds (each node may spend a full bucket, and
// what it takes until the next exchange, before it hears of the others); a single node is exact.
import { DomainError } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { RateLimitsRepo } from './ports.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';

export interface BucketRule {
  /** Tokens a second; 0 turns this limit off. */
  rate: number;
  /** The bucket's size: requests allowed at once after a quiet period. */
  burst: number;
}

export interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

/** The bucket refilled up to `now`, never above `burst`. */
export function refill(b: Bucket, rule: BucketRule, now: number): void {
  if (now > b.at) {
    b.tokens = Math.min(rule.burst, b.tokens + ((now - b.at) / 1000) * rule.rate);
    b.at = now;
  }
}

/** Takes one token: 0 when granted, else the whole seconds until one is back (at least 1). */
export function take(b: Bucket, rule: BucketRule, now: number): number {
  refill(b, rule, now);
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - b.tokens) / rule.rate));
}

export const tooManyRequests = (retryAfter: number) =>
  new DomainError(
    'too-many',
    'too-many-requests',
    `Too many requests; try again in ${retryAfter} seconds`,
    { retryAfter },
    { 'retry-after': String(retryAfter) },
  );

interface Entry extends Bucket {
  rule: BucketRule;
  /** Tokens taken here and not yet added to the cluster count. */
  pending: number;
  /** The cluster count at the last exchange (this node's takes included); undefined before the first. */
  seen: number | undefined;
}

export interface RateLimiterDeps {
  clock: Clock;
  repo: RateLimitsRepo;
  user: BucketRule;
  address: BucketRule;
  syncSeconds: number;
  /** Buckets kept per node at most; beyond, the oldest goes (it restarts full). */
  maxBuckets?: number;
}

/** Cluster counts unchanged for this long are deleted (every bucket is full again long before). */
const PRUNE_AFTER_MS = 3600 * 1000;

/** The API rate limits of this node: token buckets per user and per client address, exchanged with the other nodes by sync(). */
export interface RateLimiter {
  /** Whether each limit is on (a rate of 0 turns it off). */
  enabled: { user: boolean; address: boolean };
  /**
   * Throws 429 when the caller's address has no token left. `now` (ms, from the limiter's
   * clock) lets one request read the clock once for both charges (a clock read costs about
   * as much as the rest of a charge); by default the clock is read.
   */
  address(ip: string, now?: number): void;
  /** Throws 429 when the user has no token left; `now` as for address(). */
  user(userId: string, now?: number): void;
  /**
   * The exchange with the other nodes: adds this node's takes to the cluster counts,
   * takes the other nodes' takes out of the local buckets, forgets full idle buckets.
   * On failure the takes stay pending for the next exchange.
   */
  sync(): Promise<void>;
  /** Buckets held on this node (tests, diagnostics). */
  readonly size: number;
}

export function createRateLimiter(deps: RateLimiterDeps): RateLimiter {
  const { clock, repo, user, address } = deps;
  const maxBuckets = deps.maxBuckets ?? 200_000;
  // One map per kind, keyed by the bare address or user id: no key string is built per
  // request; the kind's prefix ("a:", "u:") is added only for the cluster counts.
  const kinds = [
    { prefix: 'a:', rule: address, buckets: new Map<string, Entry>() },
    { prefix: 'u:', rule: user, buckets: new Map<string, Entry>() },
  ] as const;
  const [byAddress, byUser] = kinds;
  let lastExchange: number | null = null;

  function takeFor(buckets: Map<string, Entry>, key: string, rule: BucketRule, now: number): number {
    let e = buckets.get(key);
    if (e === undefined) {
      if (buckets.size >= maxBuckets) buckets.delete(buckets.keys().next().value!);
      e = { tokens: rule.burst, at: now, rule, pending: 0, seen: undefined };
      buckets.set(key, e);
    }
    const wait = take(e, rule, now);
    if (wait === 0) e.pending++;
    return wait;
  }

  /** The entry behind a cluster key ("a:…" or "u:…"). */
  const entryOf = (clusterKey: string): Entry | undefined =>
    (clusterKey.startsWith(byAddress.prefix) ? byAddress : byUser).buckets.get(clusterKey.slice(2));

  return {
    /** Whether each limit is on (a rate of 0 turns it off). */
    enabled: { user: user.rate > 0, address: address.rate > 0 },

    address(ip: string, now = clock.nowMs()): void {
      const wait = takeFor(byAddress.buckets, ip, address, now);
      if (wait > 0) throw tooManyRequests(wait);
    },

    user(userId: string, now = clock.nowMs()): void {
      const wait = takeFor(byUser.buckets, userId, user, now);
      if (wait > 0) throw tooManyRequests(wait);
    },

    /**
     * The exchange with the other nodes: adds this node's takes to the cluster counts,
     * takes the other nodes' takes out of the local buckets, forgets full idle buckets.
     * On failure the takes stay pending for the next exchange.
     */
    async sync(): Promise<void> {
      const now = clock.nowMs();
      const sent = new Map<string, number>();
      for (const kind of kinds) {
        for (const [key, e] of kind.buckets) {
          if (e.pending > 0) {
            sent.set(kind.prefix + key, e.pending);
            e.pending = 0;
          }
        }
      }
      // Counts other nodes changed since the previous exchange, with a margin for clock
      // differences between nodes (re-reading a count changes nothing: `seen` moves with it).
      const margin = 2 * deps.syncSeconds * 1000 + 1000;
      const since = new Date((lastExchange ?? now) - margin);
      let rows: { key: string; taken: number }[];
      try {
        rows = await repo.exchange([...sent].map(([key, n]) => ({ key, n })), new Date(now), since);
      } catch (e) {
        for (const [key, n] of sent) {
          const entry = entryOf(key);
          if (entry) entry.pending += n;
        }
        throw e;
      }
      lastExchange = now;
      for (const row of rows) {
        const e = entryOf(row.key);
        if (!e) continue;
        if (e.seen !== undefined) {
          const others = row.taken - e.seen - (sent.get(row.key) ?? 0);
          if (others > 0) {
            refill(e, e.rule, now);
            e.tokens -= others;
          }
        }
        e.seen = row.taken;
      }
      for (const kind of kinds) {
        for (const [key, e] of kind.buckets) {
          refill(e, e.rule, now);
          if (e.pending === 0 && e.tokens >= e.rule.burst) kind.buckets.delete(key);
        }
      }
      await repo.prune(new Date(now - PRUNE_AFTER_MS));
    },

    /** Buckets held on this node (tests, diagnostics). */
    get size(): number {
      return byAddress.buckets.size + byUser.buckets.size;
    },
  };
}

/**
 * The exchange with the other nodes every `syncSeconds` (only when a limit is on). A failed
 * exchange keeps its takes pending for the next one; until then this node limits alone.
 */
export function rateLimitExchange(limiter: RateLimiter, syncSeconds: number): PeriodicTask {
  return {
    name: 'rate-limit-exchange', everySeconds: syncSeconds, atStart: false, run: () => limiter.sync(),
    failure: { level: 'warn', message: 'rate-limit exchange failed; its takes are kept for the next one' },
  };
}
