// Pure rules of single sign-on (docs/identity.md): what a provider's settings, a domain and a
// mapping rule may be, and which groups and account roles an ID token's claims give.
import { X509Certificate } from 'node:crypto';
import { invalidInput } from '../../../core/errors.ts';
import type { AccountRole } from '../../../core/ports/repositories.ts';
import { ACCOUNT_ROLES } from '../../../core/permissions/account-roles.ts';

export const SSO_LIMITS = {
  displayNameChars: 80,
  issuerChars: 2048,
  clientIdChars: 512,
  clientSecretChars: 2048,
  scopes: 20,
  scopeChars: 100,
  domainsPerAccount: 50,
  rulesPerAccount: 200,
  claimChars: 100,
  valueChars: 256,
  /** How long a sign-in may stay at the IdP before its state expires. */
  loginSeconds: 10 * 60,
};

/** Scopes every provider is asked for: `openid` makes it OIDC, `email` names the user. */
export const REQUIRED_SCOPES = ['openid', 'email'] as const;
export const DEFAULT_SCOPES = ['openid', 'email', 'profile'] as const;

/** Claims a rule may not match on: they identify, they do not describe membership. */
const RESERVED_CLAIMS = new Set(['iss', 'aud', 'exp', 'iat', 'nbf', 'nonce', 'at_hash', 'c_hash', 'azp', 'auth_time', 'jti']);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The issuer identifier as stored: an absolute https URL without query or fragment (OIDC
 * Discovery §4: `<issuer>/.well-known/openid-configuration`), http only on a loopback host
 * (an IdP on the same machine, and the tests'). No trailing slash is added or removed: the
 * ID token's `iss` must equal it exactly.
 */
export function checkIssuer(issuer: string): string {
  const bad = (why: string) => invalidInput(`issuer ${why}`, { field: 'issuer' });
  if (issuer.length > SSO_LIMITS.issuerChars) throw bad(`must be at most ${SSO_LIMITS.issuerChars} characters`);
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw bad('must be an absolute URL');
  }
  if (url.search || url.hash || issuer.includes('#')) throw bad('must have no query and no fragment');
  if (url.username || url.password) throw bad('must carry no credentials');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    throw bad('must be an https URL (http only on localhost)');
  }
  return issuer;
}

export function checkScopes(scopes: readonly string[] | undefined): string[] {
  const list = [...new Set([...REQUIRED_SCOPES, ...(scopes ?? DEFAULT_SCOPES)])];
  if (list.length > SSO_LIMITS.scopes) throw invalidInput(`at most ${SSO_LIMITS.scopes} scopes`, { field: 'scopes' });
  for (const s of list) {
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s) || s.length > SSO_LIMITS.scopeChars) {
      throw invalidInput(`scope ${JSON.stringify(s.slice(0, 40))} is not a valid OAuth scope token`, { field: 'scopes' });
    }
  }
  return list;
}

export function checkText(field: string, value: string, max: number): string {
  const v = value.trim();
  if (!v) throw invalidInput(`${field} must not be empty`, { field });
  if (v.length > max) throw invalidInput(`${field} must be at most ${max} characters`, { field });
  if ([...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw invalidInput(`${field} must not contain control characters`, { field });
  return v;
}

/**
 * A domain as stored: lower case, no trailing dot, letters/digits/hyphens labels (IDNs in
 * their xn-- form), at least two labels, each 1-63 characters, the whole ≤ 253.
 */
export function normaliseDomain(input: string): string {
  const d = input.trim().toLowerCase().replace(/\.$/, '');
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  const labels = d.split('.');
  if (d.length > 253 || labels.length < 2 || !labels.every((l) => label.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) {
    throw invalidInput('domain must be a DNS name such as example.com', { field: 'domain' });
  }
  return d;
}

/** The domain of an e-mail address (lower case), or null when it has none. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1 || email.length > 320) return null;
  return email.slice(at + 1).trim().toLowerCase().replace(/\.$/, '') || null;
}

export interface MappingRuleInput {
  claim: string;
  value: string;
  groupId?: string | null;
  accountRole?: AccountRole | null;
}

export function checkRule(r: MappingRuleInput): { claim: string; value: string; groupId: string | null; accountRole: AccountRole | null } {
  const claim = checkText('claim', r.claim, SSO_LIMITS.claimChars);
  if (RESERVED_CLAIMS.has(claim)) throw invalidInput(`claim ${claim} identifies the token, it cannot map access`, { field: 'claim' });
  if (r.value.length === 0 || r.value.length > SSO_LIMITS.valueChars) {
    throw invalidInput(`value must be 1 to ${SSO_LIMITS.valueChars} characters`, { field: 'value' });
  }
  const accountRole = r.accountRole ?? null;
  if (accountRole !== null && !(ACCOUNT_ROLES as readonly string[]).includes(accountRole)) {
    throw invalidInput(`accountRole must be one of ${ACCOUNT_ROLES.join(', ')}`, { field: 'accountRole' });
  }
  const groupId = r.groupId ?? null;
  if (groupId === null && accountRole === null) throw invalidInput('a rule gives a group, an account role, or both', { field: 'group' });
  return { claim, value: r.value, groupId, accountRole };
}

export interface MappingRule {
  id: string;
  claim: string;
  value: string;
  groupId: string | null;
  accountRole: AccountRole | null;
}

/** Whether a claim holds a value: equal to it (string, number, boolean), or an array containing it. */
export function claimHolds(claim: unknown, value: string): boolean {
  if (Array.isArray(claim)) return claim.some((c) => claimHolds(c, value));
  if (typeof claim === 'string') return claim === value;
  if (typeof claim === 'number' || typeof claim === 'boolean') return String(claim) === value;
  return false;
}

/** A claim by name; a dotted name reads nested objects (`realm_access.roles`, Keycloak's). */
export function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

export interface MappedAccess {
  /** The groups the rules give the user. */
  groupIds: string[];
  /** The account roles the rules give him. */
  roles: AccountRole[];
  /** Every group some rule names: SSO manages the user's membership in these (and only these). */
  managedGroupIds: string[];
  /** Every role some rule names: SSO sets or clears these (and only these). */
  managedRoles: AccountRole[];
}

/**
 * What the account's rules give a user whose ID token carries `claims`. Rules only add; a
 * group or role that some rule names but no rule gives this user is one he must not have.
 */
export function mapClaims(claims: Record<string, unknown>, rules: readonly MappingRule[]): MappedAccess {
  const groupIds = new Set<string>();
  const roles = new Set<AccountRole>();
  const managedGroupIds = new Set<string>();
  const managedRoles = new Set<AccountRole>();
  for (const r of rules) {
    if (r.groupId) managedGroupIds.add(r.groupId);
    if (r.accountRole) managedRoles.add(r.accountRole);
    if (!claimHolds(claimAt(claims, r.claim), r.value)) continue;
    if (r.groupId) groupIds.add(r.groupId);
    if (r.accountRole) roles.add(r.accountRole);
  }
  return { groupIds: [...groupIds], roles: [...roles], managedGroupIds: [...managedGroupIds], managedRoles: [...managedRoles] };
}

/** The member's roles after a sign-in: the unmanaged ones he had, plus the managed ones the rules give. */
export function rolesAfterSignIn(current: readonly AccountRole[], mapped: MappedAccess): AccountRole[] {
  const kept = current.filter((r) => !mapped.managedRoles.includes(r));
  return ACCOUNT_ROLES.filter((r) => kept.includes(r) || mapped.roles.includes(r));
}

/** The attribute names read from a SAML assertion by default: Entra ID's claim URIs (Okta's attribute statements may use the same). */
export const DEFAULT_SAML_ATTRIBUTES = {
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  firstName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  lastName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
} as const;

export const SAML_LIMITS = {
  entityIdChars: 1024,
  ssoUrlChars: 2048,
  certificates: 4,
  certificateChars: 16 * 1024,
  attributeChars: 256,
};

/** An IdP's entity ID: a URI (SAML core §8.3.6), at most 1024 characters. */
export function checkEntityId(value: string, field: string): string {
  const v = checkText(field, value, SAML_LIMITS.entityIdChars);
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(v)) throw invalidInput(`${field} must be a URI (https://… or urn:…)`, { field });
  return v;
}

/** The IdP's SSO URL: https (http only on a loopback host, like an OIDC issuer), no fragment. */
export function checkSsoUrl(value: string, field = 'saml.ssoUrl'): string {
  const bad = (why: string) => invalidInput(`${field} ${why}`, { field });
  if (value.length > SAML_LIMITS.ssoUrlChars) throw bad(`must be at most ${SAML_LIMITS.ssoUrlChars} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad('must be an absolute URL');
  }
  if (url.hash || url.username || url.password) throw bad('must have no fragment and no credentials');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) throw bad('must be an https URL (http only on localhost)');
  return value;
}

/** A SAML attribute name (a URI or a plain name). */
export function checkAttributeName(value: string, field: string): string {
  const v = checkText(field, value, SAML_LIMITS.attributeChars);
  if (/\s/.test(v)) throw invalidInput(`${field} must not contain spaces`, { field });
  return v;
}

/**
 * A certificate as stored: PEM of one X.509 certificate that parses, from PEM or from the bare
 * base64 of its DER (what IdP metadata and Entra ID's "Certificate (Base64)" give).
 */
export function checkCertificate(value: string, field: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const bad = () => invalidInput(`${field} must be one X.509 certificate, PEM or base64 (as the IdP's metadata gives it)`, { field });
  if (!body || body.length > SAML_LIMITS.certificateChars || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw bad();
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw bad();
  }
  return pem;
}

/** What an administrator reads of a certificate: never more than the certificate says of itself. */
export function describeCertificate(pem: string): { subject: string; notAfter: string; sha256Fingerprint: string } {
  const c = new X509Certificate(pem);
  return { subject: c.subject, notAfter: new Date(c.validTo).toISOString(), sha256Fingerprint: c.fingerprint256 };
}

/** An account's SAML endpoints on this deployment: our SP entity ID (the audience), the ACS URL, the SP metadata. */
export function samlEndpoints(publicUrl: string, accountId: string): { spEntityId: string; acsUrl: string; metadataUrl: string } {
  const base = `${publicUrl}/sso/saml/${accountId}`;
  return { spEntityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}
