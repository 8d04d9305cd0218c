// Whether the user an access token names still exists, cached per node so that the bearer
// hot path costs no query: at most one lookup per user per lifetime (concurrent misses
// share it), bounded (the oldest entry goes first), and dropped when a change is
// published for the user ("user:<id>") or for everything ("*", a reset).
//
// "Absent" is remembered with the time of the lookup, and does not apply to a token issued
// at or after it: issuing a token needs the user, so such a token proves the user exists
// again (a seed re-creating a fixed id after a reset), and gets a fresh lookup.
interface Entry {
  exists: boolean;
  until: number;
  /** Seconds since the epoch at which the lookup started. */
  checkedAt: number;
}

export class KnownUsers {
  private readonly entries = new Map<string, Entry>();
  /** Lookups in flight; an invalidation removes them, so what they read is answered but not kept. */
  private readonly loading = new Map<string, Promise<boolean>>();

  private readonly lookup: (userId: string) => Promise<boolean>;
  private readonly nowMs: () => number;
  private readonly maxEntries: number;
  private readonly ttlMs: number;

  constructor(lookup: (userId: string) => Promise<boolean>, nowMs: () => number, maxEntries = 50_000, ttlMs = 60_000) {
    this.lookup = lookup;
    this.nowMs = nowMs;
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
  }

  /**
   * The cached answer (synchronously, on a hit), or a lookup shared by every concurrent
   * caller. `issuedAt` (seconds) is the token's `iat`.
   */
  exists(userId: string, issuedAt = 0): boolean | Promise<boolean> {
    const hit = this.peek(userId, issuedAt);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(userId);
    if (pending) return pending;
    const checkedAt = Math.floor(this.nowMs() / 1000);
    const load = this.lookup(userId).then(
      (exists) => {
        if (this.loading.get(userId) === load) {
          this.loading.delete(userId);
          this.put(userId, { exists, until: this.nowMs() + this.ttlMs, checkedAt });
        }
        return exists;
      },
      (e: unknown) => {
        if (this.loading.get(userId) === load) this.loading.delete(userId);
        throw e;
      },
    );
    this.loading.set(userId, load);
    return load;
  }

  /**
   * The cached answer for a token issued at `issuedAt`, or undefined when a lookup is needed
   * (never starts one). `now`: the clock as the caller already read it (the bearer hot path
   * reads it once per request).
   */
  peek(userId: string, issuedAt = 0, now = this.nowMs()): boolean | undefined {
    const hit = this.entries.get(userId);
    if (!hit || hit.until <= now) return undefined;
    if (!hit.exists && issuedAt >= hit.checkedAt) return undefined;
    return hit.exists;
  }

  /** A change to the user (deleted, re-created): the next request looks again. */
  forget(userId: string): void {
    this.entries.delete(userId);
    this.loading.delete(userId);
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private put(userId: string, entry: Entry): void {
    this.entries.delete(userId);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(userId, entry);
  }
}
