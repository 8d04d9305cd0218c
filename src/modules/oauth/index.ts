// The oauth module's public face (docs/tokens.md): tokens, signing keys, the sign-in pages'
// sessions, and the pure rules of an authorization request; a user's revocation point
// (endEverySession, "sign out everywhere"), which the users module's invitations, the seeder,
// the administration command and SCIM call in their transactions, declaring its repositories
// (OauthRepos). Its core imports nothing of another module, so this face exports its use cases
// too; its contract (module.ts: the descriptor, repositories, routes) is listed by
// src/module-list.ts, not exported here.
export { ACCESS_TOKEN_SECONDS, CODE_SECONDS, createTokenService, REFRESH_TOKEN_SECONDS } from './core/token-service.ts';
export type { Principal, TokenResponse, TokenService } from './core/token-service.ts';
export { createSigningKeys } from './core/signing-keys.ts';
export type { RotationView, SigningKeys } from './core/signing-keys.ts';
export { createWebSessions, WEB_SESSION_SECONDS } from './core/web-sessions.ts';
export { createRevocation, endEverySession } from './core/revocation.ts';
export type { Revocation } from './core/revocation.ts';
export type { CsrfVerdict, WebSession, WebSessions } from './core/web-sessions.ts';
export { clientIdOf, consoleRedirect, DEFAULT_CLIENT_ID, isAllowedRedirectUri, parseAuthorizeRequest, redirectWith, skipsConsent } from './core/authorize-request.ts';
export type { AuthorizeRequest } from './core/authorize-request.ts';
export type { AuthorizationCodeRecord, OAuthRepo, OauthRepos, RefreshTokenRecord, WebSessionRecord, WebSessionsRepo } from './core/ports.ts';
export type { OauthEventType } from './core/events.ts';
