// The browser pages' kit (server-rendered, every interpolated value escaped): the layout, the
// sign-in form and the error pages that the oauth module's authorize pages
// (src/modules/oauth/http/pages.ts), the users' pages (src/modules/users/http/pages) and the SSO
// pages (src/modules/sso/http/pages.ts) answer with. It stays in the HTTP layer, beside the
// pages' browser session (page-helpers.ts), as the API plugins' kits do: three modules build
// their pages on it, and none of them owns the sign-in page's look.
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PageContext {
  sandbox: boolean;
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f6f8;margin:0;color:#1c2430}
.banner{background:#b35900;color:#fff;text-align:center;padding:.4rem;font-weight:600;letter-spacing:.05em}
main{max-width:26rem;margin:4rem auto;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002;padding:2rem}
h1{font-size:1.3rem;margin:0 0 1rem}
label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input[type=email],input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #aab4c0;border-radius:4px;font-size:1rem}
button{padding:.6rem 1.2rem;border-radius:4px;border:0;font-size:1rem;cursor:pointer;margin-top:1.2rem}
.primary{background:#0b5cad;color:#fff}.secondary{background:#e3e7ec;color:#1c2430}
.error{background:#fde8e8;color:#8a1111;padding:.6rem;border-radius:4px}
.row{display:flex;gap:.6rem}
code{display:block;word-break:break-all;background:#eef1f4;padding:.8rem;border-radius:4px;font-size:.95rem}
`;

export function layout(ctx: PageContext, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Scanbase</title><style>${STYLE}</style></head>
<body>${ctx.sandbox ? '<div class="banner" role="status">SANDBOX</div>' : ''}
<main>${body}</main></body></html>`;
}

export const hiddenFields = (fields: Record<string, string | null | undefined>): string =>
  Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v!)}">`)
    .join('');

/** The sign-in form: of the authorize flow (posts to /oauth/login), or of the account page (`action` /account/sign-in). */
export function signInPage(
  ctx: PageContext,
  p: {
    fields: Record<string, string | null>; csrf: string; email?: string; error?: string; action?: string;
    /** The e-mail's domain signs in at this IdP: "Continue with <displayName>" (docs/identity.md). */
    sso?: { displayName: string };
  },
): string {
  return layout(
    ctx,
    'Sign in',
    `<h1>Sign in to Scanbase</h1>
${p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : ''}
<form method="post" action="${escapeHtml(p.action ?? '/oauth/login')}">
${hiddenFields({ ...p.fields, csrf: p.csrf })}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button class="primary" type="submit">Sign in</button>
${p.action ? '' : '<button class="secondary" id="use-sso" type="submit" name="sso" value="1" formnovalidate>Use single sign-on</button>'}
</form>
${p.sso ? `<form method="post" action="/sso/start">
${hiddenFields({ ...p.fields, csrf: p.csrf, email: p.email ?? '' })}
<button class="primary" id="continue-sso" type="submit">Continue with ${escapeHtml(p.sso.displayName)}</button>
</form>` : ''}
<p><a id="forgot" href="/forgot-password">Forgot password?</a></p>`,
  );
}

export function errorPage(ctx: PageContext, title: string, message: string): string {
  return layout(ctx, title, `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>`);
}

/** Why a form post was refused for its CSRF token (web-sessions.ts CsrfVerdict); `again`: what to do, a sentence. */
export function formRefusedPage(ctx: PageContext, verdict: 'missing' | 'mismatch' | 'expired', again: string): string {
  if (verdict === 'expired') return errorPage(ctx, 'Expired form', `The form expired (a sign-in form is valid for 12 hours). ${again}`);
  const why = verdict === 'missing'
    ? 'The form carried no security token.'
    : "The form's security token does not belong to this browser's session: its cookie did not come back, or the form came from another page or browser.";
  return errorPage(ctx, 'Form not accepted', `${why} ${again}`);
}

/** An approval posted when the browser is no longer signed in (signed out, or its session ended). */
export function sessionEndedPage(ctx: PageContext, again: string): string {
  return errorPage(ctx, 'Signed out', `This browser is not signed in any more (it signed out, or its session ended after 12 hours). ${again}`);
}
