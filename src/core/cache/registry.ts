// The node's caches by name: every cache is made here (one registry per composed service, so
// tests that compose many keep their counts apart), and GET /metrics reads their stats at each
// scrape (src/adapters/telemetry/prometheus.ts). A factory built without a registry (a unit
// test) gets a registry of its own, which nothing reports.
import { Lru, type CacheStats, type LruOptions } from './lru.ts';

export class CacheRegistry {
  private readonly caches: Lru<unknown>[] = [];

  /** A new cache, reported under its name (names are unique per registry). */
  lru<V>(options: LruOptions<V>): Lru<V> {
    if (this.caches.some((c) => c.name === options.name)) throw new Error(`cache ${options.name} is made twice`);
    const cache = new Lru<V>(options);
    this.caches.push(cache as Lru<unknown>);
    return cache;
  }

  /**
   * The cache of that name if made before (as first made), else a new one: for a surface
   * built more than once over one node (two HTTP apps of one composed service share it).
   */
  shared<V>(options: LruOptions<V>): Lru<V> {
    return (this.caches.find((c) => c.name === options.name) as Lru<V> | undefined) ?? this.lru(options);
  }

  /** Each cache's counts, in the order they were made. */
  stats(): CacheStats[] {
    return this.caches.map((c) => c.stats());
  }
}
