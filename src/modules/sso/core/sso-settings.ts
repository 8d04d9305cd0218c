// An account's single sign-on settings (docs/identity.md "Configuration"): its OIDC identity
// provider, its e-mail domains and their "require SSO" switch, its mapping rules. Reading
// needs account:administrators:read, every change account:administrators:write: the account
// owner's and administrators' permissions, no one else's. The client secret goes in sealed and
// never comes out. A domain becomes the account's when the operator confirms it
// (confirmDomain: the admin command, docs/identity.md "Verifying a domain").
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { sha256Hex, safeEqual } from '../../../core/crypto/digest.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { UniqueViolation } from '../../../core/ports/repositories.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import type { SamlAttributeNames, SamlServiceProvider, SamlSettings, SecretBox, SsoDomainRecord, SsoMappingRuleRecord, SsoProviderRecord, SsoRepo, SsoRepos } from './ports.ts';
import {
  checkAttributeName, checkCertificate, checkEntityId, checkIssuer, checkRule, checkScopes, checkSsoUrl, checkText, DEFAULT_SAML_ATTRIBUTES,
  normaliseDomain, SAML_LIMITS, samlEndpoints, SSO_LIMITS, type MappingRuleInput,
} from './rules.ts';

export interface ProviderInput {
  /** Omitted: oidc. */
  protocol?: 'oidc' | 'saml';
  displayName: string;
  /** OIDC only (required there). */
  issuer?: string;
  /** OIDC only (required there). */
  clientId?: string;
  /** SAML only (required there). */
  saml?: SamlInput;
  /** Omitted: the stored secret stays; null: none (a public client). */
  clientSecret?: string | null;
  scopes?: string[];
  enabled?: boolean;
}

/** An account's SAML IdP as an administrator gives it: each field, or its metadata XML (fields given win). */
export interface SamlInput {
  entityId?: string;
  ssoUrl?: string;
  certificates?: string[];
  metadataXml?: string;
  attributes?: Partial<SamlAttributeNames>;
}

/** Everything an administrator reads of the account's SSO (the secret only as "set or not"). */
export interface SsoSettingsView {
  provider: SsoProviderRecord | null;
  domains: SsoDomainRecord[];
  rules: SsoMappingRuleRecord[];
}

/** A new domain claim with its verification token: the answer of the claim only. */
export interface ClaimedDomain {
  domain: SsoDomainRecord;
  verificationToken: string;
}

export interface SsoSettings {
  settings(actor: Actor, accountRef: EntityRef): Promise<SsoSettingsView>;
  putProvider(actor: Actor, accountRef: EntityRef, input: ProviderInput): Promise<SsoProviderRecord>;
  removeProvider(actor: Actor, accountRef: EntityRef): Promise<void>;
  claimDomain(actor: Actor, accountRef: EntityRef, domain: string): Promise<ClaimedDomain>;
  setRequireSso(actor: Actor, accountRef: EntityRef, domain: string, requireSso: boolean): Promise<SsoDomainRecord>;
  removeDomain(actor: Actor, accountRef: EntityRef, domain: string): Promise<void>;
  addRule(actor: Actor, accountRef: EntityRef, rule: Omit<MappingRuleInput, 'groupId'> & { group?: EntityRef | null }): Promise<SsoMappingRuleRecord>;
  /** Replaces a rule's claim, value, group and account role; its id (and place in the list) stay. */
  updateRule(actor: Actor, accountRef: EntityRef, ruleId: string, rule: Omit<MappingRuleInput, 'groupId'> & { group?: EntityRef | null }): Promise<SsoMappingRuleRecord>;
  removeRule(actor: Actor, accountRef: EntityRef, ruleId: string): Promise<void>;
  /**
   * The operator confirms a domain claim (the admin command): the claim whose verification
   * token this is becomes the account's verified domain. 404 when no pending claim of the
   * domain has this token; 409 when another account has the domain verified.
   */
  confirmDomain(domain: string, verificationToken: string): Promise<SsoDomainRecord>;
}

const RULE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ruleNotFound = (ruleId: string) =>
  new DomainError('not-found', 'sso-rule-not-found', `No mapping rule with id ${ruleId.slice(0, 64)}`, { ruleId: ruleId.slice(0, 64) });

const domainNotFound = (domain: string) => new DomainError('not-found', 'sso-domain-not-found', `The account has no claim of the domain ${domain}`, { domain });

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SSO_SETTINGS_STORE = storeUseOf<SsoRepos>()({ reads: ['groups', 'sso'], writes: ['locks', 'sso'] });

export function createSsoSettings(deps: {
  store: SliceOf<typeof SSO_SETTINGS_STORE, SsoRepos>
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  secrets: SecretBox;
  samlSp: Pick<SamlServiceProvider, 'idpFromMetadata'>;
  publicUrl: string;
}): SsoSettings {
  const { clock, ids, authorizer, secrets, samlSp, publicUrl } = deps;
  const store = sliceOf(deps.store, SSO_SETTINGS_STORE);

  /** A SAML provider's settings, every field checked (400 naming it); the metadata XML fills what is not given. */
  function samlSettingsOf(accountId: string, input: ProviderInput): { issuer: string; clientId: string; saml: SamlSettings } {
    for (const field of ['issuer', 'clientId', 'clientSecret', 'scopes'] as const) {
      if (input[field] !== undefined) throw invalidInput(`${field} is an OpenID Connect setting; a SAML provider takes saml.entityId, saml.ssoUrl and saml.certificates`, { field });
    }
    const s = input.saml;
    if (!s) throw invalidInput('saml is required when protocol is saml', { field: 'saml' });
    let fromMetadata: ReturnType<typeof samlSp.idpFromMetadata> = null;
    if (s.metadataXml !== undefined) {
      fromMetadata = samlSp.idpFromMetadata(s.metadataXml);
      if (!fromMetadata) throw invalidInput('saml.metadataXml is not an IdP\'s SAML metadata (an EntityDescriptor with an IDPSSODescriptor)', { field: 'saml.metadataXml' });
    }
    const missing = (field: string): never => { throw invalidInput(`${field} is required (or saml.metadataXml that gives it)`, { field }); };
    const entityId = checkEntityId(s.entityId ?? fromMetadata?.entityId ?? missing('saml.entityId'), 'saml.entityId');
    const ssoUrl = checkSsoUrl(s.ssoUrl ?? fromMetadata?.ssoUrl ?? missing('saml.ssoUrl'));
    const given = s.certificates ?? fromMetadata?.certificates ?? [];
    if (given.length === 0) missing('saml.certificates');
    if (given.length > SAML_LIMITS.certificates) throw invalidInput(`saml.certificates holds at most ${SAML_LIMITS.certificates} certificates`, { field: 'saml.certificates' });
    const certificates = given.map((c, i) => checkCertificate(c, `saml.certificates[${i}]`));
    const attributes: SamlAttributeNames = { ...DEFAULT_SAML_ATTRIBUTES };
    for (const [name, value] of Object.entries(s.attributes ?? {})) {
      if (!(name in attributes)) throw invalidInput(`saml.attributes.${name} is not an attribute setting (email, firstName, lastName, groups)`, { field: `saml.attributes.${name}` });
      if (value !== undefined) attributes[name as keyof SamlAttributeNames] = checkAttributeName(value, `saml.attributes.${name}`);
    }
    return { issuer: entityId, clientId: samlEndpoints(publicUrl, accountId).spEntityId, saml: { ssoUrl, certificates, attributes } };
  }

  async function scope(actor: Actor, accountRef: EntityRef, write: boolean): Promise<AccountScope> {
    const account = await authorizer.account(actor, accountRef);
    if (write) requirePermission(account.permissions, 'account:administrators:write', 'manage-sso-forbidden');
    else requirePermission(account.permissions, 'account:administrators:read', 'read-sso-forbidden');
    return account;
  }

  async function claimOf(accountId: string, input: string): Promise<SsoDomainRecord> {
    let domain: string;
    try {
      domain = normaliseDomain(input);
    } catch {
      throw domainNotFound(input.slice(0, 253));
    }
    const found = await store.repos.sso.domain(accountId, domain);
    if (!found) throw domainNotFound(domain);
    return found;
  }

  /** The account's group a rule names (404 when the account has none such), or null. */
  async function groupIdOf(accountId: string, ref: EntityRef | null | undefined): Promise<string | null> {
    if (!ref) return null;
    const group = await store.repos.groups.byRef(accountId, 'uuid' in ref ? { uuid: ref.uuid } : { api1Id: ref.api1Id });
    if (!group) throw notFound('group', refValue(ref));
    return group.id;
  }

  return {
    async settings(actor, accountRef) {
      const { account } = await scope(actor, accountRef, false);
      const [provider, domains, rules] = await Promise.all([
        store.repos.sso.provider(account.id), store.repos.sso.domains(account.id), store.repos.sso.rules(account.id),
      ]);
      return { provider, domains, rules };
    },

    async putProvider(actor, accountRef, input) {
      const { account } = await scope(actor, accountRef, true);
      const displayName = checkText('displayName', input.displayName, SSO_LIMITS.displayNameChars);
      if (input.protocol === 'saml') {
        const saml = samlSettingsOf(account.id, input);
        return store.transaction(async (repos) => {
          const before = await repos.sso.provider(account.id);
          return repos.sso.putProvider(
            { accountId: account.id, protocol: 'saml', displayName, ...saml, clientSecretSealed: null, scopes: [], enabled: input.enabled ?? before?.enabled ?? true },
            clock.now(),
          );
        });
      }
      if (input.saml !== undefined) throw invalidInput('saml is for a SAML provider (protocol saml)', { field: 'saml' });
      const issuer = checkIssuer(input.issuer ?? '');
      const clientId = checkText('clientId', input.clientId ?? '', SSO_LIMITS.clientIdChars);
      const scopes = checkScopes(input.scopes);
      if (typeof input.clientSecret === 'string' && (input.clientSecret.length === 0 || input.clientSecret.length > SSO_LIMITS.clientSecretChars)) {
        throw new DomainError('invalid', 'invalid-input', `clientSecret must be 1 to ${SSO_LIMITS.clientSecretChars} characters, or null`, { field: 'clientSecret' });
      }
      const sealed = typeof input.clientSecret === 'string' ? await secrets.seal(input.clientSecret) : null;
      return store.transaction(async (repos) => {
        const before = await repos.sso.provider(account.id);
        const clientSecretSealed = input.clientSecret === undefined ? (before?.clientSecretSealed ?? null) : sealed;
        return repos.sso.putProvider(
          { accountId: account.id, protocol: 'oidc', saml: null, displayName, issuer, clientId, clientSecretSealed, scopes, enabled: input.enabled ?? before?.enabled ?? true },
          clock.now(),
        );
      });
    },

    async removeProvider(actor, accountRef) {
      const { account } = await scope(actor, accountRef, true);
      if (!(await store.repos.sso.removeProvider(account.id))) {
        throw new DomainError('not-found', 'sso-provider-not-found', 'The account has no identity provider', { accountId: account.id });
      }
    },

    async claimDomain(actor, accountRef, input) {
      const { account } = await scope(actor, accountRef, true);
      const domain = normaliseDomain(input);
      const verificationToken = `scanbase-domain-${ids.secret(24)}`;
      const record: SsoDomainRecord = {
        accountId: account.id, domain, verificationTokenHash: sha256Hex(verificationToken), verifiedAt: null, requireSso: false, createdAt: clock.now(),
      };
      await store.transaction(async (repos) => {
        await repos.locks.exclusive([`sso-domains:${account.id}`]);
        if (await repos.sso.domain(account.id, domain)) {
          throw new DomainError('conflict', 'sso-domain-claimed', `The account claims ${domain} already`, { domain });
        }
        if ((await repos.sso.domains(account.id)).length >= SSO_LIMITS.domainsPerAccount) {
          throw new DomainError('conflict', 'sso-domain-limit-reached', `An account may claim at most ${SSO_LIMITS.domainsPerAccount} domains`, { limit: SSO_LIMITS.domainsPerAccount });
        }
        await repos.sso.insertDomain(record);
      });
      return { domain: record, verificationToken };
    },

    async setRequireSso(actor, accountRef, input, requireSso) {
      const { account } = await scope(actor, accountRef, true);
      const claim = await claimOf(account.id, input);
      if (requireSso && !claim.verifiedAt) {
        throw new DomainError('conflict', 'sso-domain-not-verified', `${claim.domain} is not verified yet: only a verified domain can require single sign-on`, { domain: claim.domain });
      }
      if (requireSso && !(await store.repos.sso.provider(account.id))?.enabled) {
        throw new DomainError('conflict', 'sso-provider-not-found', 'Set up and enable the identity provider before requiring single sign-on', { accountId: account.id });
      }
      await store.repos.sso.setRequireSso(account.id, claim.domain, requireSso);
      return { ...claim, requireSso };
    },

    async removeDomain(actor, accountRef, input) {
      const { account } = await scope(actor, accountRef, true);
      const claim = await claimOf(account.id, input);
      if (!(await store.repos.sso.removeDomain(account.id, claim.domain))) throw domainNotFound(claim.domain);
    },

    async addRule(actor, accountRef, input) {
      const { account } = await scope(actor, accountRef, true);
      const rule = checkRule({ ...input, groupId: await groupIdOf(account.id, input.group) });
      const record: SsoMappingRuleRecord = { id: ids.uuid(), accountId: account.id, ...rule, createdAt: clock.now() };
      await store.transaction(async (repos) => {
        await repos.locks.exclusive([`sso-rules:${account.id}`]);
        if ((await repos.sso.rules(account.id)).length >= SSO_LIMITS.rulesPerAccount) {
          throw new DomainError('conflict', 'sso-rule-limit-reached', `An account may have at most ${SSO_LIMITS.rulesPerAccount} mapping rules`, { limit: SSO_LIMITS.rulesPerAccount });
        }
        await repos.sso.insertRule(record);
      });
      return record;
    },

    async updateRule(actor, accountRef, ruleId, input) {
      const { account } = await scope(actor, accountRef, true);
      if (!RULE_ID.test(ruleId)) throw ruleNotFound(ruleId);
      const rule = checkRule({ ...input, groupId: await groupIdOf(account.id, input.group) });
      const updated = await store.repos.sso.updateRule({ id: ruleId.toLowerCase(), accountId: account.id, ...rule });
      if (!updated) throw ruleNotFound(ruleId);
      return updated;
    },

    async removeRule(actor, accountRef, ruleId) {
      const { account } = await scope(actor, accountRef, true);
      const ok = RULE_ID.test(ruleId) && (await store.repos.sso.removeRule(account.id, ruleId.toLowerCase()));
      if (!ok) throw ruleNotFound(ruleId);
    },

    confirmDomain: (domain, verificationToken) => confirmSsoDomain({ store, clock }, domain, verificationToken),
  };
}

/**
 * The operator's confirmation of a domain claim (the admin command `confirm-sso-domain`,
 * docs/identity.md "Verifying a domain"): the claim whose verification token this is becomes
 * its account's verified domain. 404 when no pending claim of the domain has the token, 409
 * when another account has the domain verified already.
 */
export async function confirmSsoDomain(deps: { store: { repos: { sso: SsoRepo } }; clock: Clock }, input: string, verificationToken: string): Promise<SsoDomainRecord> {
  const domain = normaliseDomain(input);
  const hash = sha256Hex(verificationToken.trim());
  const claim = (await deps.store.repos.sso.pendingDomains(domain)).find((d) => safeEqual(d.verificationTokenHash, hash));
  if (!claim) throw domainNotFound(domain);
  const now = deps.clock.now();
  try {
    await deps.store.repos.sso.verifyDomain(claim.accountId, domain, now);
  } catch (e) {
    if (e instanceof UniqueViolation) {
      throw new DomainError('conflict', 'sso-domain-claimed', `${domain} is verified for another account already`, { domain });
    }
    throw e;
  }
  return { ...claim, verifiedAt: now };
}
