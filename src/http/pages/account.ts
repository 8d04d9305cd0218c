// The account page of the service's own pages (GET /account): the signed-in browser's user
// ends every session of his ("sign out everywhere", docs/security.md "Evicting every
// session"). A browser that is not signed in gets the sign-in form, which comes back here.
// Every form post is CSRF-checked against the browser session (the sign-in pages' cookie).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { DomainError } from '../../core/errors.ts';
import type { WebSession } from '../../core/oauth/index.ts';
import { browserSessions } from '../oauth/routes.ts';
import { errorPage, escapeHtml, hiddenFields, layout, signInPage, type PageContext } from '../oauth/pages.ts';

export const ACCOUNT_PATH = '/account';

function accountPage(ctx: PageContext, p: { email: string; csrf: string; notice?: string }): string {
  return layout(
    ctx,
    'Your account',
    `<h1>Your account</h1>
<p>Signed in as <strong>${escapeHtml(p.email)}</strong>.</p>
${p.notice ? `<p id="notice" role="status">${escapeHtml(p.notice)}</p>` : ''}
<h2>Sign out everywhere</h2>
<p>Ends every session of yours: every browser signed in as you (this one too), and every
application's access and refresh tokens. Use it when a device was lost or your password may be known.</p>
<form method="post" action="${ACCOUNT_PATH}/sign-out-everywhere">
${hiddenFields({ csrf: p.csrf })}
<button class="primary" id="sign-out-everywhere" type="submit">Sign out everywhere</button>
</form>
<form method="post" action="/oauth/logout">
${hiddenFields({ csrf: p.csrf })}
<button class="secondary" type="submit">Sign out of this browser</button>
</form>`,
  );
}

/** After "sign out everywhere", and the page a password reset ends on: what the eviction did. */
export const signedOutEverywhereText =
  'Every session of this account has ended: browsers signed in with it are signed out, and applications must sign in again.';

const signedOutEverywherePage = (ctx: PageContext) =>
  layout(ctx, 'Signed out everywhere', `<h1>Signed out everywhere</h1><p id="done">${escapeHtml(signedOutEverywhereText)}</p>`);

/** Adds the account page's routes to the pages plugin (`html` sends a page with the pages' headers). */
export function accountRoutes(
  root: FastifyInstance,
  core: Core,
  ctx: PageContext,
  html: (reply: FastifyReply, status: number, body: string) => FastifyReply,
): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { session, setSessionCookie, cookieName, secure } = browserSessions(core);
  const expired = (reply: FastifyReply) =>
    html(reply, 403, errorPage(ctx, 'Expired form', `The form expired; open ${ACCOUNT_PATH} again.`));

  /** The signed-in session and its user's e-mail, or null (not signed in, or the user is gone). */
  async function signedIn(req: FastifyRequest, reply: FastifyReply): Promise<{ s: WebSession; email: string } | null> {
    const s = await session(req, reply);
    const email = s.userId ? await core.userProfiles.emailOf(s.userId) : null;
    return email === null ? null : { s, email };
  }

  app.get(ACCOUNT_PATH, { schema: { hide: true } }, async (req, reply) => {
    const me = await signedIn(req, reply);
    if (!me) {
      const s = await session(req, reply);
      return html(reply, 200, signInPage(ctx, { fields: {}, csrf: s.csrf, action: `${ACCOUNT_PATH}/sign-in` }));
    }
    return html(reply, 200, accountPage(ctx, { email: me.email, csrf: me.s.csrf }));
  });

  const SignInForm = Type.Object(
    {
      csrf: Type.Optional(Type.String({ maxLength: 256 })),
      email: Type.Optional(Type.String({ maxLength: 1000 })),
      password: Type.Optional(Type.String({ maxLength: 1024 })),
    },
    { additionalProperties: false },
  );
  app.post(`${ACCOUNT_PATH}/sign-in`, { schema: { hide: true, body: SignInForm } }, async (req, reply) => {
    const s = await session(req, reply);
    if (!(await core.webSessions.checkCsrf(s, req.body.csrf))) return expired(reply);
    const email = (req.body.email ?? '').trim();
    const password = req.body.password ?? '';
    const again = (status: number, error: string) =>
      html(reply, status, signInPage(ctx, { fields: {}, csrf: s.csrf, email, error, action: `${ACCOUNT_PATH}/sign-in` }));
    if (!email || !password) return again(400, 'Enter your e-mail and password.');
    try {
      const user = await core.signIn(email, password, req.ip);
      setSessionCookie(reply, await core.webSessions.signedIn(s, user.id));
      return reply.code(303).header('cache-control', 'no-store').redirect(ACCOUNT_PATH, 303);
    } catch (e) {
      if (e instanceof DomainError && (e.kind === 'unauthorized' || e.kind === 'too-many')) {
        if (e.headers) reply.headers(e.headers);
        return again(e.status, e.message);
      }
      throw e;
    }
  });

  const CsrfForm = Type.Object({ csrf: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: false });
  app.post(`${ACCOUNT_PATH}/sign-out-everywhere`, { schema: { hide: true, body: CsrfForm } }, async (req, reply) => {
    const me = await signedIn(req, reply);
    if (!me || !(await core.webSessions.checkCsrf(me.s, req.body.csrf))) return expired(reply);
    await core.revocation.signOutEverywhere(me.s.userId!);
    reply.clearCookie(cookieName, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
    return html(reply, 200, signedOutEverywherePage(ctx));
  });
}
