// A cache of access facts and read models per key, loaded on a miss, invalidated by scope key
// when a change commits (its domain event: on this node at once, on other nodes through
// LISTEN). A load that overlaps an invalidation is not stored, so a stale read never sticks.
// The entries live in one of the node's named LRUs (src/core/cache/lru.ts: its bound, its
// weight function, its TTL, a backstop should an event never arrive, and its clock); a load
// may end its value earlier with `untilOf` (a value that changes with time and no event: a
// membership's expiry).
import type { Lru } from '../cache/lru.ts';

/** The TTL of the access caches: a minute, a backstop should an event never arrive. */
export const ACCESS_TTL_MS = 60_000;

export class AccessCache<V> {
  private readonly lru: Lru<V>;
  private generation = 0;

  constructor(lru: Lru<V>) {
    this.lru = lru;
  }

  /**
   * Answers the cached value, or loads it; `scopesOf` names the keys whose changes invalidate
   * it; `untilOf`, when given, the time (ms, on this cache's clock) at which the value stops
   * holding, or null when only the TTL ends it.
   */
  async get(key: string, load: () => Promise<V>, scopesOf: (v: V) => readonly string[], untilOf?: (v: V) => number | null): Promise<V> {
    const hit = this.lru.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.lru.set(key, value, { scopes: scopesOf(value), until: untilOf?.(value) ?? null });
    return value;
  }

  invalidate(scope: string): void {
    this.generation++;
    this.lru.invalidate(scope);
  }

  clear(): void {
    this.generation++;
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }

  /** The entries' total weight (their number without the LRU's `weightOf`). */
  get weight(): number {
    return this.lru.weight;
  }

  /** Scope keys indexed (each names at least one live entry). */
  get scopeCount(): number {
    return this.lru.scopeCount;
  }
}
