// API 2 presenters of the SSO settings: pure reshaping; the client secret is never among the fields.
import { formatUrn } from '../../../core/ids/urn.ts';
import { describeCertificate, samlEndpoints, type ClaimedDomain, type SsoDomainRecord, type SsoMappingRuleRecord, type SsoProviderRecord, type SsoSettingsView } from '../core/index.ts';

export function ssoPresenters(ns: string, publicUrl: string) {
  const provider = (p: SsoProviderRecord) => ({
    protocol: p.protocol,
    displayName: p.displayName,
    issuer: p.issuer,
    clientId: p.clientId,
    hasClientSecret: p.clientSecretSealed !== null,
    scopes: p.scopes,
    enabled: p.enabled,
    saml: p.saml && {
      ssoUrl: p.saml.ssoUrl,
      certificates: p.saml.certificates.map((pem) => ({ pem, ...describeCertificate(pem) })),
      attributes: p.saml.attributes,
      ...samlEndpoints(publicUrl, p.accountId),
    },
    redirectUri: p.protocol === 'saml' ? samlEndpoints(publicUrl, p.accountId).acsUrl : `${publicUrl}/sso/callback`,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  });
  const domain = (d: SsoDomainRecord) => ({
    domain: d.domain,
    verified: d.verifiedAt !== null,
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    requireSso: d.requireSso,
    createdAt: d.createdAt.toISOString(),
  });
  const rule = (r: SsoMappingRuleRecord) => ({
    id: r.id,
    claim: r.claim,
    value: r.value,
    group: r.groupId ? formatUrn(ns, 'group', r.groupId) : null,
    accountRole: r.accountRole,
    createdAt: r.createdAt.toISOString(),
  });
  return {
    provider,
    domain,
    rule,
    claimed: (c: ClaimedDomain) => ({ ...domain(c.domain), verificationToken: c.verificationToken }),
    settings: (s: SsoSettingsView) => ({ provider: s.provider && provider(s.provider), domains: s.domains.map(domain), rules: s.rules.map(rule) }),
  };
}
