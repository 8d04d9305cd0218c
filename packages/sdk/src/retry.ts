// Retries with exponential back-off (full jitter). What is retried:
// - 429 (any method: the service refused the request before doing anything), after the
//   answer's Retry-After when it has one;
// - 502, 503, 504 and connection failures (reset, refused, socket closed) for idempotent
//   requests only (GET, HEAD, OPTIONS, PUT, DELETE): a POST cut off may have been done.
import { ScanbaseError, parseRetryAfter } from './errors.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  attempts: number;
  /** First back-off (default 250 ms); doubled each attempt, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the 429 is thrown (default 60 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const isIdempotent = (method: string) => IDEMPOTENT.has(method.toUpperCase());

const RETRYABLE_STATUS = new Set([502, 503, 504]);
const CONNECTION_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENETUNREACH', 'EAI_AGAIN',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT',
]);

/** A fetch failure that is a lost connection (not an abort, not a programming error). */
export function isConnectionFailure(e: unknown): boolean {
  if (!(e instanceof Error) || e.name === 'AbortError') return false;
  for (let c: unknown = e; c instanceof Error; c = c.cause) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  }
  return e instanceof TypeError && /fetch failed|network|terminated|socket/i.test(e.message);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The back-off before attempt `attempt + 1` (attempt counts from 1). */
export const backoffMs = (policy: RetryPolicy, attempt: number, random = Math.random) =>
  Math.round(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)));

/**
 * Runs `send` (which must build a fresh request each call: a body is read once) until it
 * answers something not retryable, or the attempts are spent. Answers the last Response;
 * throws the last connection failure as a ScanbaseError of status 0.
 */
export async function withRetry(
  method: string,
  url: string,
  send: () => Promise<Response>,
  policy: RetryPolicy = DEFAULT_RETRY,
  signal?: AbortSignal,
): Promise<Response> {
  const idempotent = isIdempotent(method);
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= policy.attempts;
    let res: Response;
    try {
      res = await send();
    } catch (e) {
      if (last || !idempotent || !isConnectionFailure(e)) {
        if (isConnectionFailure(e)) {
          throw new ScanbaseError({ status: 0, errorCode: 'connection-failed', message: `${method} ${url}: ${(e as Error).message}`, surface: 'network', method, url, cause: e });
        }
        throw e;
      }
      await sleep(backoffMs(policy, attempt), signal);
      continue;
    }
    const retryable = res.status === 429 || (idempotent && RETRYABLE_STATUS.has(res.status));
    if (!retryable || last) return res;
    const after = parseRetryAfter(res.headers.get('retry-after'));
    if (after !== undefined && after * 1000 > policy.maxRetryAfterMs) return res;
    await res.body?.cancel();
    await sleep(after !== undefined ? after * 1000 : backoffMs(policy, attempt), signal);
  }
}
