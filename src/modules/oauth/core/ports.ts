// The oauth module's repository ports (its SQL: src/modules/oauth/postgres/): the
// authorization codes and refresh tokens (migration tables authorization_codes,
// refresh_tokens) and the sign-in pages' browser sessions (web_sessions). The users module's
// invitations, the seeder, the administration command and SCIM end a user's sessions in their
// transactions (endEverySession): each declares them through this module's public face
// (OauthRepos). The user's revocation point (users.tokens_valid_after) is read through the
// kernel's users repository (UsersRepo.tokenState).

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

/** The oauth module's repositories, by name: what a transaction that ends a user's sessions declares. */
export interface OauthRepos {
  oauth: OAuthRepo;
  webSessions: WebSessionsRepo;
}
