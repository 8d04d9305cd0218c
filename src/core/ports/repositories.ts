// Repository ports: what the core needs from persistence, free of SQL. A `Repos`
// value is bound to one executor (the pool, or one transaction): inside
// `store.transaction(fn)`, use only the `repos` that fn receives.
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

export type NewUser = Omit<UserRecord, 'createdAt' | 'updatedAt'>;

export interface UsersRepo {
  byId(id: string): Promise<UserRecord | null>;
  byApi1Id(api1Id: string): Promise<UserRecord | null>;
  byEmail(email: string): Promise<UserRecord | null>;
  insert(user: NewUser, now: Date): Promise<UserRecord>;
  update(
    id: string,
    patch: Partial<Pick<UserRecord, 'firstName' | 'lastName' | 'company' | 'title' | 'passwordHash'>>,
    now: Date,
  ): Promise<void>;
  /** Takes a row lock on the user for the rest of the transaction (serialises token issuance). */
  lock(id: string): Promise<void>;
}

export type AccountRole = 'administrator' | 'projectManager' | 'projectLister';

export interface AccountRecord {
  id: string;
  api1Id: string;
  name: string;
  ownerId: string;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AccountMemberRecord {
  accountId: string;
  userId: string;
  roles: AccountRole[];
  invitedBy: string | null;
  invitedAt: Date | null;
}

export interface AccountsRepo {
  byId(id: string): Promise<AccountRecord | null>;
  byApi1Id(api1Id: string): Promise<AccountRecord | null>;
  byName(name: string): Promise<AccountRecord | null>;
  insert(account: Omit<AccountRecord, 'createdAt' | 'updatedAt'>, now: Date): Promise<AccountRecord>;
  update(id: string, patch: Partial<Pick<AccountRecord, 'name' | 'ownerId'>>, now: Date): Promise<void>;
  /** Accounts the user belongs to (as owner or member). */
  listForUser(userId: string): Promise<AccountRecord[]>;
  member(accountId: string, userId: string): Promise<AccountMemberRecord | null>;
  members(accountId: string): Promise<AccountMemberRecord[]>;
  /** Inserts or sets the member's account roles. */
  upsertMember(member: AccountMemberRecord): Promise<void>;
  removeMember(accountId: string, userId: string): Promise<void>;
}

export interface SubscriptionRecord {
  id: string;
  api1Id: string;
  accountId: string;
  name: string | null;
  isTrial: boolean;
  isVa: boolean;
  isActive: boolean;
  scanCapacity: number;
  tagCapacity: number;
  geoImageCapacity: number;
  start: Date | null;
  end: Date | null;
  inviteAccountOwnerInNewProjects: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SubscriptionsRepo {
  byId(id: string): Promise<SubscriptionRecord | null>;
  byApi1Id(api1Id: string): Promise<SubscriptionRecord | null>;
  listByAccount(accountId: string): Promise<SubscriptionRecord[]>;
  insert(s: Omit<SubscriptionRecord, 'createdAt' | 'updatedAt'>, now: Date): Promise<SubscriptionRecord>;
  update(
    id: string,
    patch: Partial<Omit<SubscriptionRecord, 'id' | 'api1Id' | 'accountId' | 'createdAt' | 'updatedAt'>>,
    now: Date,
  ): Promise<void>;
}

export interface AuthorizationCodeRecord {
  codeHash: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string | null;
  expiresAt: Date;
}

export interface RefreshTokenRecord {
  id: string;
  userId: string;
  expiresAt: Date;
}

export interface OAuthRepo {
  insertCode(code: AuthorizationCodeRecord, now: Date): Promise<void>;
  /** Marks the code used in one conditional statement; null when unknown, used or expired. */
  consumeCode(codeHash: string, now: Date): Promise<AuthorizationCodeRecord | null>;
  insertRefreshToken(t: { id: string; tokenHash: string; userId: string; expiresAt: Date }, now: Date): Promise<void>;
  refreshTokenOwner(tokenHash: string): Promise<string | null>;
  /** Consumes a valid refresh token in one conditional UPDATE: exactly one concurrent caller wins. */
  consumeRefreshToken(tokenHash: string, now: Date): Promise<RefreshTokenRecord | null>;
  /** Revokes the user's valid refresh tokens beyond the newest `keep`. */
  revokeExcessRefreshTokens(userId: string, keep: number, now: Date): Promise<number>;
  revokeRefreshToken(tokenHash: string, now: Date): Promise<boolean>;
  countValidRefreshTokens(userId: string, now: Date): Promise<number>;
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
}

export interface ThrottleRecord {
  key: string;
  failures: number;
  windowStart: Date;
  lockedUntil: Date | null;
}

export interface ThrottleRepo {
  get(key: string): Promise<ThrottleRecord | null>;
  put(r: ThrottleRecord): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export interface OutboxRepo {
  insert(id: string, mail: OutboxMail, now: Date): Promise<void>;
  list(limit: number): Promise<(OutboxMail & { id: string; sentAt: Date })[]>;
}

export interface SettingsRepo {
  get<T>(key: string): Promise<T | null>;
  set(key: string, value: unknown): Promise<void>;
}

export interface AdminRepo {
  /** Deletes every row of tenant data; signing keys and settings (the clock) stay. */
  deleteAllData(): Promise<void>;
}

export interface Repos {
  users: UsersRepo;
  accounts: AccountsRepo;
  subscriptions: SubscriptionsRepo;
  oauth: OAuthRepo;
  webSessions: WebSessionsRepo;
  throttle: ThrottleRepo;
  outbox: OutboxRepo;
  settings: SettingsRepo;
  admin: AdminRepo;
}

export interface Store {
  readonly repos: Repos;
  transaction<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
}
