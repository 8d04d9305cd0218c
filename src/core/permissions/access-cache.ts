// A bounded cache of access facts per user and scope, invalidated by scope key when a
// change commits (its domain event: on this node at once, on other nodes through LISTEN). A
// load that overlaps an invalidation is not stored, so a stale read never sticks.
export class AccessCache<V> {
  private readonly entries = new Map<string, { scopes: readonly string[]; value: V; until: number }>();
  private readonly byScope = new Map<string, Set<string>>();
  private generation = 0;

  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly nowMs: () => number;

  constructor(maxEntries = 50_000, ttlMs = 60_000, nowMs: () => number = Date.now) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.nowMs = nowMs;
  }

  /** Answers the cached value, or loads it; `scopesOf` names the keys whose changes invalidate it. */
  async get(key: string, load: () => Promise<V>, scopesOf: (v: V) => readonly string[]): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.nowMs()) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.put(key, value, scopesOf(value));
    return value;
  }

  invalidate(scope: string): void {
    this.generation++;
    const keys = this.byScope.get(scope);
    if (!keys) return;
    for (const k of keys) this.entries.delete(k);
    this.byScope.delete(scope);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byScope.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private put(key: string, value: V, scopes: readonly string[]): void {
    if (this.entries.size >= this.maxEntries) this.clear();
    this.entries.set(key, { scopes, value, until: this.nowMs() + this.ttlMs });
    for (const s of scopes) {
      let set = this.byScope.get(s);
      if (!set) this.byScope.set(s, (set = new Set()));
      set.add(key);
    }
  }
}
