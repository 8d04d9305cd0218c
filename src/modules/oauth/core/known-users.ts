// Whether an access token's user still admits it, cached per node so that the bearer hot
// path costs no query: the user must exist, and the token must be issued after his
// revocation point (his "valid after", revocation.ts). At most one lookup per user per
// lifetime (concurrent misses share it), bounded (the oldest entry goes first: a named LRU of
// src/core/cache written in lookup order, KNOWN_USER_CACHE_ENTRIES), and dropped
// when a change is published for the user ("user:<id>": deleted, password set or reset,
// signed out everywhere) or for everything ("*", a reset).
//
// "Absent" is remembered with the time of the lookup, and does not apply to a token issued
// at or after it: issuing a token needs the user, so such a token proves the user exists
// again (a seed re-creating a fixed id after a reset), and gets a fresh lookup.
import { tokenOutlivesRevocation } from './revocation.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import type { Lru } from '../../../core/cache/lru.ts';

/** A user as a lookup finds him: null when there is no such user. */
export interface KnownUser {
  /** Seconds since the epoch up to which (included) his access tokens are revoked; null: none. */
  revokedUpTo: number | null;
}

interface Entry {
  user: KnownUser | null;
  /** Seconds since the epoch at which the lookup started. */
  checkedAt: number;
}

export class KnownUsers {
  private readonly entries: Lru<Entry>;
  /** Lookups in flight; an invalidation removes them, so what they read is answered but not kept. */
  private readonly loading = new Map<string, Promise<KnownUser | null>>();

  private readonly lookup: (userId: string) => Promise<KnownUser | null>;
  private readonly nowMs: () => number;

  /** `caches`: the node's registry (GET /metrics); without it the cache is reported nowhere. */
  constructor(lookup: (userId: string) => Promise<KnownUser | null>, nowMs: () => number, maxEntries = 50_000, ttlMs = 60_000, caches = new CacheRegistry()) {
    this.lookup = lookup;
    this.nowMs = nowMs;
    this.entries = caches.lru<Entry>({ name: 'known-users', maxWeight: maxEntries, ttlMs, nowMs, touchOnRead: false });
  }

  /**
   * Whether a token of the user issued at `issuedAt` (seconds, the token's `iat`) is
   * admitted: the cached answer (synchronously, on a hit), or a lookup shared by every
   * concurrent caller.
   */
  admits(userId: string, issuedAt = 0): boolean | Promise<boolean> {
    const hit = this.peek(userId, issuedAt);
    if (hit !== undefined) return hit;
    let load = this.loading.get(userId);
    if (!load) {
      const checkedAt = Math.floor(this.nowMs() / 1000);
      const started: Promise<KnownUser | null> = this.lookup(userId).then(
        (user) => {
          if (this.loading.get(userId) === started) {
            this.loading.delete(userId);
            this.entries.set(userId, { user, checkedAt });
          }
          return user;
        },
        (e: unknown) => {
          if (this.loading.get(userId) === started) this.loading.delete(userId);
          throw e;
        },
      );
      this.loading.set(userId, started);
      load = started;
    }
    return load.then((user) => admitted(user, issuedAt));
  }

  /**
   * The cached answer for a token issued at `issuedAt`, or undefined when a lookup is needed
   * (never starts one). `now`: the clock as the caller already read it (the bearer hot path
   * reads it once per request).
   */
  peek(userId: string, issuedAt = 0, now = this.nowMs()): boolean | undefined {
    const hit = this.entries.get(userId, now);
    if (!hit) return undefined;
    if (!hit.user && issuedAt >= hit.checkedAt) return undefined;
    return admitted(hit.user, issuedAt);
  }

  /** A change to the user (deleted, re-created, sessions ended): the next request looks again. */
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
}

const admitted = (user: KnownUser | null, issuedAt: number): boolean =>
  user !== null && tokenOutlivesRevocation(issuedAt, user.revokedUpTo);
