// The public API as the console calls it: bearer token from auth.ts, one refresh and one
// retry on a 401, a time limit on every request, and failures as ApiError (the RFC 9457
// problem's fields) or NetworkError (no answer: the service is unreachable or too slow).
import { accessToken, currentTokens, refresh } from './auth.ts';
import { reportAnswer, reportUnreachable } from './connection.ts';
import { type ApiPath, isNormalPath } from './paths.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly requiredPermissions: string[];
  /** The problem's `errorValues` (e.g. `field`, the input a 400 names: forms show the message next to it). */
  readonly values: Record<string, unknown>;
  constructor(status: number, detail: string, code?: string, requiredPermissions: string[] = [], values: Record<string, unknown> = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.requiredPermissions = requiredPermissions;
    this.values = values;
  }
}

/** No answer: the network failed, or the service took longer than the request's time limit. */
export class NetworkError extends Error {
  readonly timedOut: boolean;
  constructor(timedOut: boolean, what: string) {
    super(timedOut ? `The service did not answer in time (${what}).` : `The service cannot be reached (${what}).`);
    this.timedOut = timedOut;
  }
}

/** An RFC 9457 problem (API 2, /connect) or an API 1 error ({code, message}). */
interface Problem {
  title?: string;
  detail?: string;
  errorCode?: string;
  errorValues?: { requiredPermissions?: unknown; [name: string]: unknown };
  code?: string;
  message?: string;
}

export async function problemOf(res: Response): Promise<ApiError> {
  let p: Problem = {};
  try {
    p = (await res.json()) as Problem;
  } catch {
    // Not JSON (a proxy's page): the status says what happened.
  }
  const required = Array.isArray(p.errorValues?.requiredPermissions) ? (p.errorValues.requiredPermissions as string[]) : [];
  const values = p.errorValues && typeof p.errorValues === 'object' && !Array.isArray(p.errorValues) ? p.errorValues : {};
  return new ApiError(res.status, p.detail ?? p.message ?? p.title ?? `The service answered ${res.status}`, p.errorCode ?? p.code, required, values);
}

/** How long a call may take before it fails with a retry offered (a 50,000-tag list takes about 2 s). */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * fetch with a time limit (and the caller's own signal): no whole answer in `timeoutMs`
 * (its head or the rest of its body) is a NetworkError, as is a network failure; both tell
 * the shell the service is unreachable.
 */
export async function fetchWithTimeout(url: string, init: RequestInit = {}, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Response> {
  // A page timer rather than AbortSignal.timeout: the same limit, and one a browser test's clock can move.
  const limit = new AbortController();
  // Left running after the answer's head arrives: the limit covers reading its body too.
  setTimeout(() => limit.abort(new DOMException('The request took too long', 'TimeoutError')), timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, limit.signal]) : limit.signal;
  const what = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
  // The caller's cancel is not a failure of the service; anything else is the network's or
  // the limit's. A signed URL on another origin (the object store) failing says nothing of
  // the service, so only the service's own paths move the unreachable banner.
  const failure = (e: unknown): unknown => {
    if (init.signal?.aborted) return e;
    if (url.startsWith('/')) reportUnreachable();
    return new NetworkError(limit.signal.aborted, what);
  };
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch (e) {
    throw failure(e);
  }
  reportAnswer();
  // A null-body status (204, 304…) has nothing to read, and a Response made with one and a
  // body (Chromium gives a 204 an empty one) would throw.
  if (!res.body || NULL_BODY_STATUS.has(res.status)) return res;
  const answer = new Response(bodyFailingAs(res.body, failure), { status: res.status, statusText: res.statusText, headers: res.headers });
  // A made Response has no address; its callers' errors name the one asked.
  Object.defineProperty(answer, 'url', { value: res.url });
  return answer;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * The answer's body, whose read failures (the limit running out while it comes, the
 * connection dropped) are `failure`'s: without it they would be a bare AbortError or
 * TypeError out of res.json(), not the NetworkError every caller shows with Try again.
 */
function bodyFailingAs(body: ReadableStream<Uint8Array>, failure: (e: unknown) => unknown): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        controller.error(failure(e));
        return;
      }
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** An API call; answers the parsed JSON (undefined for 204). */
export async function api<T = unknown>(method: string, path: string | ApiPath, body?: unknown, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
  const url = String(path);
  // The last guard against an address the browser would resolve elsewhere (paths.ts).
  if (!isNormalPath(url)) throw new ApiError(400, `The console refused to call ${url.split('?')[0]}: not a valid address.`, 'invalid-address');
  const send = async (token: string | null) =>
    fetchWithTimeout(
      url,
      {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: opts.signal,
      },
      opts.timeoutMs,
    );
  const token = await accessToken();
  let res = await send(token);
  if (res.status === 401 && token) {
    // Another call may have refreshed the pair meanwhile: use its token rather than spend
    // the new refresh token too.
    // None left: the session ended meanwhile (refused, or signed out), nothing to retry with.
    const now = currentTokens();
    const next = !now ? null : now.accessToken !== token ? now : await refresh();
    if (next) res = await send(next.accessToken);
  }
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** The UUID at the end of a URN (the console's routes and API paths use bare UUIDs). */
export const uuidOf = (urn: string): string => urn.slice(urn.lastIndexOf(':') + 1);
