// The SSO module's core, gathered for its module.ts and http/ (the public face is ../index.ts).
import './errors.ts';
export { confirmSsoDomain, createSsoSettings, type SsoSettings, type SsoSettingsView, type ProviderInput, type ClaimedDomain } from './sso-settings.ts';
export { createSsoSignIn, samlClaims, SsoSignInFailure, type SsoFailureReason, type SsoSignIn, type SsoRoute, type CompletedSsoSignIn } from './sso-sign-in.ts';
export { ssoStep, requiredMessage, type SsoStep } from './sign-in-step.ts';
export { IdpError, SamlRefusal, type SamlServiceProvider, type SamlIdp, type SamlAssertion, type SamlSettings, type OidcRelyingParty, type IdpClient, type SecretBox, type SsoRepo, type SsoStore, type SsoProviderRecord, type SsoDomainRecord, type SsoMappingRuleRecord } from './ports.ts';
export { SSO_LIMITS, mapClaims, normaliseDomain, domainOfEmail, samlEndpoints, describeCertificate, DEFAULT_SAML_ATTRIBUTES, SAML_LIMITS } from './rules.ts';
export { SSO_ERROR_CODES, type SsoErrorCode } from './errors.ts';
