// The limits module's repository port (its SQL: src/modules/limits/postgres/rate-limits.ts).
/** Cluster-wide counts of rate-limit tokens taken, per bucket key (rate-limits.ts). */
export interface RateLimitsRepo {
  /**
   * Adds each key's `n` to its count (stamped `now`), then answers every count changed at
   * or after `since`, by any node.
   */
  exchange(taken: { key: string; n: number }[], now: Date, since: Date): Promise<{ key: string; taken: number }[]>;
  /** Deletes the counts unchanged since `before`. */
  prune(before: Date): Promise<number>;
}
