// A bounded cache of access facts and read models per key, invalidated by scope key when a
// change commits (its domain event: on this node at once, on other nodes through LISTEN). A
// load that overlaps an invalidation is not stored, so a stale read never sticks.
//
// Bounded as an LRU: past `maxEntries`, the least recently read entry goes (with its place in
// every scope's index, so the index never outgrows the entries). With `weightOf`, the bound is
// on the entries' total weight instead (values of very different sizes: a project list counts
// its projects), and a value heavier than the whole bound is not kept. Entries also expire after
// `ttlMs`, a backstop should an event never arrive, or earlier at the time `untilOf` gives
// (a value that changes with time and no event: a membership's expiry), and when the clock
// goes back before the time they were stored (the sandbox clock).
interface Entry<V> {
  scopes: readonly string[];
  value: V;
  weight: number;
  storedAt: number;
  until: number;
}

export class AccessCache<V> {
  /** In recency order: a hit moves its entry to the end, eviction takes the first. */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byScope = new Map<string, Set<string>>();
  private generation = 0;
  private totalWeight = 0;

  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly nowMs: () => number;
  private readonly weightOf: (v: V) => number;

  /** `maxEntries` bounds the number of entries, or with `weightOf` their total weight (each at least 1). */
  constructor(maxEntries = 50_000, ttlMs = 60_000, nowMs: () => number = Date.now, weightOf: (v: V) => number = () => 1) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`AccessCache: maxEntries must be a positive integer, got ${maxEntries}`);
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.nowMs = nowMs;
    this.weightOf = weightOf;
  }

  /**
   * Answers the cached value, or loads it; `scopesOf` names the keys whose changes invalidate
   * it; `untilOf`, when given, the time (ms, on this cache's clock) at which the value stops
   * holding, or null when only the TTL ends it.
   */
  async get(key: string, load: () => Promise<V>, scopesOf: (v: V) => readonly string[], untilOf?: (v: V) => number | null): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      const now = this.nowMs();
      if (hit.until > now && now >= hit.storedAt) {
        this.entries.delete(key);
        this.entries.set(key, hit);
        return hit.value;
      }
      this.remove(key);
    }
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.put(key, value, scopesOf(value), untilOf?.(value) ?? null);
    return value;
  }

  invalidate(scope: string): void {
    this.generation++;
    const keys = this.byScope.get(scope);
    if (!keys) return;
    for (const k of keys) this.remove(k);
    this.byScope.delete(scope);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byScope.clear();
    this.totalWeight = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' total weight (their number without `weightOf`). */
  get weight(): number {
    return this.totalWeight;
  }

  /** Scope keys indexed (each names at least one live entry). */
  get scopeCount(): number {
    return this.byScope.size;
  }

  private put(key: string, value: V, scopes: readonly string[], validUntil: number | null): void {
    this.remove(key);
    const now = this.nowMs();
    const until = Math.min(now + this.ttlMs, validUntil ?? Infinity);
    const weight = Math.max(1, this.weightOf(value));
    if (until <= now || weight > this.maxEntries) return;
    while (this.totalWeight + weight > this.maxEntries) this.remove(this.entries.keys().next().value!);
    this.entries.set(key, { scopes, value, weight, storedAt: now, until });
    this.totalWeight += weight;
    for (const s of scopes) {
      let set = this.byScope.get(s);
      if (!set) this.byScope.set(s, (set = new Set()));
      set.add(key);
    }
  }

  /** Drops one entry and its place in its scopes' index. */
  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
    for (const s of entry.scopes) {
      const set = this.byScope.get(s);
      if (!set) continue;
      set.delete(key);
      if (!set.size) this.byScope.delete(s);
    }
  }
}
