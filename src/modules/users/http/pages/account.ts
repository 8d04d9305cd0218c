// The account page of the service's own pages (GET /account): the signed-in browser's user
// accepts or declines his pending invitations to accounts (docs/security.md "Invitations")
// and ends every session of his ("sign out everywhere", "Evicting every session"). A
// browser that is not signed in gets the sign-in form, which comes back here. Every form
// post is CSRF-checked against the browser session (the sign-in pages' cookie).
import { requiredMessage } from '../../../sso/index.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../../../../core/http-face.ts';
import type { CsrfVerdict, WebSession } from '../../../oauth/index.ts';
import type { MyInvitation } from '../../core/account-invitations.ts';
import { browserSessions } from '../../../../http/oauth/page-helpers.ts';
import { errorPage, escapeHtml, formRefusedPage, hiddenFields, layout, sessionEndedPage, signInPage, type PageContext } from '../../../../http/oauth/pages.ts';
import type { UserPagesUse } from './use.ts';

export const ACCOUNT_PATH = '/account';

/** One pending invitation: what the account and the inviter call themselves (their own words, escaped), and Accept / Decline. */
function invitationItem(inv: MyInvitation, csrf: string): string {
  const action = (verb: string) => `${ACCOUNT_PATH}/invitations/${encodeURIComponent(inv.accountId)}/${verb}`;
  return `<li class="invitation" data-account="${escapeHtml(inv.accountId)}">
<p>The account <strong>“${escapeHtml(inv.accountName)}”</strong>${inv.invitedBy ? `, invited by “${escapeHtml(inv.invitedBy)}”` : ''}
(${escapeHtml(inv.invitedAt.toISOString().slice(0, 10))}).</p>
<div class="row"><form method="post" action="${action('accept')}">${hiddenFields({ csrf })}<button class="primary" type="submit">Accept</button></form>
<form method="post" action="${action('decline')}">${hiddenFields({ csrf })}<button class="secondary" type="submit">Decline</button></form></div>
</li>`;
}

function accountPage(ctx: PageContext, p: { email: string; csrf: string; invitations: MyInvitation[]; notice?: string }): string {
  return layout(
    ctx,
    'Your account',
    `<h1>Your account</h1>
<p>Signed in as <strong>${escapeHtml(p.email)}</strong>.</p>
${p.notice ? `<p id="notice" role="status">${escapeHtml(p.notice)}</p>` : ''}
<h2>Invitations</h2>
${p.invitations.length
    ? `<p>Accounts that invited you. You join one only if you accept; names in quotes are the accounts' own.</p>
<ul id="invitations">${p.invitations.map((i) => invitationItem(i, p.csrf)).join('')}</ul>`
    : '<p id="no-invitations">No pending invitation.</p>'}
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
  core: Omit<UserPagesUse, 'invitations' | 'passwordResets'>,
  ctx: PageContext,
  html: (reply: FastifyReply, status: number, body: string) => FastifyReply,
): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { session, setSessionCookie, cookieName, secure } = browserSessions(core);
  const again = `Open ${ACCOUNT_PATH} again.`;
  /** The refusal of a form post whose CSRF token is not this session's (or that no signed-in session sent): 403, nothing done. */
  const refused = (reply: FastifyReply, verdict: Exclude<CsrfVerdict, 'ok'>) => html(reply, 403, formRefusedPage(ctx, verdict, again));
  const signedOut = (reply: FastifyReply) => html(reply, 403, sessionEndedPage(ctx, again));

  /** The browser's session, and its user's e-mail when it is signed in (null: not signed in, or the user is gone). */
  async function browser(req: FastifyRequest, reply: FastifyReply): Promise<{ s: WebSession; email: string | null }> {
    const s = await session(req, reply);
    return { s, email: s.userId ? await core.userProfiles.emailOf(s.userId) : null };
  }
  /** The signed-in session and its user's e-mail, or null. */
  async function signedIn(req: FastifyRequest, reply: FastifyReply): Promise<{ s: WebSession; email: string } | null> {
    const b = await browser(req, reply);
    return b.email === null ? null : { s: b.s, email: b.email };
  }

  app.get(ACCOUNT_PATH, { schema: { hide: true } }, async (req, reply) => {
    const { s, email } = await browser(req, reply);
    if (email === null) return html(reply, 200, signInPage(ctx, { fields: {}, csrf: s.csrf, action: `${ACCOUNT_PATH}/sign-in` }));
    return html(reply, 200, accountPage(ctx, { email, csrf: s.csrf, invitations: await core.accountInvitations.mine(s.userId!) }));
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
    const verdict = await core.webSessions.checkCsrf(s, req.body.csrf);
    if (verdict !== 'ok') return refused(reply, verdict);
    const email = (req.body.email ?? '').trim();
    const password = req.body.password ?? '';
    const again = (status: number, error: string) =>
      html(reply, status, signInPage(ctx, { fields: {}, csrf: s.csrf, email, error, action: `${ACCOUNT_PATH}/sign-in` }));
    if (!email || !password) return again(400, 'Enter your e-mail and password.');
    // A domain that requires single sign-on refuses the password here too (docs/identity.md).
    const route = await core.ssoSignIn.routeFor(email);
    if (route?.requireSso) return again(403, requiredMessage(route));
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
  const InvitationParams = Type.Object({ accountId: Type.String({ format: 'uuid' }), verb: Type.Union([Type.Literal('accept'), Type.Literal('decline')]) });
  app.post(`${ACCOUNT_PATH}/invitations/:accountId/:verb`, { schema: { hide: true, params: InvitationParams, body: CsrfForm } }, async (req, reply) => {
    const me = await signedIn(req, reply);
    if (!me) return signedOut(reply);
    const verdict = await core.webSessions.checkCsrf(me.s, req.body.csrf);
    if (verdict !== 'ok') return refused(reply, verdict);
    const userId = me.s.userId!;
    const ref = { type: 'account' as const, uuid: req.params.accountId.toLowerCase() };
    try {
      if (req.params.verb === 'accept') await core.accountInvitations.accept(userId, ref);
      else await core.accountInvitations.decline(userId, ref);
    } catch (e) {
      if (e instanceof DomainError && e.kind === 'not-found') {
        return html(reply, 404, errorPage(ctx, 'No such invitation', 'This invitation was withdrawn, or already answered.'));
      }
      throw e;
    }
    const notice = req.params.verb === 'accept' ? 'Invitation accepted: you are a member of the account.' : 'Invitation declined.';
    return html(reply, 200, accountPage(ctx, { email: me.email, csrf: me.s.csrf, invitations: await core.accountInvitations.mine(userId), notice }));
  });
  app.post(`${ACCOUNT_PATH}/sign-out-everywhere`, { schema: { hide: true, body: CsrfForm } }, async (req, reply) => {
    const me = await signedIn(req, reply);
    if (!me) return signedOut(reply);
    const verdict = await core.webSessions.checkCsrf(me.s, req.body.csrf);
    if (verdict !== 'ok') return refused(reply, verdict);
    await core.revocation.signOutEverywhere(me.s.userId!);
    reply.clearCookie(cookieName, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
    return html(reply, 200, signedOutEverywherePage(ctx));
  });
}
