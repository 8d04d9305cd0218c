// What the SSO module needs from persistence and from the OpenID Connect client library,
// free of SQL and of the library (the adapters: ../postgres/sso-repo.ts, ../oidc/openid-client.ts).
import type { AccountRole, Repos, Store } from '../../../core/ports/repositories.ts';
import type { MappingRule } from './rules.ts';

export interface SsoProviderRecord {
  accountId: string;
  displayName: string;
  issuer: string;
  clientId: string;
  /** The sealed client secret (null: a public client, PKCE only); opened only to talk to the IdP. */
  clientSecretSealed: string | null;
  scopes: string[];
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SsoDomainRecord {
  accountId: string;
  domain: string;
  verificationTokenHash: string;
  verifiedAt: Date | null;
  requireSso: boolean;
  createdAt: Date;
}

export interface SsoMappingRuleRecord extends MappingRule {
  accountId: string;
  createdAt: Date;
}

/** A sign-in under way at the IdP (its state is the key, hashed). */
export interface SsoLoginRecord {
  stateHash: string;
  accountId: string;
  /** SHA-256 of the browser's session cookie: the callback must come back in the same browser. */
  browserHash: string;
  codeVerifier: string;
  nonce: string;
  /** The e-mail address typed on the sign-in page. */
  loginHint: string;
  /** The authorize request's fields, to continue the OAuth flow after the callback. */
  returnTo: Record<string, string>;
  expiresAt: Date;
}

/** The SSO tables, bound to one executor like every repository (ports/repositories.ts). */
export interface SsoRepo {
  provider(accountId: string): Promise<SsoProviderRecord | null>;
  putProvider(p: Omit<SsoProviderRecord, 'createdAt' | 'updatedAt'>, now: Date): Promise<SsoProviderRecord>;
  removeProvider(accountId: string): Promise<boolean>;

  domains(accountId: string): Promise<SsoDomainRecord[]>;
  domain(accountId: string, domain: string): Promise<SsoDomainRecord | null>;
  /** The verified claim of a domain (one account at most). */
  verifiedDomain(domain: string): Promise<SsoDomainRecord | null>;
  /** Unverified claims of a domain, every account's (the operator's confirmation looks them up). */
  pendingDomains(domain: string): Promise<SsoDomainRecord[]>;
  insertDomain(d: SsoDomainRecord): Promise<void>;
  /** Marks the claim verified; throws UniqueViolation when another account's claim is verified already. */
  verifyDomain(accountId: string, domain: string, now: Date): Promise<void>;
  setRequireSso(accountId: string, domain: string, requireSso: boolean): Promise<void>;
  removeDomain(accountId: string, domain: string): Promise<boolean>;

  rules(accountId: string): Promise<SsoMappingRuleRecord[]>;
  insertRule(r: SsoMappingRuleRecord): Promise<void>;
  /** Replaces a rule's claim, value, group and role (its id and creation time stay); null when the account has no such rule. */
  updateRule(r: Omit<SsoMappingRuleRecord, 'createdAt'>): Promise<SsoMappingRuleRecord | null>;
  removeRule(accountId: string, id: string): Promise<boolean>;

  identity(accountId: string, issuer: string, subject: string): Promise<string | null>;
  linkIdentity(p: { accountId: string; issuer: string; subject: string; userId: string }, now: Date): Promise<void>;

  insertLogin(l: SsoLoginRecord): Promise<void>;
  /** Deletes and answers the unexpired login of a state hash: a state is taken once. */
  takeLogin(stateHash: string, now: Date): Promise<SsoLoginRecord | null>;
  pruneLogins(now: Date): Promise<number>;
}

/** The store as the module's use cases see it: the kernel's repositories and its own. */
export type SsoStore = Store<Repos & { sso: SsoRepo }>;

/** Seals and opens the client secrets: the kernel's box (src/core/crypto/secret-box.ts). */
export type { SecretBox } from '../../../core/crypto/secret-box.ts';

/** The provider's settings a request to the IdP needs (the secret opened). */
export interface IdpClient {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  scopes: readonly string[];
  redirectUri: string;
}

/** Why talking to the IdP failed: `unreachable` (down, timed out, bad discovery), `refused` (an answer that fails a check). */
export class IdpError extends Error {
  override name = 'IdpError';
  readonly reason: 'unreachable' | 'refused';
  constructor(reason: 'unreachable' | 'refused', message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The OpenID Connect relying party (openid-client): discovery, the authorization URL, the code grant. */
export interface OidcRelyingParty {
  /** Discovers the IdP (cached a while) and answers the authorization request's URL (code, PKCE S256, state, nonce). */
  authorizationUrl(client: IdpClient, p: { state: string; nonce: string; codeVerifier: string; loginHint: string }): Promise<URL>;
  /**
   * Redeems the code of the callback URL and answers the validated ID token's claims: issuer,
   * audience, expiry, signature (against the IdP's keys), nonce, state and PKCE. Throws IdpError.
   */
  redeem(client: IdpClient, callbackUrl: URL, p: { state: string; nonce: string; codeVerifier: string }): Promise<Record<string, unknown>>;
}

export type { AccountRole };
