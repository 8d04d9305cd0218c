// Repository tests' shared set-up: a migrated database and a store on it for the enclosing
// describe block (before/after hooks registered here), and a user row with the optional
// fields empty.
import crypto from 'node:crypto';
import { before, after } from 'node:test';
import { createStore } from '../../src/adapters/postgres/store.ts';

type Store = Awaited<ReturnType<typeof createStore<ModuleRepos>>>;
import type { NewUser, Repos as KernelRepos } from '../../src/core/ports/repositories.ts';
import { STORE_MODULES, type ModuleRepos } from '../../src/modules/registries.ts';

/** The node's repositories: the kernel's and the module list's. */
type Repos = KernelRepos & ModuleRepos;
import { migratedDatabase, type TestDatabase } from './database.ts';

export interface SuiteStore {
  /** The store's repositories; usable in tests and hooks registered after this call. */
  readonly repos: Repos;
  readonly store: Store;
  readonly db: TestDatabase;
}

/** Call inside a describe block: opens the database and store before its tests, closes them after. */
export function suiteStore(engine: 'pglite' | 'postgres'): SuiteStore {
  let opened: { db: TestDatabase; store: Store } | undefined;
  const get = () => {
    if (!opened) throw new Error('suiteStore: used before its before() hook ran');
    return opened;
  };
  before(async () => {
    const db = await migratedDatabase(engine);
    opened = { db, store: await createStore(db.sql, undefined, STORE_MODULES) };
  });
  after(async () => {
    await opened?.store.close();
    await opened?.db.drop();
  });
  // A stand-in that reads the store's repositories when used, so tests keep writing `repos.users…`.
  const repos = new Proxy({} as Repos, { get: (_t, key) => (get().store.repos as unknown as Record<PropertyKey, unknown>)[key] });
  return {
    repos,
    get store() {
      return get().store;
    },
    get db() {
      return get().db;
    },
  };
}

/** A user row: the email, a fresh id, everything optional empty (override what a test needs). */
export function userRow(email: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    id: crypto.randomUUID(),
    email,
    firstName: '',
    lastName: '',
    company: '',
    title: '',
    passwordHash: null,
    invitedBy: null,
    invitedAt: null,
    ...overrides,
  };
}
