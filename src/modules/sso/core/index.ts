// The SSO module's public face (docs/identity.md): the use cases, the ports, the pure rules.
export { confirmSsoDomain, createSsoSettings, type SsoSettings, type SsoSettingsView, type ProviderInput, type ClaimedDomain } from './sso-settings.ts';
export { createSsoSignIn, SsoSignInFailure, type SsoSignIn, type SsoRoute, type CompletedSsoSignIn } from './sso-sign-in.ts';
export { createSecretBox } from './secret-box.ts';
export { IdpError, type OidcRelyingParty, type IdpClient, type SecretBox, type SsoRepo, type SsoProviderRecord, type SsoDomainRecord, type SsoMappingRuleRecord } from './ports.ts';
export { SSO_LIMITS, mapClaims, normaliseDomain, domainOfEmail } from './rules.ts';
