// The operator surface (`/_operator`, docs/operator-api.md) as the operator page calls it:
// the SDK's operator client over the console's fetch (time limit, the unreachable banner),
// its refusals as ApiError so ErrorBox shows them like every other error. The token is an
// argument, held by the page's state only: never in storage, never in an address.
import { createOperatorClient, ScanbaseError, type OperatorClient } from '@scanbase/sdk';
import { ApiError, fetchWithTimeout } from './api.ts';

/** Seconds the SDK's journal follow waits in one long poll (`wait=25`; the service allows at most 30). */
const LONG_POLL_SECONDS = 25;

export function operatorClient(token: string): OperatorClient {
  return createOperatorClient({
    // Same origin: the paths stay relative ('/_operator/…'), as the console's CSP wants them.
    baseUrl: '',
    operatorToken: token,
    // Longer than the long poll's wait, so a quiet journal is not a timeout.
    fetch: (url, init) => fetchWithTimeout(String(url), init, (LONG_POLL_SECONDS + 15) * 1000),
  });
}

/** An operator call whose refusal is an ApiError (ErrorBox's status, code and detail). */
export async function opCall<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ScanbaseError && e.status > 0) throw new ApiError(e.status, e.message, e.errorCode);
    throw e;
  }
}

/** What a refused sign-in to the operator page means, in the operator's words. */
export function tokenRefusal(e: unknown): string | null {
  if (!(e instanceof ApiError)) return null;
  if (e.status === 401) return 'The service refused this operator token: it is not the OPERATOR_TOKEN this service runs with.';
  if (e.status === 429) return 'Too many wrong operator tokens from this address: wait 15 minutes, then try again.';
  if (e.status === 404) return 'This service has no operator API: it runs without OPERATOR_TOKEN.';
  return null;
}
