// When a failed delivery is tried again, when it is given up, and when its endpoint is
// disabled (docs/webhooks.md "Retries"). Pure: the relay passes the times.

export const RETRY = {
  /** A delivery is attempted for this long after its first attempt (or its replay): a day. */
  windowSeconds: 24 * 3600,
  /** The longest wait between two attempts. */
  maxDelaySeconds: 6 * 3600,
  /** An endpoint whose every attempt failed for this long is disabled: a day. */
  disableAfterSeconds: 24 * 3600,
};

/** The wait after failed attempt `attempt` (1-based): firstRetrySeconds × 2^(attempt-1), capped. */
export function retryDelaySeconds(attempt: number, firstRetrySeconds: number): number {
  return Math.min(RETRY.maxDelaySeconds, firstRetrySeconds * 2 ** Math.min(attempt - 1, 30));
}

/** After a failed attempt: the time of the next one, or null when it would fall past `retryUntil` (failed for good). */
export function nextAttemptAt(attempt: number, nowMs: number, retryUntil: Date, firstRetrySeconds: number): Date | null {
  const next = nowMs + retryDelaySeconds(attempt, firstRetrySeconds) * 1000;
  return next > retryUntil.getTime() ? null : new Date(next);
}

/**
 * Whether an answer says the endpoint itself is down or overloaded, so that it is paused as a
 * whole (the circuit breaker): 5xx, 408 and 429. Other answers (4xx) concern the delivery.
 * No answer at all (a timeout, no connection, a refused address) pauses it too.
 */
export function pausesEndpoint(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Whether an endpoint failing since `failingSince` (no success in between) is disabled now. */
export function shouldDisable(failingSince: Date | null, nowMs: number): boolean {
  return failingSince !== null && nowMs - failingSince.getTime() >= RETRY.disableAfterSeconds * 1000;
}
