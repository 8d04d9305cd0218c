// A use case's view of the Store: the repositories it reads outside a transaction, and the
// ones its transactions use. Declared as a value (`storeUse`) beside the use case, so that
// `sliceOf` hands it those and nothing else at run time too: a transaction's callback gets
// an object holding only the declared repositories, and reaching another is a compile error
// (test/types/typed-transactions.ts) and, past a cast, `undefined`.
//
// A read-only use case declares its reads the same way (`storeReads`, `readsOf`).
//
// Two deliberate whole-store users say so with `WholeStore`: the seeder (a seed document
// touches users, accounts, subscriptions, their extensions' tables) and the operator's reset.
import type { Repos, Store } from './repositories.ts';

/** Reads through the named repositories, bound to the pool. */
export interface StoreReads<K extends keyof R, R = Repos> {
  readonly repos: Pick<R, K>;
}

/** Reads through `Rd`; each transaction is handed the `Tx` repositories only. */
export interface StoreSlice<Rd extends keyof R, Tx extends keyof R, R = Repos> {
  readonly repos: Pick<R, Rd>;
  transaction<T>(fn: (repos: Pick<R, Tx>) => Promise<T>): Promise<T>;
}

/** What a use case declares it uses of the store (`reads` outside transactions, `writes` inside them). */
export interface StoreUse<Rd extends keyof R, Tx extends keyof R, R = Repos> {
  readonly reads: readonly Rd[];
  readonly writes: readonly Tx[];
}

/** Declares a use of the kernel's repositories: `storeUse({ reads: ['projects'], writes: ['events', 'projects'] })`. */
export const storeUse = <const Rd extends keyof Repos, const Tx extends keyof Repos>(use: StoreUse<Rd, Tx>): StoreUse<Rd, Tx> => use;

/** The same over the kernel's and some modules' repositories: `storeUseOf<Repos & RolesRepos>()({ … })`. */
export const storeUseOf = <R>() => <const Rd extends keyof R, const Tx extends keyof R>(use: StoreUse<Rd, Tx, R>): StoreUse<Rd, Tx, R> => use;

/** The slice a declared use asks for (the type of the factory's `store`). */
export type SliceOf<U, R = Repos> = U extends StoreUse<infer Rd extends keyof R, infer Tx extends keyof R, R> ? StoreSlice<Rd, Tx, R> : never;

function pick<R, K extends keyof R>(from: Pick<R, K>, keys: readonly K[]): Pick<R, K> {
  const out = {} as Pick<R, K>;
  for (const k of keys) out[k] = from[k];
  return out;
}

/**
 * The store as the use declares it: `repos` holds the read repositories only, and each
 * transaction hands its callback the written ones only. Any store (or wider slice) will do.
 */
export function sliceOf<Rd extends keyof R, Tx extends keyof R, R = Repos>(store: StoreSlice<Rd, Tx, R>, use: StoreUse<Rd, Tx, R>): StoreSlice<Rd, Tx, R> {
  return {
    repos: pick(store.repos, use.reads),
    transaction: (fn) => store.transaction((repos) => fn(pick(repos, use.writes))),
  };
}

/** Declares what a read-only use case reads (pool-bound, no transaction): `storeReads(['files'])`; its factory takes `ReadsOf<typeof X>`. */
export const storeReads = <const K extends keyof Repos>(reads: readonly K[]): readonly K[] => reads;

/** The same over the kernel's and some modules' repositories: `storeReadsOf<Repos & TagsRepos>()(['tags'])`. */
export const storeReadsOf = <R>() => <const K extends keyof R>(reads: readonly K[]): readonly K[] => reads;

/** The reads a declared list asks for (the type of a read-only factory's `store`). */
export type ReadsOf<D, R = Repos> = D extends readonly (infer K extends keyof R)[] ? StoreReads<K, R> : never;

/** The store as the read-only use declares it: `repos` holds the declared repositories only. */
export function readsOf<K extends keyof R, R = Repos>(store: StoreReads<K, R>, reads: readonly K[]): StoreReads<K, R> {
  return { repos: pick(store.repos, reads) };
}

/** The whole store, for the two users that mean it (the seeder and the operator's reset): every repository, reads and transactions. */
export type WholeStore<R = Repos> = Pick<Store<R>, 'repos' | 'transaction'>;

/** Committed domain events, for a use case that keeps a cache and drops entries on events (events/invalidation.ts). */
export type StoreEvents = Pick<Store, 'onEvent'>;
