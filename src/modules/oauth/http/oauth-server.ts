// The token service's HTTP side (spec "Token endpoints", CONTRACT §4): the authorize
// pages (sign in, approve with Allow/Deny, CSRF-protected posts), the copy-the-code
// page at "/", the token and revocation endpoints, JWKS and RFC 8414 metadata.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../../../core/errors.ts';
import { type AuthorizeRequest, clientIdOf, parseAuthorizeRequest, redirectWith, skipsConsent } from '../core/authorize-request.ts';
import { bearerToken } from '../../../http/auth.ts';
import { formatUrn } from '../../../core/ids/urn.ts';
import { UserInfo, userInfoOf } from './presenters.ts';
import { ssoStep, type SsoSignIn } from '../../sso/index.ts';
import type { SignIn, UserProfiles } from '../../users/index.ts';
import type { SigningKeys } from '../core/signing-keys.ts';
import type { TokenService } from '../core/token-service.ts';
import { authorizeFields, browserSessions, continueAuthorize, html, ownRedirectsOf, securityHeaders, type SessionUse } from '../../../http/oauth/page-helpers.ts';
import { errorPage, formRefusedPage, sessionEndedPage, signInPage, type PageContext } from '../../../http/oauth/pages.ts';
import { approvePage, codePage, homePage, signedOutPage } from './pages.ts';

const TokenResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  user_id: Type.String({ description: 'The user URN' }),
});

const OAuthError = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
  errorCode: Type.Optional(Type.String()),
});

const TokenRequest = Type.Object(
  {
    grant_type: Type.String({ maxLength: 64 }),
    code: Type.Optional(Type.String({ maxLength: 512 })),
    authorization_code: Type.Optional(Type.String({ maxLength: 2048, description: 'The redirect address' })),
    redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    code_verifier: Type.Optional(Type.String({ maxLength: 256 })),
    refresh_token: Type.Optional(Type.String({ maxLength: 512 })),
    client_id: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);

const invalidRequest = (message: string) => new DomainError('invalid', 'invalid_request', message);

/** What to do after a refused form of the authorize pages. */
const AGAIN = 'Open the authorization link again.';

/** What the pages and endpoints use: the browser session (SessionUse: the web sessions), the settings they read, and the use cases they call. */
type Use = SessionUse & {
  config: { publicUrl: string; sandbox: boolean; urnNamespace: string };
  signIn: SignIn;
  signingKeys: SigningKeys;
  ssoSignIn: SsoSignIn;
  tokens: TokenService;
  userProfiles: UserProfiles;
};

export const oauthRoutes =
  (core: Use): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const ctx: PageContext = { sandbox: core.config.sandbox };
    const { session, setSessionCookie, cookieName: COOKIE, secure } = browserSessions(core);
    // The API docs pages and the web console sign in as public PKCE clients of their own
    // (docs/security.md, docs/console.md).
    const ownRedirects = ownRedirectsOf(core);

    /** Parses the authorize parameters; a bad request gets an error page and is never redirected. */
    function authorizeRequestOr400(q: Record<string, unknown>, reply: FastifyReply): AuthorizeRequest | null {
      try {
        return parseAuthorizeRequest(q, ownRedirects);
      } catch (e) {
        if (e instanceof DomainError) {
          html(reply, 400, errorPage(ctx, 'Invalid authorization request', e.message));
          return null;
        }
        throw e;
      }
    }

    async function showAuthorize(req: FastifyRequest, reply: FastifyReply, a: AuthorizeRequest, method?: string) {
      const s = await session(req, reply);
      const fields = authorizeFields(a, method);
      const email = s.userId ? await core.userProfiles.emailOf(s.userId) : null;
      if (email === null) return html(reply, 200, signInPage(ctx, { fields, csrf: s.csrf }));
      // The console is a first-party client: a signed-in browser goes straight back with a code.
      if (s.userId && skipsConsent(a, core.config.publicUrl)) {
        const code = await core.tokens.issueCode(s.userId, a.redirectUri, a.codeChallenge, a.clientId);
        return securityHeaders(reply).redirect(redirectWith(a.redirectUri, { code, state: a.state }), 303);
      }
      return html(reply, 200, approvePage(ctx, { email, redirectUri: a.redirectUri, fields, csrf: s.csrf }));
    }

    const FormAny = Type.Record(Type.String(), Type.Unknown());
    const page = { hide: true };

    app.get('/oauth/authorize', { schema: { ...page, querystring: FormAny } }, async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      const a = authorizeRequestOr400(q, reply);
      if (!a) return reply;
      return showAuthorize(req, reply, a, q.code_challenge_method as string | undefined);
    });

    app.post('/oauth/login', { schema: { ...page, body: FormAny } }, async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const a = authorizeRequestOr400(b, reply);
      if (!a) return reply;
      const s = await session(req, reply);
      const fields = authorizeFields(a, b.code_challenge_method as string | undefined);
      const verdict = await core.webSessions.checkCsrf(s, b.csrf);
      if (verdict !== 'ok') return html(reply, 403, formRefusedPage(ctx, verdict, AGAIN));
      const email = typeof b.email === 'string' ? b.email.trim() : '';
      const password = typeof b.password === 'string' ? b.password : '';
      // Single sign-on (docs/identity.md): "Use single sign-on" offers the domain's
      // IdP; a domain that requires it refuses the password, before it is checked.
      const sso = await ssoStep(core, email, { asked: b.sso !== undefined, password: password !== '' });
      if (sso) return html(reply, sso.status, signInPage(ctx, { fields, csrf: s.csrf, email, error: sso.error, sso: sso.offer }), sso.formTargets);
      if (!email || !password || password.length > 1024) {
        return html(reply, 400, signInPage(ctx, { fields, csrf: s.csrf, email, error: 'Enter your e-mail and password.' }));
      }
      try {
        const user = await core.signIn(email, password, req.ip);
        const next = await core.webSessions.signedIn(s, user.id);
        setSessionCookie(reply, next);
        return continueAuthorize(reply, fields);
      } catch (e) {
        if (e instanceof DomainError && (e.kind === 'unauthorized' || e.kind === 'too-many')) {
          if (e.headers) reply.headers(e.headers);
          return html(reply, e.status, signInPage(ctx, { fields, csrf: s.csrf, email, error: e.message }));
        }
        throw e;
      }
    });

    app.post('/oauth/authorize', { schema: { ...page, body: FormAny } }, async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const a = authorizeRequestOr400(b, reply);
      if (!a) return reply;
      const s = await core.webSessions.resume(req.cookies[COOKIE]);
      if (!s.userId) return html(reply, 403, sessionEndedPage(ctx, AGAIN));
      const verdict = await core.webSessions.checkCsrf(s, b.csrf);
      if (verdict !== 'ok') return html(reply, 403, formRefusedPage(ctx, verdict, AGAIN));
      securityHeaders(reply);
      if (b.decision === 'deny') {
        return reply.redirect(redirectWith(a.redirectUri, { error: 'access_denied', state: a.state }), 303);
      }
      if (b.decision !== 'allow') return html(reply, 400, errorPage(ctx, 'Invalid request', 'Choose Allow or Deny.'));
      const code = await core.tokens.issueCode(s.userId, a.redirectUri, a.codeChallenge, a.clientId);
      return reply.redirect(redirectWith(a.redirectUri, { code, state: a.state }), 303);
    });

    // Sign-out ends the browser's session (its row) and clears the cookie; CSRF-protected
    // like every form post, so another site cannot sign the browser out. After it the
    // authorize pages ask for the password again.
    app.post('/oauth/logout', { schema: { ...page, body: FormAny } }, async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const s = await core.webSessions.resume(req.cookies[COOKIE]);
      const verdict = await core.webSessions.checkCsrf(s, b.csrf);
      if (verdict !== 'ok') return html(reply, 403, formRefusedPage(ctx, verdict, AGAIN));
      await core.webSessions.signOut(s);
      reply.clearCookie(COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
      return html(reply, 200, signedOutPage(ctx));
    });

    app.get('/', { schema: { ...page, querystring: FormAny } }, async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      if (typeof q.code === 'string' && q.code.length <= 512) {
        return html(reply, 200, codePage(ctx, q.code, typeof q.state === 'string' ? q.state.slice(0, 512) : undefined));
      }
      if (typeof q.error === 'string') {
        return html(reply, 200, errorPage(ctx, 'Authorization denied', 'The request was denied.'));
      }
      return html(reply, 200, homePage(ctx));
    });

    app.post(
      '/oauth/token',
      {
        schema: {
          summary: 'Exchange an authorization code (PKCE) or a refresh token for a token pair',
          operationId: 'token',
          tags: ['oauth'],
          security: [],
          body: TokenRequest,
          response: { 200: TokenResponse, 400: OAuthError, 401: OAuthError },
        },
      },
      async (req, reply) => {
        const b = req.body;
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        if (b.grant_type === 'authorization_code') {
          if (!b.code) throw invalidRequest('code is required');
          return core.tokens.exchangeCode({
            code: b.code,
            redirectUri: b.authorization_code ?? b.redirect_uri,
            codeVerifier: b.code_verifier,
            clientId: clientIdOf(b.client_id),
          });
        }
        if (b.grant_type === 'refresh_token') {
          if (!b.refresh_token) throw invalidRequest('refresh_token is required');
          return core.tokens.refresh(b.refresh_token);
        }
        throw new DomainError('invalid', 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
      },
    );

    app.post(
      '/oauth/revoke',
      {
        schema: {
          summary: 'Revoke a refresh token (RFC 7009)',
          operationId: 'revoke',
          tags: ['oauth'],
          security: [],
          body: Type.Object(
            { token: Type.String({ maxLength: 4096 }), token_type_hint: Type.Optional(Type.String({ maxLength: 64 })) },
            { additionalProperties: true },
          ),
          response: { 200: Type.Object({}) },
        },
      },
      async (req) => {
        await core.tokens.revoke(req.body.token);
        return {};
      },
    );

    app.get(
      '/oauth/jwks',
      {
        schema: {
          summary: 'Public keys that verify access tokens',
          operationId: 'jwks',
          tags: ['oauth'],
          security: [],
          response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
        },
      },
      async () => core.signingKeys.jwks(),
    );

    // OpenID Connect's UserInfo (Core §5.3) without OpenID: who the bearer of an access token
    // is, for clients that show it (`scanbase whoami`). The token is the only credential;
    // refusals follow RFC 6750 (401 invalid_token with WWW-Authenticate).
    app.get(
      '/oauth/userinfo',
      {
        schema: {
          summary: 'Who the bearer of the access token is (e-mail and name)',
          operationId: 'userInfo',
          tags: ['oauth'],
          response: { 200: UserInfo, 401: OAuthError },
        },
      },
      async (req) => {
        const token = bearerToken(req);
        const principal = token ? await core.tokens.authenticate(token) : null;
        const profile = principal && (await core.userProfiles.ownProfile(principal.userId));
        if (!principal || !profile) {
          throw new DomainError('unauthorized', 'unauthorized', 'The access token is missing, malformed, expired or unknown', undefined, {
            'www-authenticate': 'Bearer error="invalid_token"',
          });
        }
        return userInfoOf(formatUrn(core.config.urnNamespace, 'user', principal.userId), profile);
      },
    );

    const base = core.config.publicUrl;
    const metadata = {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      jwks_uri: `${base}/oauth/jwks`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
    };
    app.get(
      '/.well-known/oauth-authorization-server',
      {
        schema: {
          summary: 'Authorization server metadata (RFC 8414)',
          operationId: 'authorizationServerMetadata',
          tags: ['oauth'],
          security: [],
          response: { 200: Type.Record(Type.String(), Type.Unknown()) },
        },
      },
      async () => metadata,
    );
  };
