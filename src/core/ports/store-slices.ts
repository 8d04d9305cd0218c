// A use case's view of the Store: only the repositories it reads outside a transaction
// (`Pick<Repos, …>`), so its dependencies say what it touches. A transaction still hands
// the callback every repository (callers pass it on, e.g. a connect import's `within`).
import type { Repos, Store } from './repositories.ts';

/** Reads through the named repositories, bound to the pool. */
export interface StoreReads<K extends keyof Repos> {
  readonly repos: Pick<Repos, K>;
}

/** Reads through the named repositories, and transactions. */
export type StoreSlice<K extends keyof Repos> = StoreReads<K> & Pick<Store, 'transaction'>;

/** Committed domain events, for a use case that keeps a cache and drops entries on events (events/invalidation.ts). */
export type StoreEvents = Pick<Store, 'onEvent'>;
