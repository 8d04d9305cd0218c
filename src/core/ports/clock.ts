// Clock port: everything that reads time reads it here, so the sandbox clock
// (CONTRACT §3) moves token expiry, upload URLs and report dates together.
export interface Clock {
  now(): Date;
  nowMs(): number;
}

/** The clock the sandbox control moves: system time plus an offset. */
export interface AdjustableClock extends Clock {
  offsetMs: number;
}
