// The browser side of single sign-on (docs/identity.md "Signing in"): POST /sso/start sends
// the browser to the account's IdP (the authorize request's fields kept with the state), and
// GET /sso/callback comes back from it: on success the browser's session is signed in exactly
// as after a password sign-in and the authorize flow continues; every failure is a page that
// says what happened and what to do.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../../../core/errors.ts';
import { noteAccount, noteSignInFailure } from '../../../core/permissions/decisions.ts';
import { parseAuthorizeRequest } from '../../oauth/index.ts';
import { authorizeFields, browserSessions, type SessionUse, continueAuthorize, html, ownRedirectsOf, securityHeaders } from '../../../http/oauth/page-helpers.ts';
import { errorPage, formRefusedPage, signInPage, type PageContext } from '../../../http/oauth/pages.ts';
import { SsoSignInFailure, type SsoSignIn } from '../core/index.ts';

/** What the pages use: the node's OAuth pages' parts (browser session, own redirects) and the sign-in's use cases. */
type Use = SessionUse & { config: { sandbox: boolean }; ssoSignIn: SsoSignIn };

const AGAIN = 'Open the authorization link again.';

/** A failure's page: its title and status by reason (the message says the rest). */
const FAILURE_PAGES: Record<SsoSignInFailure['reason'], { status: number; title: string }> = {
  state: { status: 400, title: 'Sign-in link expired' },
  browser: { status: 400, title: 'Sign-in started in another browser' },
  'not-configured': { status: 409, title: 'Single sign-on unavailable' },
  'idp-unavailable': { status: 503, title: 'Identity provider unavailable' },
  'idp-refused': { status: 403, title: 'Sign-in refused' },
  identity: { status: 403, title: 'Sign-in refused' },
  signature: { status: 403, title: 'Sign-in refused' },
  expired: { status: 403, title: 'Sign-in refused' },
  audience: { status: 403, title: 'Sign-in refused' },
  recipient: { status: 403, title: 'Sign-in refused' },
  replay: { status: 400, title: 'Sign-in response used already' },
  'in-response-to': { status: 400, title: 'Sign-in link expired' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AccountParams = Type.Object({ accountId: Type.String({ maxLength: 64 }) });
/** The HTTP-POST binding's form (SAML bindings §3.5.4): the response and the RelayState, nothing else. */
const AcsForm = Type.Object({
  SAMLResponse: Type.Optional(Type.String()),
  RelayState: Type.Optional(Type.String({ maxLength: 80 })),
}, { additionalProperties: false });

export const ssoPages =
  (core: Use): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const ctx: PageContext = { sandbox: core.config.sandbox };
    const { session, setSessionCookie } = browserSessions(core);
    const ownRedirects = ownRedirectsOf(core);
    const page = { hide: true };

    const failurePage = (reply: FastifyReply, e: unknown) => {
      if (!(e instanceof SsoSignInFailure)) throw e;
      noteSignInFailure(`sso:${e.reason}`);
      const { status, title } = FAILURE_PAGES[e.reason];
      return html(reply, status, errorPage(ctx, title, `${e.message} ${e.reason === 'idp-unavailable' ? 'Try again in a few minutes, or tell your administrator.' : AGAIN}`));
    };

    app.post('/sso/start', { schema: { ...page, body: Type.Record(Type.String(), Type.Unknown()) } }, async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      let fields: Record<string, string | null>;
      try {
        fields = authorizeFields(parseAuthorizeRequest(b, ownRedirects), b.code_challenge_method as string | undefined);
      } catch (e) {
        if (e instanceof DomainError) return html(reply, 400, errorPage(ctx, 'Invalid authorization request', e.message));
        throw e;
      }
      const s = await session(req, reply);
      const verdict = await core.webSessions.checkCsrf(s, b.csrf);
      if (verdict !== 'ok') return html(reply, 403, formRefusedPage(ctx, verdict, AGAIN));
      const email = typeof b.email === 'string' ? b.email.trim().slice(0, 320) : '';
      const returnTo = Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'));
      try {
        const url = await core.ssoSignIn.begin({ email, browserCookie: s.cookie, returnTo });
        return securityHeaders(reply).redirect(url.href, 303);
      } catch (e) {
        if (e instanceof SsoSignInFailure && e.reason === 'not-configured') {
          return html(reply, 400, signInPage(ctx, { fields, csrf: s.csrf, email, error: `${e.message} Sign in with your password.` }));
        }
        return failurePage(reply, e);
      }
    });

    app.get('/sso/callback', { schema: { ...page, querystring: Type.Record(Type.String(), Type.Unknown()) } }, async (req, reply) => {
      const s = await session(req, reply);
      // The URL the IdP redirected to, on the public address (the code grant sends it as redirect_uri).
      const callbackUrl = new URL(req.url, core.config.publicUrl);
      try {
        const done = await core.ssoSignIn.complete({ callbackUrl, browserCookie: s.cookie });
        setSessionCookie(reply, await core.webSessions.signedIn(s, done.userId));
        securityHeaders(reply);
        return continueAuthorize(reply, done.returnTo);
      } catch (e) {
        return failurePage(reply, e);
      }
    });

    // SAML (docs/identity.md "SAML"). The IdP's POST to the ACS is cross-site: the browser's
    // session cookie (SameSite=Lax) does not come with it. The response is validated and its
    // assertion accepted there, then the browser is sent on (a top-level GET, which carries the
    // cookie) to …/finish with a one-time ticket, where the browser that started is checked.
    const notSaml = (reply: FastifyReply) =>
      html(reply, 404, errorPage(ctx, 'Single sign-on unavailable', 'This account has no SAML single sign-on turned on.'));

    app.post('/sso/saml/:accountId/acs', {
      schema: { ...page, params: AccountParams, body: AcsForm },
      // No body is read for an account without SAML: the refusal comes before the parsing.
      preParsing: async (req, reply, payload) => {
        const { accountId } = req.params as { accountId: string };
        if (UUID.test(accountId) && (await core.ssoSignIn.acceptsSaml(accountId.toLowerCase()))) return payload;
        await notSaml(reply);
        return reply as unknown as typeof payload;
      },
    }, async (req, reply) => {
      const accountId = req.params.accountId.toLowerCase();
      noteAccount(accountId);
      const samlResponse = req.body.SAMLResponse;
      try {
        if (typeof samlResponse !== 'string' || !samlResponse) {
          throw new SsoSignInFailure('idp-refused', 'The identity provider posted no SAMLResponse.');
        }
        const ticket = await core.ssoSignIn.acceptSaml({ accountId, samlResponse });
        return securityHeaders(reply).redirect(`/sso/saml/${accountId}/finish?${new URLSearchParams({ ticket })}`, 303);
      } catch (e) {
        return failurePage(reply, e);
      }
    });

    app.get('/sso/saml/:accountId/finish', {
      schema: { ...page, params: AccountParams, querystring: Type.Record(Type.String(), Type.Unknown()) },
    }, async (req, reply) => {
      const s = await session(req, reply);
      const ticket = (req.query as Record<string, unknown>).ticket;
      try {
        const done = await core.ssoSignIn.finishSaml({ ticket: typeof ticket === 'string' ? ticket : '', browserCookie: s.cookie });
        setSessionCookie(reply, await core.webSessions.signedIn(s, done.userId));
        securityHeaders(reply);
        return continueAuthorize(reply, done.returnTo);
      } catch (e) {
        return failurePage(reply, e);
      }
    });

    // What the administrator gives the IdP (no secret in it: our entity ID, our ACS URL).
    app.get('/sso/saml/:accountId/metadata', { schema: { ...page, params: AccountParams } }, async (req, reply) => {
      const xml = UUID.test(req.params.accountId) ? await core.ssoSignIn.samlMetadata(req.params.accountId.toLowerCase()) : null;
      if (xml === null) return notSaml(reply);
      return reply.header('cache-control', 'no-cache').type('application/samlmetadata+xml; charset=utf-8').send(xml);
    });
  };
