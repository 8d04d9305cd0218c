// The oauth module's own pages of the authorize flow (the approval, the copy-the-code page at
// "/", the signed-out and home pages), on the browser pages' kit (src/http/oauth/pages.ts).
// Every interpolated value is escaped.
import { escapeHtml, hiddenFields, layout, type PageContext } from '../../../http/oauth/pages.ts';

export function approvePage(
  ctx: PageContext,
  p: { email: string; redirectUri: string; fields: Record<string, string | null>; csrf: string },
): string {
  const target = p.redirectUri === '/' ? 'this page (the code is shown for copy and paste)' : p.redirectUri;
  return layout(
    ctx,
    'Authorize access',
    `<h1>Authorize access</h1>
<p>Signed in as <strong>${escapeHtml(p.email)}</strong>.</p>
<p>An application asks to act on your behalf. On approval it receives a code at
<strong>${escapeHtml(target)}</strong>.</p>
<form method="post" action="/oauth/authorize">
${hiddenFields({ ...p.fields, csrf: p.csrf })}
<div class="row"><button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button></div>
</form>
<form method="post" action="/oauth/logout">
${hiddenFields({ csrf: p.csrf })}
<button class="secondary" type="submit">Sign out</button>
</form>
<p><a id="account" href="/account">Your account: invitations, sign out everywhere</a></p>`,
  );
}

export function signedOutPage(ctx: PageContext): string {
  return layout(ctx, 'Signed out', '<h1>Signed out</h1><p>You are signed out of Scanbase in this browser.</p>');
}

export function codePage(ctx: PageContext, code: string, state: string | undefined): string {
  return layout(
    ctx,
    'Authorization code',
    `<h1>Authorization code</h1><p>Copy this code into your application. It is valid for 5 minutes and can be used once.</p>
<code id="code">${escapeHtml(code)}</code>${state ? `<p>State: <span id="state">${escapeHtml(state)}</span></p>` : ''}`,
  );
}

export function homePage(ctx: PageContext): string {
  return layout(
    ctx,
    'Scanbase',
    `<h1>Scanbase</h1><p>Reality-capture project service.</p>
<p><a href="/api/2/docs">API 2 reference</a> · <a href="/api/2/openapi.json">API 2 OpenAPI</a> · <a href="/api/openapi.json">API 1 OpenAPI</a></p>`,
  );
}
