// The client: openapi-fetch over the service's two documents (types generated from them,
// src/generated/), on one fetch that adds the bearer token, refreshes it on 401, retries
// what may be retried (retry.ts) and throws a ScanbaseError for every answer >= 400.
import createClient, { type Client } from 'openapi-fetch';
import type { paths as Api2Paths } from './generated/api2.ts';
import type { paths as Api1Paths } from './generated/api1.ts';
import { errorFromResponse } from './errors.ts';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './retry.ts';
import { fetchWithTimeout } from './timeout.ts';
import type { TokenManager } from './auth.ts';

export type { Api1Paths, Api2Paths };

export interface ClientOptions {
  /** The service's address: Scanbase's PUBLIC_URL, or the vendor's. */
  baseUrl: string;
  /** Tokens that refresh themselves (TokenManager over a store). */
  tokens?: TokenManager;
  /** Or a fixed access token (no refresh). */
  accessToken?: string;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /**
   * A deadline on each API request, in milliseconds (each attempt of a retried one): past
   * it, a ScanbaseError `timeout` (status 0). Unset: none. Not applied to `rawFetch`.
   */
  timeoutMs?: number;
}

/** fetch with the client's token, refresh, retries and typed errors. Paths are relative to baseUrl. */
export type ClientFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ScanbaseClient {
  readonly baseUrl: string;
  readonly tokens: TokenManager | undefined;
  readonly retry: RetryPolicy;
  readonly fetch: ClientFetch;
  /** The plain fetch underneath (no token, no retries): downloads from signed URLs of the object store. */
  readonly rawFetch: typeof fetch;
  /** API 2 (`/api/2/…`, the token endpoints): typed paths, bodies and answers. */
  readonly api2: Client<Api2Paths>;
  /** API 1 (`/api/…`). */
  readonly api1: Client<Api1Paths>;
}

const withBearer = (headers: HeadersInit | undefined, token: string | undefined) => {
  const h = new Headers(headers);
  if (token) h.set('authorization', `Bearer ${token}`);
  return h;
};

export function createScanbaseClient(o: ClientOptions): ScanbaseClient {
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  const rawFetch = o.fetch ?? globalThis.fetch;
  const fetchFn = o.timeoutMs ? fetchWithTimeout(o.timeoutMs, rawFetch) : rawFetch;
  const retry = { ...DEFAULT_RETRY, ...o.retry };
  const tokenFor = async () => (o.tokens ? o.tokens.accessToken() : o.accessToken);

  const clientFetch: ClientFetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : new URL(String(input), `${baseUrl}/`), init);
    // Bodies of API calls are small (JSON, forms): read once, sent again on a retry.
    const body = req.body ? await req.arrayBuffer() : undefined;
    const attempt = (token: string | undefined) =>
      withRetry(req.method, req.url, () =>
        fetchFn(req.url, { method: req.method, headers: withBearer(req.headers, token), body, redirect: req.redirect, signal: req.signal }),
        retry, req.signal);
    let token = await tokenFor();
    let res = await attempt(token);
    if (res.status === 401 && o.tokens && token) {
      await res.body?.cancel();
      token = await o.tokens.replace(token);
      res = await attempt(token);
    }
    if (res.status >= 400) throw await errorFromResponse(res, req.method);
    return res;
  };

  const api = <P extends object>() => createClient<P>({ baseUrl, fetch: (r: Request) => clientFetch(r) });
  return { baseUrl, tokens: o.tokens, retry, fetch: clientFetch, rawFetch, api2: api<Api2Paths>(), api1: api<Api1Paths>() };
}
