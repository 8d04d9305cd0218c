// Cache invalidation as a consumer of domain events: which per-node caches an event makes
// stale, as scope keys. Caches tag each entry with the scopes it was read from (an
// account's access facts: account:<a> and user:<u>; a project's grants: project:<p>, and
// role:<r> of every role held; an account's role list: roles:<a>; a work zone's read model:
// its project's project:<p> and contents:<p>, and account:<a>; a caller's project list:
// project-lists:<a>) and drop the entries of every scope an event names. '*' drops everything.
//
// One row per event type: the type checker refuses an event without its row, so a new
// event must say what it invalidates (often nothing). The events of the modules under
// src/modules have their rows in their contracts (src/modules/contract.ts invalidation);
// the store carries the assembled rows (Store.moduleInvalidation).
import type { DomainEvent, DomainEventOf, DomainEventType, KernelEventType, StoredDomainEvent } from './domain-events.ts';

/** What the caches listen to: the store's committed events and its modules' invalidation rows (Store's own members). */
export interface InvalidationSource {
  onEvent(listener: (event: StoredDomainEvent) => void): void;
  readonly moduleInvalidation?: ModuleInvalidation;
}

export const cacheScope = {
  all: '*',
  account: (id: string) => `account:${id}`,
  user: (id: string) => `user:${id}`,
  project: (id: string) => `project:${id}`,
  /** What a project's zones hold and show (their own fields, files, tag lists): the zones' read models (workzones.ts). */
  contents: (projectId: string) => `contents:${projectId}`,
  role: (id: string) => `role:${id}`,
  /** The role list of an account (roles.ts). */
  roles: (accountId: string) => `roles:${accountId}`,
  /**
   * Every caller's project list in an account (projects/project-lists.ts): any change to what a
   * list shows of any project of the account (a project, its members and zones, its counts, the
   * roles, groups and account roles that make the rights), including a project the caller is
   * not yet in, which may join his list.
   */
  projectLists: (accountId: string) => `project-lists:${accountId}`,
  /** Each node's signing and verification keys (signing-keys.ts). */
  signingKeys: 'signing-keys',
} as const;

type Rule<K extends DomainEventType> = (e: DomainEventOf<K>) => readonly string[];

/** An event that drops no cache scope. */
const nothing = (): readonly string[] => [];
/** The account's access facts (roles, groups, subscriptions) and everything read with them. */
const account = (e: { accountId: string | null }) => (e.accountId ? [cacheScope.account(e.accountId)] : []);
const accountAndUser = (e: { accountId: string | null; data: { userId: string } }) => [
  ...(e.accountId ? [cacheScope.account(e.accountId)] : []),
  cacheScope.user(e.data.userId),
];
const user = (e: { data: { userId: string } }) => [cacheScope.user(e.data.userId)];
const project = (e: { data: { projectId: string } }) => [cacheScope.project(e.data.projectId)];
const contents = (e: { data: { projectId: string } }) => [cacheScope.contents(e.data.projectId)];
/** The rule's scopes and the account's project lists (every list of the event's account). */
const withLists = <E>(rule: (e: E) => readonly string[]) => (e: E & { accountId: string | null }): readonly string[] => [
  ...rule(e),
  ...(e.accountId ? [cacheScope.projectLists(e.accountId)] : []),
];

// withLists(…): the change shows in the account's project lists (a project's fields, its
// members and zones, its counts, or the rights of its members: roles, groups, account roles).
const RULES: { [K in KernelEventType]: Rule<K> } = {
  'signing-keys.rotated': () => [cacheScope.signingKeys],
  'service.reset': () => [cacheScope.all],
  'events.missed': () => [cacheScope.all],
  'user.seeded': user,

  // A new user is in no project yet (and has no list kept); an existing one who comes back
  // (user.added) may have a list kept from before he left.
  'user.invited': accountAndUser,
  'user.added': withLists(accountAndUser),
  'user.roles-changed': withLists(accountAndUser),
  'user.removed': withLists(accountAndUser),
  // Every session of the user ended (his revocation point moved): his known-user entry goes,
  // so each node's bearer check reads the new point at his next request.
  'user.password-cleared': user,

  // The files' and webhooks' events: their rows are in their modules' contracts (src/modules/files/module.ts, src/modules/webhooks/module.ts).
};

/** The kernel's rules for modules' rows: nothing, an account's access facts, a user's, both, a project's, its contents, and the rule's scopes with the account's project lists. */
export const invalidationRules = { nothing, account, user, accountAndUser, project, contents, withLists } as const;

/** The invalidation rows of the modules' events, by event type (assembled from src/module-list.ts). */
export type ModuleInvalidation = Readonly<Partial<Record<DomainEventType, (e: never) => readonly string[]>>>;

/** The cache scopes the event makes stale (pure): its kernel row, or its module's. */
export function invalidatedScopes(event: DomainEvent, modules: ModuleInvalidation = {}): readonly string[] {
  const rule = (Object.hasOwn(RULES, event.type) ? RULES[event.type as KernelEventType] : modules[event.type]) as Rule<DomainEventType> | undefined;
  // The list's rows are checked complete at compile time (src/module-list.ts); an unknown type
  // (a newer node's event during a rolling upgrade) may stale anything: drop everything.
  return rule ? rule(event) : [cacheScope.all];
}

/** Calls `invalidate` with each scope every committed event (this node's and the others') makes stale. */
export function onInvalidation(store: InvalidationSource, invalidate: (scope: string) => void): void {
  store.onEvent((event) => {
    for (const scope of invalidatedScopes(event, store.moduleInvalidation)) invalidate(scope);
  });
}

/** A scoped cache (AccessCache): every scope an event makes stale is dropped from it; the all-scope ('*', a reset or missed events) empties it. */
export function dropOnInvalidation(store: InvalidationSource, cache: { clear(): void; invalidate(scope: string): void }): void {
  onInvalidation(store, (scope) => (scope === cacheScope.all ? cache.clear() : cache.invalidate(scope)));
}
