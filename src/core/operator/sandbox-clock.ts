// The sandbox clock (CONTRACT §3): an offset kept in the database so every node of a
// cluster agrees; it only moves forward.
import { invalidInput } from '../errors.ts';
import type { AdjustableClock } from '../ports/clock.ts';
import type { PeriodicTask } from '../ports/background.ts';
import type { StoreSlice } from '../ports/store-slices.ts';

/** The settings row holding the shared offset, in seconds (snapshots save and restore it with the settings). */
export const SANDBOX_CLOCK_SETTING = 'clock.offsetSeconds';
const KEY = SANDBOX_CLOCK_SETTING;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

/** The sandbox clock (SANDBOX): shared by every node through the database. */
export interface SandboxClock {
  /** The clock's time and offset now. */
  state(): { now: string; offsetSeconds: number };
  /** Reads the shared offset (at start, and periodically on every node). */
  load(): Promise<void>;
  /** Moves the shared clock forward by `seconds` (every node follows). */
  advance(seconds: number): Promise<{ now: string; offsetSeconds: number }>;
}

export function createSandboxClock(deps: { store: StoreSlice<'settings'>; clock: AdjustableClock }): SandboxClock {
  const { store, clock } = deps;
  const state = () => ({ now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  return {
    state,
    /** Reads the shared offset (at start, and periodically on every node). */
    async load(): Promise<void> {
      const v = await store.repos.settings.get<number>(KEY);
      if (typeof v === 'number' && v * 1000 > clock.offsetMs) clock.offsetMs = v * 1000;
    },
    async advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        throw invalidInput('advanceSeconds must be a number of seconds, zero or more', { advanceSeconds: seconds });
      }
      const next = await store.transaction(async (repos) => {
        // Two advances at once must both count: the read-then-write runs under a lock.
        await repos.locks.exclusive(['sandbox-clock']);
        const current = (await repos.settings.get<number>(KEY)) ?? 0;
        const value = Math.max(current, clock.offsetMs / 1000) + seconds;
        // Past year 9999 dates stop being ISO 8601 (and past 275760 JavaScript dates are
        // invalid): every request would then fail, so the clock stops short of it.
        if (Date.now() + value * 1000 > LATEST) {
          throw invalidInput('The clock cannot move past the year 9999', { advanceSeconds: seconds });
        }
        await repos.settings.set(KEY, value);
        return value;
      });
      clock.offsetMs = next * 1000;
      return state();
    },
  };
}

/** Other nodes may move the shared clock: every node re-reads it every 2 seconds (SANDBOX only). */
export function followSandboxClock(clock: SandboxClock): PeriodicTask {
  return {
    name: 'sandbox-clock', everySeconds: 2, atStart: false, run: () => clock.load(),
    failure: { level: 'warn', message: 'sandbox clock reload failed; retrying in 2 s' },
  };
}
