// The users module's browser pages, outside the OAuth flow: the invitation page (set a password
// from the e-mailed link), "Forgot password?" (ask for a reset link; choose a new password
// from it), the account page (account.ts) and generated avatars (User.avatar). Built on the
// pages' kit and browser session of the HTTP layer (src/http/oauth), as the oauth and sso
// modules' pages are; the contract registers them as browser routes (module.ts `other`).
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError, isUuid } from '../../../../core/http-face.ts';
import { escapeHtml, hiddenFields, layout, errorPage, formRefusedPage, type PageContext } from '../../../../http/oauth/pages.ts';
import { browserSessions } from '../../../../http/oauth/page-helpers.ts';
import type { InvitationPurpose } from '../../core/ports.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../core/invitations.ts';
import { PASSWORD_RESET } from '../../core/password-resets.ts';
import type { UserPagesUse } from './use.ts';
import { ACCOUNT_PATH, accountRoutes, signedOutEverywhereText } from './account.ts';
import { avatarSvg } from './avatar.ts';

/** Where each kind of one-time link points (the form posts back to it). */
const LINK_PATHS: Record<InvitationPurpose, string> = { 'set-password': '/invitations', reset: '/password-reset' };

function setPasswordPage(ctx: PageContext, purpose: InvitationPurpose, token: string, email: string, error?: string): string {
  const reset = purpose === 'reset';
  return layout(
    ctx,
    reset ? 'Choose a new password' : 'Set your password',
    `<h1>${reset ? 'Choose a new password' : 'Welcome to Scanbase'}</h1>
<p>${reset ? 'A new password' : 'Set a password'} for <strong>${escapeHtml(email)}</strong>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${LINK_PATHS[purpose]}/${encodeURIComponent(token)}">
${reset ? '' : `<label for="firstName">First name</label><input id="firstName" name="firstName" type="text" autocomplete="given-name">
<label for="lastName">Last name</label><input id="lastName" name="lastName" type="text" autocomplete="family-name">
`}<label for="password">Password (at least ${PASSWORD_MIN} characters)</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}">
<label for="confirm">Repeat the password</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button class="primary" type="submit">Set password</button>
</form>`,
  );
}

/** The console, told it follows a reset (it then offers "sign out everywhere" once signed in: docs/console.md "Your account"). */
export const CONSOLE_AFTER_RESET = '/console/?after=password-reset';

/** After a password is set: a reset also says that every session ended with it (the eviction is part of the reset). */
const donePage = (ctx: PageContext, purpose: InvitationPurpose, email: string) =>
  layout(
    ctx,
    'Password set',
    `<h1>Password set</h1><p id="done">You can now sign in as <strong>${escapeHtml(email)}</strong> from your application.</p>
${purpose === 'reset' ? `<p id="signed-out-everywhere"><strong>Signed out everywhere.</strong> ${escapeHtml(signedOutEverywhereText)}</p>` : ''}
<p><a href="${ACCOUNT_PATH}">Your account</a> · <a id="open-console" href="${purpose === 'reset' ? CONSOLE_AFTER_RESET : '/console/'}">Open the console</a></p>`,
  );

function forgotPage(ctx: PageContext, csrf: string, p: { email?: string; error?: string } = {}): string {
  return layout(
    ctx,
    'Forgot password',
    `<h1>Forgot your password?</h1>
<p>Enter the e-mail address you sign in with: if it belongs to an account, a link to choose a new password is mailed to it.</p>
${p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : ''}
<form method="post" action="/forgot-password">
${hiddenFields({ csrf })}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${escapeHtml(p.email ?? '')}">
<button class="primary" type="submit">Send the link</button>
</form>`,
  );
}

/** The one answer to a reset request, whether or not an account has the address (no enumeration). */
const forgotSentPage = (ctx: PageContext) =>
  layout(
    ctx,
    'Check your mail',
    `<h1>Check your mail</h1><p id="sent">If an account uses that address, a link to choose a new password is on its way. It works once, for ${PASSWORD_RESET.linkSeconds / 60} minutes.</p>`,
  );

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'")
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);
}

export const pageRoutes =
  (core: UserPagesUse): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const ctx: PageContext = { sandbox: core.config.sandbox };
    const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

    const linkError = (reply: FastifyReply, e: unknown) => {
      if (e instanceof DomainError && e.kind === 'not-found') {
        return html(reply, 404, errorPage(ctx, 'Link not usable', e.message));
      }
      throw e;
    };
    /** The e-mail of a pending link of this purpose; a link of the other kind is as unusable as an unknown one. */
    const pendingFor = async (purpose: InvitationPurpose, token: string) => {
      const p = await core.invitations.pending(token);
      if (p.purpose !== purpose) throw new DomainError('not-found', 'invitation-not-found', 'This link is invalid, expired or already used');
      return p.email;
    };
    const SetPasswordForm = Type.Object(
      {
        password: Type.Optional(Type.String({ maxLength: PASSWORD_MAX })),
        confirm: Type.Optional(Type.String({ maxLength: PASSWORD_MAX })),
        firstName: Type.Optional(Type.String({ maxLength: 1000 })),
        lastName: Type.Optional(Type.String({ maxLength: 1000 })),
      },
      { additionalProperties: false },
    );

    // The set-password form of one-time links: invitations (an open form body, as before) and password resets.
    for (const [purpose, prefix] of Object.entries(LINK_PATHS) as [InvitationPurpose, string][]) {
      app.get(`${prefix}/:token`, { schema: { hide: true, params: TokenParams } }, async (req, reply) => {
        try {
          return html(reply, 200, setPasswordPage(ctx, purpose, req.params.token, await pendingFor(purpose, req.params.token)));
        } catch (e) {
          return linkError(reply, e);
        }
      });

      const body = purpose === 'reset' ? SetPasswordForm : Type.Record(Type.String(), Type.Unknown());
      app.post(`${prefix}/:token`, { schema: { hide: true, params: TokenParams, body } }, async (req, reply) => {
        const b = req.body as Record<string, unknown>;
        const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '');
        const token = req.params.token;
        let email: string;
        try {
          email = await pendingFor(purpose, token);
        } catch (e) {
          return linkError(reply, e);
        }
        if (str('password') !== str('confirm')) {
          return html(reply, 400, setPasswordPage(ctx, purpose, token, email, 'The two passwords differ.'));
        }
        try {
          await core.invitations.accept(token, {
            password: str('password'),
            firstName: str('firstName').slice(0, 255),
            lastName: str('lastName').slice(0, 255),
          });
          return html(reply, 200, donePage(ctx, purpose, email));
        } catch (e) {
          if (e instanceof DomainError && e.kind === 'invalid') {
            return html(reply, 400, setPasswordPage(ctx, purpose, token, email, e.message));
          }
          return linkError(reply, e);
        }
      });
    }

    // The account page: sign out everywhere (account.ts).
    accountRoutes(app, core, ctx, html);

    // "Forgot password?": a CSRF-protected form (the sign-in pages' browser session); one answer for every address.
    const { session } = browserSessions(core);
    app.get('/forgot-password', { schema: { hide: true } }, async (req, reply) => {
      const s = await session(req, reply);
      return html(reply, 200, forgotPage(ctx, s.csrf));
    });
    const ForgotForm = Type.Object(
      { csrf: Type.Optional(Type.String({ maxLength: 256 })), email: Type.Optional(Type.String({ maxLength: 1000 })) },
      { additionalProperties: false },
    );
    app.post('/forgot-password', { schema: { hide: true, body: ForgotForm } }, async (req, reply) => {
      const s = await session(req, reply);
      const verdict = await core.webSessions.checkCsrf(s, req.body.csrf);
      if (verdict !== 'ok') return html(reply, 403, formRefusedPage(ctx, verdict, 'Open the "Forgot password?" page again.'));
      const email = (req.body.email ?? '').trim();
      if (!email) return html(reply, 400, forgotPage(ctx, s.csrf, { error: 'Enter your e-mail address.' }));
      try {
        await core.passwordResets.request(email, req.ip);
      } catch (e) {
        if (e instanceof DomainError && e.kind === 'too-many') {
          if (e.headers) reply.headers(e.headers);
          return html(reply, e.status, forgotPage(ctx, s.csrf, { email, error: e.message }));
        }
        throw e;
      }
      return html(reply, 200, forgotSentPage(ctx));
    });

    // Public (an <img> sends no token): drawn from the id alone, no lookup (avatar.ts). A name
    // that is not a UUID is no avatar address at all.
    app.get(
      '/avatars/:file',
      { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } },
      async (req, reply) => {
        const id = req.params.file.replace(/\.svg$/, '');
        if (!isUuid(id)) throw new DomainError('not-found', 'user-not-found', 'No such avatar');
        return reply
          .type('image/svg+xml')
          .header('cache-control', 'public, max-age=86400, immutable')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(avatarSvg(id));
      },
    );
  };
