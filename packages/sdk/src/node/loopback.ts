// Sign-in from a terminal (RFC 8252 §7.3): a listener on 127.0.0.1, the authorize address
// opened in a browser with redirect http://127.0.0.1:<port>/callback, the code taken from
// the redirect (its state checked), exchanged with the PKCE verifier.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizationRequest, exchangeCode, toStored, type StoredTokens } from '../auth.ts';
import { ScanbaseError } from '../errors.ts';

export interface LoopbackSignInOptions {
  baseUrl: string;
  /** Shows or opens the authorize address (a browser, or printing it). */
  open: (url: string) => void | Promise<void>;
  /** The listener's port; 0 (default) takes a free one. */
  port?: number;
  /** Give up after this long (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * The page the browser shows at the end: the look of the service's sign-in pages (its
 * styles, src/http/oauth/pages.ts), so the sign-in ends where it began. Every text is ours
 * or escaped.
 */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const STYLE =
  'body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f6f8;margin:0;color:#1c2430}' +
  'main{max-width:26rem;margin:4rem auto;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002;padding:2rem}' +
  'h1{font-size:1.3rem;margin:0 0 1rem}.error{background:#fde8e8;color:#8a1111;padding:.6rem;border-radius:4px}' +
  '.ok{background:#e6f4ea;color:#14532d;padding:.6rem;border-radius:4px}';
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escapeHtml(title)} · Scanbase</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
const SIGNED_IN_PAGE = page('Signed in', '<p class="ok" role="status">You are signed in. You can close this tab and go back to the terminal.</p>');
const failedPage = (why: string) => page('Sign-in failed', `<p class="error" role="alert">${escapeHtml(why)}</p><p>Go back to the terminal and sign in again.</p>`);

/**
 * Answers the tokens of the user who approved in the browser. The browser's last page says
 * "Signed in" only once the code has been exchanged for tokens; a refusal, a denied
 * approval or a failed exchange says why, and rejects.
 */
export async function signInWithLoopback(o: LoopbackSignInOptions): Promise<StoredTokens> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  try {
    const { port } = server.address() as AddressInfo;
    const request = await authorizationRequest(o.baseUrl, `http://127.0.0.1:${port}/callback`);
    const baseUrl = o.baseUrl.replace(/\/+$/, '');
    const tokens = new Promise<StoredTokens>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sign-in timed out')), o.timeoutMs ?? 300_000);
      o.signal?.addEventListener('abort', () => reject(o.signal!.reason), { once: true });
      let settled = false;
      server.on('request', (req, res) => {
        const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
        const answer = (status: number, html: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
        if (url.pathname !== '/callback') return void res.writeHead(404).end();
        // A redirect of another sign-in (or a forged one), or a second one: ignored, not fatal.
        if (url.searchParams.get('state') !== request.state || settled) return void answer(400, failedPage('This sign-in is not the one the terminal is waiting for.'));
        settled = true;
        clearTimeout(timer);
        const error = url.searchParams.get('error');
        const code = url.searchParams.get('code');
        if (error || !code) {
          answer(400, failedPage(error === 'access_denied' ? 'The access was denied.' : `The service refused: ${error ?? 'no code'}.`));
          return reject(new ScanbaseError({ status: 400, errorCode: error ?? 'invalid_request', message: `sign-in refused: ${error ?? 'no code'}`, surface: 'oauth', method: 'GET', url: url.origin + url.pathname }));
        }
        exchangeCode(o.baseUrl, { code, redirectUri: request.redirectUri, verifier: request.verifier }, o.fetch).then(
          (t) => {
            answer(200, SIGNED_IN_PAGE);
            resolve(toStored(baseUrl, t));
          },
          (e: unknown) => {
            answer(502, failedPage(`The code could not be exchanged for tokens: ${e instanceof Error ? e.message : String(e)}`));
            reject(e);
          },
        );
      });
    });
    await o.open(request.url);
    return await tokens;
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
