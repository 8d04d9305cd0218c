// The one per-node cache (docs/performance.md "Caches"): a named, bounded, scoped LRU. Pure:
// no framework, no timer; the clock is injected. Every cache of the service is one of these,
// made through a CacheRegistry (registry.ts) so that GET /metrics reports it by name.
//
// Bounded by weight: each entry weighs `weightOf(value)` (1 by default, so the bound counts
// entries), at least 1; past the bound the least recently used entries go first (evictions),
// and a value heavier than the whole bound is not kept. "Used" is a read and a write, or a
// write only with `touchOnRead: false` (a first-in first-out cache whose hot read must not
// move a Map entry). Entries end after `ttlMs`, or earlier at the time a write gives
// (`until`: a value that changes with time and no event), and when the clock goes back before
// the time they were stored (the sandbox clock). Each entry may name scopes (cache scopes of
// src/core/events/invalidation.ts); `invalidate(scope)` drops every entry that named it.

export interface LruOptions<V> {
  /** The cache's name: its label in GET /metrics (`scanbase_cache_*{cache="…"}`). */
  name: string;
  /** Bound on the entries' total weight (their number without `weightOf`): an integer, 0 keeping nothing. */
  maxWeight: number;
  /** Milliseconds an entry lives after it is written; default: no limit. */
  ttlMs?: number;
  /** The clock (ms); default Date.now. Read only when an entry can expire. */
  nowMs?: () => number;
  /** An entry's weight (a list counts its items, a body its bytes); default 1. */
  weightOf?: (value: V) => number;
  /** Whether a read makes the entry the most recently used (default true). */
  touchOnRead?: boolean;
}

/** What GET /metrics reports of one cache. */
export interface CacheStats {
  name: string;
  /** Entries kept. */
  size: number;
  /** Their total weight. */
  weight: number;
  /** The bound on the weight. */
  maxWeight: number;
  /** Reads that found a live entry. */
  hits: number;
  /** Reads that found none (absent, or ended). */
  misses: number;
  /** Entries dropped to make room under the bound (not ended, replaced or invalidated). */
  evictions: number;
}

interface Entry<V> {
  value: V;
  weight: number;
  storedAt: number;
  /** The time it ends (ms); Infinity: never by time. */
  until: number;
  scopes: readonly string[];
}

export interface SetOptions {
  /** Scopes whose invalidation drops the entry. */
  scopes?: readonly string[];
  /** A time (ms, on this cache's clock) at which the value stops holding, before the TTL; null: the TTL only. */
  until?: number | null;
}

export class Lru<V> {
  readonly name: string;
  readonly maxWeight: number;
  /** In recency order: the least recently used first. */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byScope = new Map<string, Set<string>>();
  private readonly ttlMs: number;
  private readonly nowMs: () => number;
  private readonly weightOf: (value: V) => number;
  private readonly touchOnRead: boolean;
  private readonly timed: boolean;
  private totalWeight = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(options: LruOptions<V>) {
    const { name, maxWeight, ttlMs = Infinity } = options;
    if (!Number.isInteger(maxWeight) || maxWeight < 0) throw new RangeError(`cache ${name}: maxWeight must be an integer ≥ 0, got ${maxWeight}`);
    if (!(ttlMs > 0)) throw new RangeError(`cache ${name}: ttlMs must be positive, got ${ttlMs}`);
    this.name = name;
    this.maxWeight = maxWeight;
    this.ttlMs = ttlMs;
    this.nowMs = options.nowMs ?? Date.now;
    this.weightOf = options.weightOf ?? (() => 1);
    this.touchOnRead = options.touchOnRead ?? true;
    this.timed = ttlMs !== Infinity;
  }

  /**
   * The live value of `key` (a hit, made the most recently used), or undefined (a miss; an
   * ended entry goes). `now`: the clock as the caller already read it.
   */
  get(key: string, now?: number): V | undefined {
    return this.getIf(key, undefined, now);
  }

  /**
   * As get, but a live value `usable` refuses (a kept version older than the one asked for)
   * is a miss, left in its place (it may still serve the caller otherwise, see peek).
   */
  getIf(key: string, usable: ((value: V) => boolean) | undefined, now?: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (this.live(entry, now)) {
        if (usable !== undefined && !usable(entry.value)) {
          this.misses++;
          return undefined;
        }
        this.hits++;
        if (this.touchOnRead) {
          this.entries.delete(key);
          this.entries.set(key, entry);
        }
        return entry.value;
      }
      this.remove(key);
    }
    this.misses++;
    return undefined;
  }

  /** The live value of `key` without counting a read or changing its place. */
  peek(key: string, now?: number): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && this.live(entry, now) ? entry.value : undefined;
  }

  /**
   * Keeps `value` under `key` (replacing what was there), making room by evicting the least
   * recently used entries. Answers false, keeping nothing, when the value is heavier than the
   * whole bound or already ended.
   */
  set(key: string, value: V, options: SetOptions = {}): boolean {
    this.remove(key);
    const weight = Math.max(1, this.weightOf(value));
    const limited = this.timed || options.until != null;
    const now = limited ? this.nowMs() : 0;
    const until = limited ? Math.min(now + this.ttlMs, options.until ?? Infinity) : Infinity;
    if (weight > this.maxWeight || until <= now) return false;
    while (this.totalWeight + weight > this.maxWeight) {
      this.remove(this.entries.keys().next().value!);
      this.evictions++;
    }
    const scopes = options.scopes ?? [];
    this.entries.set(key, { value, weight, storedAt: now, until, scopes });
    this.totalWeight += weight;
    for (const s of scopes) {
      let keys = this.byScope.get(s);
      if (!keys) this.byScope.set(s, (keys = new Set()));
      keys.add(key);
    }
    return true;
  }

  /** Drops `key`; answers whether it was there. */
  delete(key: string): boolean {
    return this.remove(key);
  }

  /** Drops every entry that named `scope`. */
  invalidate(scope: string): void {
    const keys = this.byScope.get(scope);
    if (!keys) return;
    for (const k of keys) this.remove(k);
    this.byScope.delete(scope);
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
    this.byScope.clear();
    this.totalWeight = 0;
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' total weight (their number without `weightOf`). */
  get weight(): number {
    return this.totalWeight;
  }

  /** Scopes indexed (each names at least one entry kept). */
  get scopeCount(): number {
    return this.byScope.size;
  }

  stats(): CacheStats {
    return {
      name: this.name, size: this.entries.size, weight: this.totalWeight, maxWeight: this.maxWeight,
      hits: this.hits, misses: this.misses, evictions: this.evictions,
    };
  }

  private live(entry: Entry<V>, now: number | undefined): boolean {
    if (entry.until === Infinity) return true;
    const t = now ?? this.nowMs();
    return entry.until > t && t >= entry.storedAt;
  }

  /** Drops one entry and its place in its scopes' index. */
  private remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
    for (const s of entry.scopes) {
      const keys = this.byScope.get(s);
      if (!keys) continue;
      keys.delete(key);
      if (!keys.size) this.byScope.delete(s);
    }
    return true;
  }
}
