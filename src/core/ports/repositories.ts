// Repository ports: what the core needs from persistence, free of SQL. A `Repos`
// value is bound to one executor (the pool, or one transaction): inside
// `store.transaction(fn)`, use only the `repos` that fn receives.
import type { AccountFacts } from '../permissions/evaluate.ts';
import type { LocksRepo } from './locks.ts';
import type { EventsRepo, ListenerState } from './events.ts';
import type { StoredDomainEvent } from '../events/domain-events.ts';
import type { ModuleInvalidation } from '../events/invalidation.ts';
export interface UserRecord {
  id: string;
  api1Id: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  title: string;
  passwordHash: string | null;
  invitedBy: string | null;
  invitedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewUser = Omit<UserRecord, 'api1Id' | 'createdAt' | 'updatedAt'>;

/** What the bearer check needs of a user (docs/security.md "Evicting every session"). */
export interface UserTokenState {
  /** Access tokens issued at or before this instant (to the second) are refused; null: none. */
  tokensValidAfter: Date | null;
}

export interface UsersRepo {
  byId(id: string): Promise<UserRecord | null>;
  byApi1Id(api1Id: string): Promise<UserRecord | null>;
  byEmail(email: string): Promise<UserRecord | null>;
  /** Every user, by e-mail, at most `limit` (the administration command's listing). */
  list(limit: number): Promise<UserRecord[]>;
  insert(user: NewUser, now: Date): Promise<UserRecord>;
  update(
    id: string,
    patch: Partial<Pick<UserRecord, 'firstName' | 'lastName' | 'company' | 'title' | 'passwordHash'>>,
    now: Date,
  ): Promise<void>;
  /**
   * Takes a row lock on the user for the rest of the transaction (serialises token issuance
   * with the revocations); answers his token state as locked, null when there is no such user.
   */
  lock(id: string): Promise<UserTokenState | null>;
  /** The user's token state (the bearer check's per-node cache reads it); null when there is no such user. */
  tokenState(id: string): Promise<UserTokenState | null>;
}

import type { AccountRole } from './account-roles.ts';
export type { AccountRole };

export interface AccountRecord {
  id: string;
  api1Id: string;
  name: string;
  ownerId: string;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ThrottleRecord {
  key: string;
  failures: number;
  windowStart: Date;
  lockedUntil: Date | null;
}

export interface ThrottleReservation {
  /** Attempts counted in the current window, this one included: the attempt may proceed when ≤ max. */
  failures: number;
  windowStart: Date;
  lockedUntil: Date | null;
}

export interface ThrottleRepo {
  get(key: string): Promise<ThrottleRecord | null>;
  put(r: ThrottleRecord): Promise<void>;
  clear(key: string): Promise<void>;
  /**
   * Counts one attempt against the key in one conditional UPSERT (row-locked, so concurrent
   * callers on any node are counted one after the other). A window is fresh when there is no
   * row, when its lock has expired, or when it is unlocked and started at or before
   * `windowCutoff`; a fresh window starts at `now` with this attempt. The attempt that brings
   * the count to `max` sets `lockedUntil`; an existing unexpired lock is kept, never extended.
   * With `max` null the key only counts and never locks.
   */
  reserve(key: string, p: { now: Date; windowCutoff: Date; max: number | null; lockedUntil: Date }): Promise<ThrottleReservation>;
  /** Gives back an attempt that turned out not to be a failure (same window only); lifts the lock when the count drops below `max`. */
  refund(key: string, windowStart: Date, max: number): Promise<void>;
}

export interface SettingsRepo {
  get<T>(key: string): Promise<T | null>;
  set(key: string, value: unknown): Promise<void>;
  /** The text kept under `key`: `candidate` unless one is kept already (first node wins; a deployment key such as a secret box's). */
  keepFirst(key: string, candidate: string): Promise<string>;
}

/** What a housekeeping pass deletes (src/modules/maintenance/core/janitor.ts decides the times). */
export interface PurgeCutoffs {
  /** Web sessions that expired at or before this. */
  sessionsExpiredBy: Date;
  /** Codes, refresh tokens and invitations expired, used, consumed or revoked before this. */
  spentBefore: Date;
  /** Sign-in throttle rows: a lock that ended at or before `now`, or no lock and a window that started at or before this. */
  throttleWindowCutoff: Date;
  /** Done and failed jobs finished, outbox rows sent, and domain events that occurred, before this (the retention period). */
  retainedBefore: Date;
  /** The most rows of each kind one pass deletes (the rest go in the next passes). */
  batch: number;
  now: Date;
}

export interface PurgeCounts {
  webSessions: number;
  authorizationCodes: number;
  refreshTokens: number;
  loginThrottle: number;
  windowedCounters: number;
  invitations: number;
  jobs: number;
  outbox: number;
  domainEvents: number;
}

export interface AdminRepo {
  /** Deletes every row of tenant data; signing keys and settings (the clock) stay. */
  deleteAllData(): Promise<void>;
  /**
   * Takes the cluster-wide maintenance lock for the rest of the transaction if no other
   * session holds it (pg_try_advisory_xact_lock); false when another node is running a pass.
   */
  tryMaintenanceLock(): Promise<boolean>;
  /** Deletes the rows no rule needs any more; answers how many, per table. */
  purge(c: PurgeCutoffs): Promise<PurgeCounts>;
  /**
   * Refreshes the query planner's statistics where nothing else does: PGlite has no
   * autovacuum, so without this its planner never learns a table's size and picks plans made
   * for an empty one (an audit export of 1,000,000 records read every remaining record for
   * each page: 166 s, 11.5 s once analysed). PostgreSQL's autovacuum does it: nothing there.
   */
  refreshStatistics(): Promise<void>;
}

/** Access facts, loaded in one indexed query per scope. */
export interface AccessRepo {
  accountAccess(
    userId: string,
    ref: { uuid: string } | { api1Id: string },
  ): Promise<{ account: AccountRecord; facts: AccountFacts } | null>;
}

export interface Repos {
  /**
   * Publishing an event also fans it out to the account's webhook endpoints, in the event's own
   * statement (ports/events.ts EventWriter; the webhooks module's fan-out.ts decides which, and reads
   * its endpoints through the store's modules' repositories: src/adapters/postgres/store.ts).
   */
  events: EventsRepo;
  locks: LocksRepo;
  access: AccessRepo;
  users: UsersRepo;
  throttle: ThrottleRepo;
  settings: SettingsRepo;
  admin: AdminRepo;
}

/**
 * The database: `R` is the repositories every executor carries (the kernel's Repos, and the
 * modules' of src/module-list.ts in the composed node: Store<Repos & ModuleRepos>). A
 * module's needs name the slice it uses, e.g. Store<{ annotations: AnnotationsRepo }>.
 */
export interface Store<R = Repos> {
  readonly repos: R;
  transaction<T>(fn: (repos: R) => Promise<T>): Promise<T>;
  /** Answers when the database does (throws otherwise); `waitMs`: the longest wait for a connection (the readiness probe). */
  ping(opts?: { waitMs?: number }): Promise<void>;
  /**
   * Listens to committed domain events: this node's right after commit, other nodes'
   * through the database. A listener must not throw (a throw is logged and skipped).
   */
  onEvent(listener: (event: StoredDomainEvent) => void): void;
  /** How other nodes' events are heard (PostgreSQL's LISTEN connection); null on the embedded database (one process). */
  eventsListener?(): ListenerState | null;
  /** The invalidation rows of the modules' events (src/core/events/invalidation.ts); absent: the kernel's events only. */
  readonly moduleInvalidation?: ModuleInvalidation;
  /**
   * Adds a step every transaction runs last, before it commits, on its own repositories, with
   * the domain events it published (the audit log writes its record there: src/modules/audit).
   * A step answers undefined when it has nothing to do (no promise on the hot path); it must
   * not wait for anything that needs another connection (PGlite has one).
   */
  beforeCommit?(step: CommitStep<R>): void;
}

/** A step of every transaction before it commits (Store.beforeCommit). */
export type CommitStep<R = Repos> = (repos: R, events: readonly StoredDomainEvent[]) => Promise<void> | undefined;

/** Thrown by repositories when a unique constraint refuses a write (the use case decides the 409). */
export class UniqueViolation extends Error {
  override name = 'UniqueViolation';
}
