// A deadline on requests (the client's `timeoutMs`; the CLI's --timeout): a service that
// accepts the connection and never answers ends the call with a typed error after that
// long, instead of after the server's idle timeout (minutes). Not for transfers of files:
// those move bytes for as long as they take (the client's rawFetch has no deadline).
import { ScanbaseError } from './errors.ts';

/** The typed error of a request that got no answer in time (status 0, like a lost connection). */
export const timeoutError = (method: string, url: string, timeoutMs: number): ScanbaseError =>
  new ScanbaseError({
    status: 0, errorCode: 'timeout', surface: 'network', method, url,
    message: `${method} ${url}: no answer within ${timeoutMs / 1000} s`,
  });

export const isTimeout = (e: unknown): boolean => e instanceof Error && e.name === 'TimeoutError';

/** `fetchFn` with a deadline on each call (the answer's headers; a body read after it may be cut too): a ScanbaseError `timeout` past it. */
export function fetchWithTimeout(timeoutMs: number, fetchFn: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await fetchFn(input, { ...init, signal });
    } catch (e) {
      if (!isTimeout(e) || !deadline.aborted) throw e;
      const url = input instanceof Request ? input.url : String(input);
      throw timeoutError(init?.method ?? (input instanceof Request ? input.method : 'GET'), url, timeoutMs);
    }
  };
}
