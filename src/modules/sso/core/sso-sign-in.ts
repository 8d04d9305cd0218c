// Single sign-on at the sign-in page (docs/identity.md "Signing in"): which IdP an e-mail
// address signs in with, whether its password is refused, the redirect to the IdP
// (authorization code + PKCE S256 + state + nonce), and the callback: the ID token validated,
// the user found or created just in time, his account membership, groups and account roles
// set by the mapping rules, all in one transaction. The pages then continue the OAuth flow
// exactly as after a password sign-in.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { noteSignedIn } from '../../../core/permissions/decisions.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { AccountRole } from '../../../core/ports/repositories.ts';
import type { Logger } from '../../../core/ports/telemetry.ts';
import {
  IdpError, SamlRefusal, type IdpClient, type OidcRelyingParty, type SamlAssertion, type SamlAttributeNames, type SamlIdp, type SamlRefusalReason,
  type SamlServiceProvider, type SecretBox, type SsoProviderRecord, type SsoRepos } from './ports.ts';
import { domainOfEmail, mapClaims, rolesAfterSignIn, samlEndpoints, SSO_LIMITS } from './rules.ts';

/** The IdP an e-mail address signs in with. */
export interface SsoRoute {
  accountId: string;
  /** The provider's name as the page shows it ("Continue with …"). */
  displayName: string;
  domain: string;
  /** Password sign-in is refused for the domain's users. */
  requireSso: boolean;
  /** The IdP's origin (its issuer's): the page's form may be redirected there. */
  issuerOrigin: string;
}

/**
 * Why a sign-in at the IdP did not complete; the callback page says it in words.
 * `state`: unknown, used or expired state (a replay, a stale tab); `browser`: the callback came
 * back in another browser; `idp-unavailable`: the IdP did not answer in time or answered
 * nonsense; `idp-refused`: the IdP's answer failed a check (signature, nonce, audience…) or
 * the IdP reported an error; `identity`: the token names no usable, verified e-mail of the
 * account's domains. SAML adds: `signature` (no valid signature of the IdP's certificate),
 * `expired` (outside NotBefore/NotOnOrAfter and the clock skew), `audience`, `recipient`
 * (addressed to another ACS URL), `replay` (an assertion ID accepted already), `in-response-to`
 * (the assertion answers no AuthnRequest this account sent and still waits for).
 */
export type SsoFailureReason = 'state' | 'browser' | 'idp-unavailable' | 'idp-refused' | 'identity' | 'not-configured'
  | SamlRefusalReason | 'replay' | 'in-response-to';

export class SsoSignInFailure extends Error {
  override name = 'SsoSignInFailure';
  readonly reason: SsoFailureReason;
  constructor(reason: SsoFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface CompletedSsoSignIn {
  userId: string;
  /** The authorize request's fields to continue with. */
  returnTo: Record<string, string>;
  /** A user created by this sign-in. */
  created: boolean;
}

export interface SsoSignIn {
  /** The IdP of an e-mail address's domain: a verified domain of an account whose provider is enabled; null otherwise. */
  routeFor(email: string): Promise<SsoRoute | null>;
  /** Starts a sign-in at the IdP: answers the URL to redirect the browser to. Throws SsoSignInFailure. */
  begin(p: { email: string; browserCookie: string; returnTo: Record<string, string> }): Promise<URL>;
  /** Completes a sign-in from the IdP's redirect back (the callback URL as received). Throws SsoSignInFailure. */
  complete(p: { callbackUrl: URL; browserCookie: string }): Promise<CompletedSsoSignIn>;
  /**
   * SAML's ACS endpoint (a cross-site POST, no cookie): validates the response, accepts its
   * assertion ID once, and leaves the identity with the AuthnRequest it answers; answers the
   * one-time ticket the browser brings to finishSaml. Throws SsoSignInFailure.
   */
  acceptSaml(p: { accountId: string; samlResponse: string }): Promise<string>;
  /** SAML's last step, in the browser's own session: the ticket taken, the browser checked, the user provisioned. Throws SsoSignInFailure. */
  finishSaml(p: { ticket: string; browserCookie: string }): Promise<CompletedSsoSignIn>;
  /** Whether the account's provider is SAML and enabled (the ACS endpoint reads no body otherwise). */
  acceptsSaml(accountId: string): Promise<boolean>;
  /** The SP metadata of an account whose provider speaks SAML; null otherwise. */
  samlMetadata(accountId: string): Promise<string | null>;
  /** Deletes the expired sign-ins under way and assertion IDs (the janitor's pass). */
  prune(): Promise<number>;
}

const LOCK = (accountId: string, email: string) => `sso-user:${accountId}:${email.toLowerCase()}`;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SSO_SIGN_IN_STORE = storeUseOf<SsoRepos>()({ reads: ['sso'], writes: ['accounts', 'events', 'groups', 'locks', 'sso', 'users'] });

export function createSsoSignIn(deps: {
  store: SliceOf<typeof SSO_SIGN_IN_STORE, SsoRepos>
  clock: Clock;
  ids: Ids;
  secrets: SecretBox;
  relyingParty: OidcRelyingParty;
  logger: Logger;
  /** The redirect URI registered at every IdP: `${publicUrl}/sso/callback`. */
  redirectUri: string;
  samlSp: SamlServiceProvider;
  publicUrl: string;
}): SsoSignIn {
  const { clock, ids, secrets, relyingParty, logger, redirectUri, samlSp, publicUrl } = deps;
  const store = sliceOf(deps.store, SSO_SIGN_IN_STORE);

  const samlIdpOf = (p: SsoProviderRecord): SamlIdp => {
    const { spEntityId, acsUrl } = samlEndpoints(publicUrl, p.accountId);
    return { entityId: p.issuer, ssoUrl: p.saml!.ssoUrl, certificates: p.saml!.certificates, spEntityId, acsUrl };
  };

  async function clientOf(p: SsoProviderRecord): Promise<IdpClient> {
    let clientSecret: string | null = null;
    if (p.clientSecretSealed) {
      try {
        clientSecret = await secrets.open(p.clientSecretSealed);
      } catch (e) {
        // Sealed under another deployment's key (a snapshot restored here): set it again.
        logger.warn({ accountId: p.accountId, error: e instanceof Error ? e.message : String(e) }, 'sso client secret cannot be opened');
        throw new SsoSignInFailure('not-configured', "The identity provider's client secret cannot be read on this deployment: an account administrator must set it again.");
      }
    }
    return { issuer: p.issuer, clientId: p.clientId, scopes: p.scopes, redirectUri, clientSecret };
  }

  async function routeFor(email: string): Promise<SsoRoute | null> {
    const domain = domainOfEmail(email);
    if (!domain) return null;
    const claim = await store.repos.sso.verifiedDomain(domain);
    if (!claim) return null;
    const provider = await store.repos.sso.provider(claim.accountId);
    if (!provider?.enabled) return null;
    const idpAddress = provider.protocol === 'saml' ? provider.saml!.ssoUrl : provider.issuer;
    return { accountId: claim.accountId, displayName: provider.displayName, domain, requireSso: claim.requireSso, issuerOrigin: new URL(idpAddress).origin };
  }

  const failureOf = (e: unknown): SsoSignInFailure => {
    if (e instanceof IdpError) {
      return e.reason === 'unreachable'
        ? new SsoSignInFailure('idp-unavailable', `The identity provider did not answer: ${e.message}`)
        : new SsoSignInFailure('idp-refused', `The identity provider's answer was refused: ${e.message}`);
    }
    throw e;
  };

  /** The user of the ID token's identity, created when new, with his membership, groups and roles as the rules say; in one transaction. */
  async function provision(provider: SsoProviderRecord, claims: Record<string, unknown>, email: string): Promise<{ userId: string; created: boolean }> {
    const accountId = provider.accountId;
    const subject = String(claims.sub);
    const now = clock.now();
    return store.transaction(async (repos) => {
      await repos.locks.exclusive([LOCK(accountId, email)]);
      const linked = await repos.sso.identity(accountId, provider.issuer, subject);
      let user = linked ? await repos.users.byId(linked) : await repos.users.byEmail(email);
      let created = false;
      if (!user) {
        user = await repos.users.insert({
          id: ids.uuid(), email, passwordHash: null, invitedBy: null, invitedAt: null,
          firstName: nameClaim(claims.given_name), lastName: nameClaim(claims.family_name), company: '', title: '',
        }, now);
        created = true;
      }
      await repos.sso.linkIdentity({ accountId, issuer: provider.issuer, subject, userId: user.id }, now);
      const account = await repos.accounts.byId(accountId);
      await applyRules(repos, accountId, user.id, account?.ownerId === user.id, mapClaims(claims, await repos.sso.rules(accountId)), now);
      return { userId: user.id, created };
    });
  }

  /** The sign-in's end, either protocol: the identity's e-mail of a domain the account verified, the user provisioned. */
  async function signedIn(provider: SsoProviderRecord, claims: Record<string, unknown>, returnTo: Record<string, string>): Promise<CompletedSsoSignIn> {
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    const domain = domainOfEmail(email);
    if (typeof claims.sub !== 'string' || !claims.sub || !domain || claims.email_verified === false) {
      throw new SsoSignInFailure('identity', 'The identity provider sent no verified e-mail address for you; ask your administrator to release the email claim (SAML: the e-mail attribute).');
    }
    const claim = await store.repos.sso.verifiedDomain(domain);
    if (claim?.accountId !== provider.accountId) {
      throw new SsoSignInFailure('identity', `The identity provider signed you in as ${email}, whose domain this account has not verified.`);
    }
    const { userId, created } = await provision(provider, claims, email);
    noteSignedIn(userId);
    logger.info({ accountId: provider.accountId, userId, created, protocol: provider.protocol }, 'sso sign-in');
    return { userId, returnTo, created };
  }

  async function beginSaml(provider: SsoProviderRecord, p: { email: string; browserCookie: string; returnTo: Record<string, string> }): Promise<URL> {
    const idp = samlIdpOf(provider);
    try {
      await samlSp.probe(idp);
    } catch (e) {
      throw failureOf(e);
    }
    // An xs:ID (an NCName): a letter or underscore first.
    const requestId = `_${ids.secret(24)}`;
    const url = await samlSp.authnRequestUrl(idp, { requestId, relayState: '' });
    await store.repos.sso.insertSamlRequest({
      requestId, accountId: provider.accountId, browserHash: sha256Hex(p.browserCookie), loginHint: p.email, returnTo: p.returnTo,
      expiresAt: new Date(clock.nowMs() + SSO_LIMITS.loginSeconds * 1000),
    });
    return url;
  }

  return {
    routeFor,

    async begin({ email, browserCookie, returnTo }) {
      const route = await routeFor(email);
      const provider = route && (await store.repos.sso.provider(route.accountId));
      if (!route || !provider) throw new SsoSignInFailure('not-configured', `No single sign-on is set up for ${domainOfEmail(email) ?? 'this address'}.`);
      if (provider.protocol === 'saml') return beginSaml(provider, { email, browserCookie, returnTo });
      const state = ids.secret(32);
      const nonce = ids.secret(32);
      const codeVerifier = ids.secret(48);
      let url: URL;
      try {
        url = await relyingParty.authorizationUrl(await clientOf(provider), { state, nonce, codeVerifier, loginHint: email });
      } catch (e) {
        throw failureOf(e);
      }
      await store.repos.sso.insertLogin({
        stateHash: sha256Hex(state), accountId: route.accountId, browserHash: sha256Hex(browserCookie),
        codeVerifier, nonce, loginHint: email, returnTo, expiresAt: new Date(clock.nowMs() + SSO_LIMITS.loginSeconds * 1000),
      });
      return url;
    },

    async complete({ callbackUrl, browserCookie }) {
      const state = callbackUrl.searchParams.get('state');
      // Taken at once: a replayed or concurrent callback of the same state finds nothing.
      const login = state && state.length <= 256 ? await store.repos.sso.takeLogin(sha256Hex(state), clock.now()) : null;
      if (!login || !state) throw new SsoSignInFailure('state', 'This sign-in link is unknown, was used already, or expired (a sign-in at the identity provider is valid for 10 minutes).');
      if (login.browserHash !== sha256Hex(browserCookie)) {
        throw new SsoSignInFailure('browser', 'The sign-in came back to a different browser than the one that started it.');
      }
      const provider = await store.repos.sso.provider(login.accountId);
      if (!provider?.enabled) throw new SsoSignInFailure('not-configured', 'Single sign-on was turned off for this account while you were signing in.');
      let claims: Record<string, unknown>;
      try {
        claims = await relyingParty.redeem(await clientOf(provider), callbackUrl, { state, nonce: login.nonce, codeVerifier: login.codeVerifier });
      } catch (e) {
        const failure = failureOf(e);
        logger.warn({ accountId: login.accountId, reason: failure.reason, detail: failure.message }, 'sso sign-in refused');
        throw failure;
      }
      return signedIn(provider, claims, login.returnTo);
    },

    async acceptSaml({ accountId, samlResponse }) {
      const provider = await store.repos.sso.provider(accountId);
      if (provider?.protocol !== 'saml' || !provider.enabled) {
        throw new SsoSignInFailure('not-configured', 'This account has no SAML single sign-on turned on.');
      }
      let assertion: SamlAssertion;
      try {
        assertion = await samlSp.validate(samlIdpOf(provider), samlResponse, clock.nowMs());
      } catch (e) {
        if (!(e instanceof SamlRefusal)) throw e;
        logger.warn({ accountId, reason: e.reason, detail: e.message }, 'saml response refused');
        throw new SsoSignInFailure(e.reason, SAML_MESSAGES[e.reason](e.message));
      }
      const ticket = ids.secret(32);
      const claims = samlClaims(assertion, provider.saml!.attributes);
      // Accepted once, on every node: the ID recorded and the request settled together.
      await store.transaction(async (repos) => {
        if (!(await repos.sso.rememberAssertion({ issuer: assertion.issuer, assertionId: assertion.id, accountId, expiresAt: assertion.notOnOrAfter }))) {
          throw new SsoSignInFailure('replay', 'This sign-in response was used already: a SAML assertion is accepted once.');
        }
        const settled = assertion.inResponseTo !== null &&
          (await repos.sso.settleSamlRequest({ accountId, requestId: assertion.inResponseTo, ticketHash: sha256Hex(ticket), identity: claims }, clock.now()));
        if (!settled) {
          throw new SsoSignInFailure('in-response-to', 'This sign-in response answers no sign-in this account started (or it expired after 10 minutes): sign-ins start on Scanbase\'s sign-in page.');
        }
      }).catch(async (e: unknown) => {
        // A refusal rolls the transaction back: an unknown InResponseTo still burns the assertion ID.
        if (e instanceof SsoSignInFailure && e.reason === 'in-response-to') {
          await store.repos.sso.rememberAssertion({ issuer: assertion.issuer, assertionId: assertion.id, accountId, expiresAt: assertion.notOnOrAfter });
        }
        throw e;
      });
      return ticket;
    },

    async finishSaml({ ticket, browserCookie }) {
      const login = ticket.length <= 256 ? await store.repos.sso.takeSamlTicket(sha256Hex(ticket), clock.now()) : null;
      if (!login) throw new SsoSignInFailure('state', 'This sign-in link is unknown, was used already, or expired (a sign-in at the identity provider is valid for 10 minutes).');
      if (login.browserHash !== sha256Hex(browserCookie)) {
        throw new SsoSignInFailure('browser', 'The sign-in came back to a different browser than the one that started it.');
      }
      const provider = await store.repos.sso.provider(login.accountId);
      if (provider?.protocol !== 'saml' || !provider.enabled) throw new SsoSignInFailure('not-configured', 'Single sign-on was turned off for this account while you were signing in.');
      return signedIn(provider, login.identity, login.returnTo);
    },

    async acceptsSaml(accountId) {
      const provider = await store.repos.sso.provider(accountId);
      return provider?.protocol === 'saml' && provider.enabled;
    },

    async samlMetadata(accountId) {
      const provider = await store.repos.sso.provider(accountId);
      return provider?.protocol === 'saml' ? samlSp.metadata(samlIdpOf(provider)) : null;
    },

    prune: () => store.repos.sso.pruneLogins(clock.now()),
  };
}

const nameClaim = (v: unknown): string => (typeof v === 'string' ? v.trim().slice(0, 100) : '');

/** The member's account roles and groups as the mapping rules give them (unmanaged ones untouched); the owner's roles stay. */
async function applyRules(repos: Pick<SsoRepos, 'accounts' | 'groups' | 'events'>, accountId: string, userId: string, isOwner: boolean, mapped: ReturnType<typeof mapClaims>, now: Date): Promise<void> {
  const member = await repos.accounts.member(accountId, userId);
  const roles: AccountRole[] = isOwner ? (member?.roles ?? []) : rolesAfterSignIn(member?.roles ?? [], mapped);
  if (!member) {
    await repos.accounts.upsertMember({ accountId, userId, roles, invitedBy: null, invitedAt: null });
    await repos.events.publish(eventOf('user.added', accountId, subjectOf('user', userId), { userId, invitedBy: userId, roles }), now);
  } else if (roles.join() !== member.roles.join()) {
    await repos.accounts.upsertMember({ ...member, roles });
    await repos.events.publish(eventOf('user.roles-changed', accountId, subjectOf('user', userId), { userId, roles }), now);
  }
  if (mapped.managedGroupIds.length === 0) return;
  for (const group of await repos.groups.listByAccount(accountId)) {
    if (!mapped.managedGroupIds.includes(group.id)) continue;
    const has = group.userIds.includes(userId);
    const gets = mapped.groupIds.includes(group.id);
    if (has === gets) continue;
    if (gets) await repos.groups.addMembers(group.id, [userId], now);
    else await repos.groups.removeMembers(group.id, [userId]);
    await repos.groups.touch(group.id, now);
    await repos.events.publish(
      eventOf(gets ? 'group.member-added' : 'group.member-removed', accountId, subjectOf('group', group.id), { groupId: group.id, userId }), now,
    );
  }
}

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const TRANSIENT_NAME_ID = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

/** The page's words for a refused SAML response (the library's detail after them). */
const SAML_MESSAGES: Record<SamlRefusalReason, (detail: string) => string> = {
  signature: (d) => `The identity provider's answer was refused: its signature does not verify with the certificate configured for this account (${d}).`,
  expired: (d) => `The identity provider's answer was refused: it is expired or not yet valid (${d}); check that the IdP's clock is right, then sign in again.`,
  audience: (d) => `The identity provider's answer was refused: it is meant for another service (${d}); the IdP must use this account's SP entity ID.`,
  recipient: (d) => `The identity provider's answer was refused: ${d}.`,
  'idp-refused': (d) => `The identity provider's answer was refused: ${d}.`,
};

/**
 * An assertion as the mapping rules and the provisioning read it, the same names as an ID
 * token's claims: `sub` (the NameID; the e-mail for a transient one), `email`, `given_name`,
 * `family_name`, `groups` (the groups attribute's values), and every attribute by its name.
 */
export function samlClaims(a: SamlAssertion, names: SamlAttributeNames): Record<string, unknown> {
  const first = (name: string): string | undefined => {
    const v = a.attributes[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const email = first(names.email) ?? (a.nameIdFormat === EMAIL_NAME_ID ? a.nameId : undefined);
  const groups = a.attributes[names.groups];
  const sub = a.nameIdFormat === TRANSIENT_NAME_ID || !a.nameId ? (email ? `email:${email.toLowerCase()}` : '') : a.nameId;
  return {
    ...a.attributes, sub, email, given_name: first(names.firstName), family_name: first(names.lastName),
    groups: groups === undefined ? [] : [groups].flat(),
  };
}
