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

const PAGE = (title: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${title}. You can close this tab.</p>`;

/** Answers the tokens of the user who approved in the browser. */
export async function signInWithLoopback(o: LoopbackSignInOptions): Promise<StoredTokens> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  try {
    const { port } = server.address() as AddressInfo;
    const request = await authorizationRequest(o.baseUrl, `http://127.0.0.1:${port}/callback`);
    const code = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sign-in timed out')), o.timeoutMs ?? 300_000);
      o.signal?.addEventListener('abort', () => reject(o.signal!.reason), { once: true });
      server.on('request', (req, res) => {
        const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
        if (url.pathname !== '/callback') {
          res.writeHead(404).end();
          return;
        }
        // A redirect of another sign-in (or a forged one) is ignored, not fatal.
        if (url.searchParams.get('state') !== request.state) {
          res.writeHead(400, { 'content-type': 'text/html' }).end(PAGE('Unknown sign-in'));
          return;
        }
        clearTimeout(timer);
        const error = url.searchParams.get('error');
        const got = url.searchParams.get('code');
        res.writeHead(error || !got ? 400 : 200, { 'content-type': 'text/html' }).end(PAGE(error || !got ? 'Sign-in refused' : 'Signed in'));
        if (error || !got) {
          reject(new ScanbaseError({ status: 400, errorCode: error ?? 'invalid_request', message: `sign-in refused: ${error ?? 'no code'}`, surface: 'oauth', method: 'GET', url: url.origin + url.pathname }));
        } else resolve(got);
      });
    });
    await o.open(request.url);
    const tokens = await exchangeCode(o.baseUrl, { code: await code, redirectUri: request.redirectUri, verifier: request.verifier }, o.fetch);
    return toStored(o.baseUrl.replace(/\/+$/, ''), tokens);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
