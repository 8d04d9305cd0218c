// Public pages outside the OAuth flow: the invitation page (set a password from the
// e-mailed link) and generated avatars (User.avatar).
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { DomainError } from '../../core/errors.ts';
import { escapeHtml, layout, errorPage, type PageContext } from '../oauth/pages.ts';
import { PASSWORD_MIN } from '../../core/users/invitations.ts';
import { isUuid } from '../../core/ids/urn.ts';

function setPasswordPage(ctx: PageContext, token: string, email: string, error?: string): string {
  return layout(
    ctx,
    'Set your password',
    `<h1>Welcome to Scanbase</h1>
<p>Set a password for <strong>${escapeHtml(email)}</strong>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/invitations/${encodeURIComponent(token)}">
<label for="firstName">First name</label><input id="firstName" name="firstName" type="text" autocomplete="given-name">
<label for="lastName">Last name</label><input id="lastName" name="lastName" type="text" autocomplete="family-name">
<label for="password">Password (at least ${PASSWORD_MIN} characters)</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}">
<label for="confirm">Repeat the password</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button class="primary" type="submit">Set password</button>
</form>`,
  );
}

const donePage = (ctx: PageContext, email: string) =>
  layout(
    ctx,
    'Password set',
    `<h1>Password set</h1><p id="done">You can now sign in as <strong>${escapeHtml(email)}</strong> from your application.</p>`,
  );

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'")
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);
}

const COLORS = ['#0b5cad', '#2e8540', '#b35900', '#6f42c1', '#c0392b', '#117a8b'];

export const pageRoutes =
  (core: Core): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const ctx: PageContext = { sandbox: core.config.sandbox };
    const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

    const linkError = (reply: FastifyReply, e: unknown) => {
      if (e instanceof DomainError && e.kind === 'not-found') {
        return html(reply, 404, errorPage(ctx, 'Invitation not usable', e.message));
      }
      throw e;
    };

    app.get('/invitations/:token', { schema: { hide: true, params: TokenParams } }, async (req, reply) => {
      try {
        const { email } = await core.invitations.pending(req.params.token);
        return html(reply, 200, setPasswordPage(ctx, req.params.token, email));
      } catch (e) {
        return linkError(reply, e);
      }
    });

    app.post(
      '/invitations/:token',
      { schema: { hide: true, params: TokenParams, body: Type.Record(Type.String(), Type.Unknown()) } },
      async (req, reply) => {
        const b = req.body as Record<string, unknown>;
        const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '');
        let email: string;
        try {
          email = (await core.invitations.pending(req.params.token)).email;
        } catch (e) {
          return linkError(reply, e);
        }
        if (str('password') !== str('confirm')) {
          return html(reply, 400, setPasswordPage(ctx, req.params.token, email, 'The two passwords differ.'));
        }
        try {
          await core.invitations.accept(req.params.token, {
            password: str('password'),
            firstName: str('firstName').slice(0, 255),
            lastName: str('lastName').slice(0, 255),
          });
          return html(reply, 200, donePage(ctx, email));
        } catch (e) {
          if (e instanceof DomainError && e.kind === 'invalid') {
            return html(reply, 400, setPasswordPage(ctx, req.params.token, email, e.message));
          }
          return linkError(reply, e);
        }
      },
    );

    app.get(
      '/avatars/:file',
      { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } },
      async (req, reply) => {
        const id = req.params.file.replace(/\.svg$/, '');
        if (!isUuid(id)) throw new DomainError('not-found', 'user-not-found', 'No such avatar');
        const user = await core.store.repos.users.byId(id.toLowerCase());
        if (!user) throw new DomainError('not-found', 'user-not-found', 'No such avatar');
        const initials =
          ((user.firstName[0] ?? '') + (user.lastName[0] ?? '')).toUpperCase() || (user.email[0] ?? '?').toUpperCase();
        const color = COLORS[parseInt(id.slice(0, 2), 16) % COLORS.length];
        return reply
          .type('image/svg+xml')
          .header('cache-control', 'public, max-age=300')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(
            `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="${color}"/><text x="32" y="41" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`,
          );
      },
    );
  };
