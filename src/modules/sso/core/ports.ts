// What the SSO module needs from persistence and from the OpenID Connect client library,
// free of SQL and of the library (the adapters: ../postgres/sso-repo.ts, ../oidc/openid-client.ts).
import type { AccountsRepos } from '../../accounts/index.ts';
import type { GroupsRepos } from '../../groups/index.ts';
import type { AccountRole, Repos, Store } from '../../../core/ports/repositories.ts';
import type { MappingRule } from './rules.ts';

/** A provider's SAML settings (the column `saml`; docs/identity.md "SAML"). */
export interface SamlSettings {
  /** The IdP's single sign-on URL (HTTP-Redirect binding). */
  ssoUrl: string;
  /** The IdP's signing certificates, PEM (several while the IdP rolls its key over). */
  certificates: string[];
  /** The attributes read from the assertion (defaults: Entra ID's and Okta's claim URIs). */
  attributes: SamlAttributeNames;
}

export interface SamlAttributeNames {
  email: string;
  firstName: string;
  lastName: string;
  /** Its values are the `groups` claim the mapping rules read. */
  groups: string;
}

export interface SsoProviderRecord {
  accountId: string;
  protocol: 'oidc' | 'saml';
  displayName: string;
  /** OIDC: the issuer identifier; SAML: the IdP's entity ID. */
  issuer: string;
  /** OIDC: the client id at the IdP; SAML: our SP entity ID (the audience). */
  clientId: string;
  /** SAML only (null for OIDC). */
  saml: SamlSettings | null;
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

/** An AuthnRequest sent, until the browser comes back with its response. */
export interface SamlRequestRecord {
  requestId: string;
  accountId: string;
  browserHash: string;
  loginHint: string;
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
  insertSamlRequest(r: SamlRequestRecord): Promise<void>;
  /**
   * The ACS endpoint's step: leaves a validated identity on the unexpired request `requestId`
   * of the account, under a ticket (hashed); false when no such request waits for one.
   */
  settleSamlRequest(p: { accountId: string; requestId: string; ticketHash: string; identity: Record<string, unknown> }, now: Date): Promise<boolean>;
  /** Deletes and answers the settled, unexpired request of a ticket: a ticket is taken once. */
  takeSamlTicket(ticketHash: string, now: Date): Promise<(SamlRequestRecord & { identity: Record<string, unknown> }) | null>;
  /** Records an assertion ID as accepted; false when it was accepted already (a replay). */
  rememberAssertion(p: { issuer: string; assertionId: string; accountId: string; expiresAt: Date }): Promise<boolean>;
  /** Deletes and answers the unexpired login of a state hash: a state is taken once. */
  takeLogin(stateHash: string, now: Date): Promise<SsoLoginRecord | null>;
  /** Deletes the expired sign-ins under way (OIDC and SAML) and the assertion IDs past their NotOnOrAfter. */
  pruneLogins(now: Date): Promise<number>;
}

/** The store as the module's use cases see it: the kernel's repositories and its own. */
/** The repositories the module's use cases reach: the kernel's and its own. */
export type SsoRepos = Repos & AccountsRepos & GroupsRepos & { sso: SsoRepo };
export type SsoStore = Store<SsoRepos>;

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

/** What the SAML service provider needs of an account's IdP and of our endpoints. */
export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
  spEntityId: string;
  acsUrl: string;
}

/** A validated assertion: what the core reads of it. */
export interface SamlAssertion {
  id: string;
  issuer: string;
  nameId: string;
  nameIdFormat: string | null;
  /** The SubjectConfirmationData's InResponseTo: the AuthnRequest it answers. */
  inResponseTo: string | null;
  /** Until when its ID must be refused again (its latest NotOnOrAfter plus the clock skew). */
  notOnOrAfter: Date;
  attributes: Record<string, string | string[]>;
}

/**
 * Why a SAML response was refused: `signature` (no valid signature of the IdP's certificate),
 * `expired` (NotBefore/NotOnOrAfter), `audience`, `recipient` (Recipient or Destination not our
 * ACS URL), `idp-refused` (the IdP reported an error, or the response is malformed).
 */
export type SamlRefusalReason = 'signature' | 'expired' | 'audience' | 'recipient' | 'idp-refused';

export class SamlRefusal extends Error {
  override name = 'SamlRefusal';
  readonly reason: SamlRefusalReason;
  constructor(reason: SamlRefusalReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The SAML service provider (@node-saml/node-saml): the AuthnRequest, the response's validation, the SP metadata. */
export interface SamlServiceProvider {
  /** The IdP's SSO URL carrying the AuthnRequest `requestId` (HTTP-Redirect binding) and the RelayState. */
  authnRequestUrl(idp: SamlIdp, p: { requestId: string; relayState: string }): Promise<URL>;
  /** Validates a POSTed SAMLResponse (base64) at `nowMs`; throws SamlRefusal. */
  validate(idp: SamlIdp, samlResponse: string, nowMs: number): Promise<SamlAssertion>;
  /** Whether the IdP's SSO URL answers at all (any HTTP status) within the timeout; throws IdpError('unreachable'). */
  probe(idp: SamlIdp): Promise<void>;
  /** The SP's metadata XML. */
  metadata(idp: SamlIdp): string;
  /** What an IdP's metadata XML says: its entity ID, its HTTP-Redirect SSO URL, its signing certificates (base64); null when it is no IdP metadata. */
  idpFromMetadata(xml: string): { entityId: string; ssoUrl: string | null; certificates: string[] } | null;
}

export type { AccountRole };
