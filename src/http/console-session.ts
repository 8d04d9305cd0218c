// The web console's session that survives a reload (docs/security.md "The console's
// session"): a backend-for-frontend on the console's own path. The console exchanges its
// authorization code here instead of at /oauth/token; the refresh token then lives only in
// an HttpOnly cookie scoped to /console/session (SameSite=Strict, Secure over https), never
// in the page's JavaScript, and the page gets access tokens from /console/session/refresh.
// The rules are the token service's (single use, reuse detection, at most 10 per user):
// this file only moves the refresh token between the answer and the cookie.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import cookie from '@fastify/cookie';
import { Type } from 'typebox';
import type { Services } from '../services.ts';
import { DomainError, unauthorized } from '../core/http-face.ts';
import { consoleRedirect, REFRESH_TOKEN_SECONDS, type TokenResponse } from '../modules/oauth/index.ts';

export const CONSOLE_SESSION_PATH = '/console/session';
/** The header every call carries: a cross-site form cannot set it, and a cross-origin fetch with it needs a preflight this path never grants. */
export const CONSOLE_HEADER = 'x-scanbase-console';

/**
 * The refresh cookie's name: `__Secure-` over https (the browser then accepts it only with
 * Secure). Not `__Host-`: that prefix requires Path=/, and this cookie is scoped to
 * /console/session so no other request of the service ever carries it.
 */
export const consoleCookieName = (secure: boolean) => (secure ? '__Secure-sb_console' : 'sb_console');

/** What the page receives: the access token and who it is; never the refresh token. */
const AccessAnswer = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  user_id: Type.String({ description: 'The user URN' }),
});

const ExchangeBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 512 }),
  code_verifier: Type.String({ minLength: 1, maxLength: 256 }),
});

const crossSite = () => new DomainError('forbidden', 'cross-site-request', 'Only the console of this service may use its session');

/**
 * Refuses a call that is not the console's own page: the marker header must be there, an
 * `Origin` (sent by browsers on every POST) must be PUBLIC_URL's, and `Sec-Fetch-Site`,
 * when the browser sends it, must be same-origin. SameSite=Strict already keeps the cookie
 * off cross-site requests; these make a forged call fail before it reaches the tokens.
 */
export function checkSameOrigin(req: FastifyRequest, publicOrigin: string): void {
  if (req.headers[CONSOLE_HEADER] !== '1') throw crossSite();
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== publicOrigin) throw crossSite();
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw crossSite();
}

export const consoleSessionRoutes =
  (core: Pick<Services, 'config' | 'tokens'>): FastifyPluginAsync =>
  async (root) => {
    await root.register(cookie);
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const publicUrl = core.config.publicUrl;
    const publicOrigin = new URL(publicUrl).origin;
    const secure = publicUrl.startsWith('https:');
    const COOKIE = consoleCookieName(secure);
    const cookieOptions = { httpOnly: true, sameSite: 'strict' as const, secure, path: CONSOLE_SESSION_PATH };

    /** Keeps the refresh token in the cookie and answers the rest. */
    const answer = (reply: FastifyReply, pair: TokenResponse) => {
      reply.setCookie(COOKIE, pair.refresh_token, { ...cookieOptions, maxAge: REFRESH_TOKEN_SECONDS });
      return { access_token: pair.access_token, token_type: pair.token_type, expires_in: pair.expires_in, user_id: pair.user_id };
    };
    const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

    app.post(
      CONSOLE_SESSION_PATH,
      { schema: { hide: true, summary: 'Exchange the console’s authorization code; the refresh token goes into the cookie', body: ExchangeBody, response: { 200: AccessAnswer } } },
      async (req, reply) => {
        noStore(reply);
        checkSameOrigin(req, publicOrigin);
        const pair = await core.tokens.exchangeCode({
          code: req.body.code,
          redirectUri: consoleRedirect(publicUrl),
          codeVerifier: req.body.code_verifier,
        });
        return answer(reply, pair);
      },
    );

    app.post(
      `${CONSOLE_SESSION_PATH}/refresh`,
      { schema: { hide: true, summary: 'A new access token from the cookie’s refresh token (rotated)', response: { 200: AccessAnswer } } },
      async (req, reply) => {
        noStore(reply);
        checkSameOrigin(req, publicOrigin);
        const held = req.cookies[COOKIE];
        if (!held) throw unauthorized('No console session in this browser: sign in');
        try {
          return answer(reply, await core.tokens.refresh(held));
        } catch (e) {
          // A spent or revoked token is of no further use: the browser forgets it.
          if (e instanceof DomainError && e.kind === 'unauthorized') reply.clearCookie(COOKIE, cookieOptions);
          throw e;
        }
      },
    );

    app.post(
      `${CONSOLE_SESSION_PATH}/end`,
      { schema: { hide: true, summary: 'Sign the console out: the refresh token is revoked and the cookie cleared', response: { 200: Type.Object({}) } } },
      async (req, reply) => {
        noStore(reply);
        checkSameOrigin(req, publicOrigin);
        const held = req.cookies[COOKIE];
        if (held) await core.tokens.revoke(held);
        reply.clearCookie(COOKIE, cookieOptions);
        return {};
      },
    );
  };
