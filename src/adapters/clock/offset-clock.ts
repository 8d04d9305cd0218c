// System time plus an offset that only the sandbox clock control moves (forward).
import type { AdjustableClock } from "../../core/ports/clock.ts";

export class OffsetClock implements AdjustableClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
}
