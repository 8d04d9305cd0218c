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

export interface AuthorizationCodeRecord {
  /** When it was issued (set by insertCode from its `now`; answered by consumeCode). */
  createdAt?: Date;
  codeHash: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string | null;
  expiresAt: Date;
  /** The authorization request's client_id; null: none named (a code issued before it was kept). */
  clientId: string | null;
}

export interface RefreshTokenRecord {
  id: string;
  userId: string;
  expiresAt: Date;
  /** The id of the family's first token (a code exchange's); a refresh passes it on. */
  familyId: string;
  /** The OAuth client the family was issued to (a refresh passes it on); null: issued before it was kept. */
  clientId: string | null;
}

export interface OAuthRepo {
  insertCode(code: AuthorizationCodeRecord, now: Date): Promise<void>;
  /** Marks the code used in one conditional statement; null when unknown, used or expired. */
  consumeCode(codeHash: string, now: Date): Promise<AuthorizationCodeRecord | null>;
  /** `familyId` omitted: the token starts its own family. */
  insertRefreshToken(
    t: { id: string; tokenHash: string; userId: string; expiresAt: Date; familyId?: string; clientId: string | null },
    now: Date,
  ): Promise<void>;
  refreshTokenOwner(tokenHash: string): Promise<string | null>;
  /** Consumes a valid refresh token in one conditional UPDATE: exactly one concurrent caller wins. */
  consumeRefreshToken(tokenHash: string, now: Date): Promise<RefreshTokenRecord | null>;
  /** Revokes the user's valid refresh tokens beyond the newest `keep`. */
  revokeExcessRefreshTokens(userId: string, keep: number, now: Date): Promise<number>;
  revokeRefreshToken(tokenHash: string, now: Date): Promise<boolean>;
  /**
   * Reuse of a consumed token (RFC 9700 §4.14.2): when the token was consumed, revokes the
   * valid tokens of its family and answers how many; 0 when it was never consumed.
   */
  revokeFamilyOfConsumed(tokenHash: string, now: Date): Promise<number>;
  countValidRefreshTokens(userId: string, now: Date): Promise<number>;
  /**
   * Ends everything the user is signed in with, in one statement (docs/security.md
   * "Evicting every session"): his revocation point becomes `now` (users.tokens_valid_after,
   * never moved back), his browser sessions are deleted, his valid refresh tokens revoked
   * and his unused authorization codes spent.
   */
  endUserSessions(userId: string, now: Date): Promise<void>;
}

export interface WebSessionRecord {
  idHash: string;
  userId: string | null;
  csrf: string;
  expiresAt: Date;
}

export interface WebSessionsRepo {
  insert(s: WebSessionRecord, now: Date): Promise<void>;
  byIdHash(idHash: string, now: Date): Promise<WebSessionRecord | null>;
  remove(idHash: string): Promise<void>;
  /** The deployment's key for stateless sign-in form tokens: stores `candidate` unless a key exists (first node wins), answers the stored one. */
  csrfKey(candidate: string): Promise<string>;
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
  /**
   * Publishing an event also fans it out to the account's webhook endpoints, in the event's own
   * statement (ports/events.ts EventWriter; the webhooks module's fan-out.ts decides which, and reads
   * its endpoints through the store's modules' repositories: src/adapters/postgres/store.ts).
   */
  events: EventsRepo;
  locks: LocksRepo;
  invitations: InvitationsRepo;
  accountInvitations: AccountInvitationsRepo;
  counters: CountersRepo;
  access: AccessRepo;
  users: UsersRepo;
  oauth: OAuthRepo;
  webSessions: WebSessionsRepo;
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
