// The SSO module's core, gathered for its module.ts and http/ (the public face is ../index.ts).
import './errors.ts';
export { confirmSsoDomain, createSsoSettings, type SsoSettings, type SsoSettingsView, type ProviderInput, type ClaimedDomain } from './sso-settings.ts';
export { createSsoSignIn, SsoSignInFailure, type SsoFailureReason, type SsoSignIn, type SsoRoute, type CompletedSsoSignIn } from './sso-sign-in.ts';
export { ssoStep, requiredMessage, type SsoStep } from './sign-in-step.ts';
export { IdpError, type OidcRelyingParty, type IdpClient, type SecretBox, type SsoRepo, type SsoStore, type SsoProviderRecord, type SsoDomainRecord, type SsoMappingRuleRecord } from './ports.ts';
export { SSO_LIMITS, mapClaims, normaliseDomain, domainOfEmail } from './rules.ts';
export { SSO_ERROR_CODES, type SsoErrorCode } from './errors.ts';
