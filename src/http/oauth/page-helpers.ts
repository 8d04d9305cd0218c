// The OAuth pages' shared helpers (browser session cookie, security headers, the authorize
// fields carried through forms, the service's own redirects): used by the oauth module's
// pages (src/modules/oauth/http/oauth-server.ts), the users' pages (src/modules/users/http/pages) and
// the SSO pages (src/modules/sso/http/pages.ts); kept in the HTTP layer with the pages' kit
// (pages.ts).
// Kept a leaf of the import graph: nothing here may lead back to src/module-list.ts or
// src/compose.ts, or a module's pages would re-enter the module list while it loads.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AuthorizeRequest, consoleRedirect, type WebSession, type WebSessions } from '../../modules/oauth/index.ts';
import { docsPageRedirects } from '../docs-redirects.ts';

/**
 * The session cookie's name. Over https it carries the `__Host-` prefix (RFC 6265bis
 * §4.1.3.2): the browser then accepts it only with Secure, Path=/ and no Domain, so a
 * sibling subdomain or a plain-http response cannot plant or shadow it.
 */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-sb_session' : 'sb_session');

/** The browser's session cookie of the pages (sign-in, forgot password): read, and set when new. */
/** What the pages' browser session needs of the node (structural: module pages use it too). */
export interface SessionUse {
  config: { publicUrl: string };
  webSessions: WebSessions;
}

export function browserSessions(core: SessionUse) {
  const secure = core.config.publicUrl.startsWith('https:');
  const COOKIE = sessionCookieName(secure);
  const setSessionCookie = (reply: FastifyReply, s: WebSession) =>
    reply.setCookie(COOKIE, s.cookie, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  return {
    cookieName: COOKIE,
    secure,
    setSessionCookie,
    /** The browser's session; a new browser gets a cookie value (and no database row until it signs in). */
    async session(req: FastifyRequest, reply: FastifyReply): Promise<WebSession> {
      const s = await core.webSessions.resume(req.cookies[COOKIE]);
      if (s.cookie !== req.cookies[COOKIE]) setSessionCookie(reply, s);
      return s;
    },
  };
}

/**
 * The pages' headers. `formTargets`: origins a form of the page may end at besides these (the
 * account's IdP, where "Continue with …" is redirected to: form-action covers redirects).
 */
export function securityHeaders(reply: FastifyReply, formTargets: readonly string[] = []): FastifyReply {
  return reply
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; " +
        `form-action 'self' http://localhost:* https://localhost:* http://127.0.0.1:* https://127.0.0.1:*${formTargets.map((o) => ` ${o}`).join('')}`,
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store');
}

export const html = (reply: FastifyReply, status: number, body: string, formTargets?: readonly string[]) =>
  securityHeaders(reply, formTargets).code(status).type('text/html; charset=utf-8').send(body);

/** The authorize parameters carried through the forms as hidden fields. */
export const authorizeFields = (a: AuthorizeRequest, method: string | undefined) => ({
  redirect_uri: a.redirectUri,
  state: a.state,
  code_challenge: a.codeChallenge,
  code_challenge_method: a.codeChallenge ? (method ?? 'S256') : null,
  client_id: a.clientId,
});

/** The redirect addresses of the service's own public clients: the API docs pages and the web console. */
export const ownRedirectsOf = (core: { config: { publicUrl: string } }): ReadonlySet<string> =>
  new Set([...docsPageRedirects(core.config.publicUrl), consoleRedirect(core.config.publicUrl)]);

/** After a sign-in (password or SSO): back to the authorize page with the request's fields. */
export const continueAuthorize = (reply: FastifyReply, fields: Record<string, string | null>) => {
  const qs = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return reply.code(303).header('cache-control', 'no-store').redirect(`/oauth/authorize?${qs}`, 303);
};
