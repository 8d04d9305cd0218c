// Repository ports: what the core needs from persistence, free of SQL. A `Repos`
// value is bound to one executor (the pool, or one transaction): inside
// `store.transaction(fn)`, use only the `repos` that fn receives.
import type { AccountFacts } from '../permissions/evaluate.ts';
import type { ProjectsRepo } from './project-repositories.ts';
import type { LocksRepo } from './locks.ts';
import type { EventsRepo, ListenerState } from './events.ts';
import type { WebhooksRepo } from './webhooks.ts';
import type { StoredDomainEvent } from '../events/domain-events.ts';
import type { ModuleInvalidation } from '../events/invalidation.ts';
import type { FilesRepo, UploadsRepo } from './file-repositories.ts';
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

/**
 * An invitation to join an account, pending until the user accepts it (docs/security.md
 * "Invitations"): until then he is no member, and the account sees of him only `email`.
 */
export interface AccountInvitationRecord {
  accountId: string;
  userId: string;
  /** The address as the inviter wrote it. */
  email: string;
  /** The account roles accepting gives. */
  roles: AccountRole[];
  invitedBy: string | null;
  invitedAt: Date;
}

export interface AccountInvitationsRepo {
  get(accountId: string, userId: string): Promise<AccountInvitationRecord | null>;
  /** The account's pending invitations, oldest first. */
  listForAccount(accountId: string): Promise<AccountInvitationRecord[]>;
  /** The user's pending invitations with each account's name, oldest first. */
  listForUser(userId: string): Promise<(AccountInvitationRecord & { accountName: string })[]>;
  /** Inserts the invitation, or sets the roles (and the address) of the pending one. */
  put(invitation: AccountInvitationRecord): Promise<void>;
  /** Deletes the pending invitation and answers it; null when there was none. */
  take(accountId: string, userId: string): Promise<AccountInvitationRecord | null>;
}

/**
 * Counts over a fixed window that starts with the first charge (windowed_counters): the
 * invitation caps (docs/security.md "Invitations").
 */
export interface CountersRepo {
  /**
   * Adds `amount` to the key's count in one conditional UPSERT (row-locked: concurrent
   * charges on every node count one after the other), unless that would pass `max`. A key
   * whose window ended at or before `now` starts a new one, `now` to `windowEnd`. Answers
   * whether it was charged, and when the key's window ends.
   */
  charge(key: string, amount: number, p: { now: Date; windowEnd: Date; max: number }): Promise<{ charged: boolean; windowEnd: Date }>;
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

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** Where a stored mail is on its way out (migration 0016, src/core/mail/relay.ts). */
export type RelayState = 'stored' | 'pending' | 'sent' | 'failed';

export interface OutboxEntry extends OutboxMail {
  id: string;
  sentAt: Date;
  relay: { state: RelayState; attempts: number; lastError: string | null; relayedAt: Date | null };
}

/** A pending mail claimed by this node for one attempt (`attempt`: the attempts counted so far, this one included). */
export interface ClaimedMail extends OutboxMail {
  id: string;
  attempt: number;
  /** The secret the stored copy loses once relayed (null: nothing to redact, or the text still holds it for the outbox's readers). */
  secret: string | null;
}

export interface OutboxRepo {
  /**
   * Stores a mail. `secretHash` (SHA-256 hex) is set when the stored text still holds a
   * secret (an invitation token), so that `redactSecret` can find the row once it is spent.
   * `relay`: the mail is to be relayed over SMTP (state 'pending', due now); its `secret`, when
   * given, is redacted from the row once the relay is done with it.
   */
  insert(id: string, mail: OutboxMail, now: Date, secretHash?: string | null, relay?: { secret: string | null } | null): Promise<void>;
  /** Newest first; only those in `state` when given. */
  list(limit: number, state?: RelayState): Promise<OutboxEntry[]>;
  /** Replaces `secret` by `replacement` in the text and links of the mails holding it (found by its hash). */
  redactSecret(secretHash: string, secret: string, replacement: string): Promise<void>;
  /**
   * Claims up to `limit` pending mails due at `now` that no other transaction holds (FOR UPDATE
   * SKIP LOCKED): counts an attempt on each and moves it out of reach until `leaseUntil`, so
   * another node takes it over only if this one never reports (a crash).
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]>;
  /**
   * Reports the outcome of attempt `attempt`: 'sent', a retry at `retryAt`, or 'failed' for
   * good. A finished row loses its relay secret (replaced by `redacted`). False when the row
   * is no longer that attempt's (its lease ran out and another node took it, or a reset).
   */
  settle(
    id: string,
    attempt: number,
    outcome: { state: 'sent'; at: Date } | { state: 'pending'; retryAt: Date; error: string } | { state: 'failed'; error: string },
    redacted: string,
  ): Promise<boolean>;
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

export interface InvitationRecord {
  tokenHash: string;
  userId: string;
  accountId: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  /** 'set-password': the user has no password (an invitation, `admin reset-password`); 'reset': forgot password. */
  purpose: InvitationPurpose;
}

export type InvitationPurpose = 'set-password' | 'reset';

export interface InvitationsRepo {
  insert(i: Omit<InvitationRecord, 'usedAt' | 'purpose'> & { purpose?: InvitationPurpose }, now: Date): Promise<void>;
  byTokenHash(tokenHash: string): Promise<InvitationRecord | null>;
  /** Marks it used in one conditional statement; null when unknown, used or expired. */
  consume(tokenHash: string, now: Date): Promise<InvitationRecord | null>;
  /** Marks every unused link of this purpose of the user used (a password was just set). */
  spendUnused(userId: string, purpose: InvitationPurpose, now: Date): Promise<void>;
}

/** Access facts, loaded in one indexed query per scope. */
export interface AccessRepo {
  accountAccess(
    userId: string,
    ref: { uuid: string } | { api1Id: string },
  ): Promise<{ account: AccountRecord; facts: AccountFacts } | null>;
}

export interface Repos {
  /** Publishing an event also fans it out to the account's webhook endpoints, in the event's own statement (src/core/webhooks/fan-out.ts, ports/events.ts EventWriter). */
  events: EventsRepo;
  webhooks: WebhooksRepo;
  locks: LocksRepo;
  files: FilesRepo;
  uploads: UploadsRepo;
  projects: ProjectsRepo;
  invitations: InvitationsRepo;
  accountInvitations: AccountInvitationsRepo;
  counters: CountersRepo;
  access: AccessRepo;
  users: UsersRepo;
  throttle: ThrottleRepo;
  outbox: OutboxRepo;
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
