// The oauth module (docs/tokens.md): tokens, signing keys, the sign-in pages' sessions,
// and the pure rules of an authorization request; a user's revocation point (endEverySession,
// "sign out everywhere"). Offers: TokenService, SigningKeys, WebSessions, Revocation. Needs: the TokenSigner port, the store, the clock, ids.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { ACCESS_TOKEN_SECONDS, CODE_SECONDS, createTokenService, REFRESH_TOKEN_SECONDS } from './token-service.ts';
export type { Principal, TokenResponse, TokenService } from './token-service.ts';
export { createSigningKeys } from './signing-keys.ts';
export type { RotationView, SigningKeys } from './signing-keys.ts';
export { createWebSessions, WEB_SESSION_SECONDS } from './web-sessions.ts';
export { createRevocation, endEverySession } from './revocation.ts';
export type { Revocation } from './revocation.ts';
export type { CsrfVerdict, WebSession, WebSessions } from './web-sessions.ts';
export { clientIdOf, consoleRedirect, DEFAULT_CLIENT_ID, isAllowedRedirectUri, parseAuthorizeRequest, redirectWith, skipsConsent } from './authorize-request.ts';
export type { AuthorizeRequest } from './authorize-request.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { oauthModule, type OauthOffers } from './module.ts';
