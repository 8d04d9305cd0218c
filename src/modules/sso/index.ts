// The SSO module's public face: what the OAuth pages, the admin command and other modules may
// import (docs/identity.md).
export {
  confirmSsoDomain, ssoStep, requiredMessage, domainOfEmail,
  type SsoSettings, type SsoSignIn, type SsoRoute, type SsoStep, type SsoDomainRecord, type SsoRepo,
} from './core/index.ts';
