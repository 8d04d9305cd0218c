// The sandbox clock (CONTRACT §3): an offset kept in the database so every node of a
// cluster agrees. It moves forward or back (issue 32 item 4; docs/operator-api.md "The
// sandbox clock" says what moving back means for tokens, jobs and sweeps).
import { invalidInput } from '../../../core/errors.ts';
import type { AdjustableClock } from '../../../core/ports/clock.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import { sliceOf, storeUse, type SliceOf } from '../../../core/ports/store-slices.ts';

/** The settings row holding the shared offset, in seconds (snapshots save and restore it with the settings). */
export const SANDBOX_CLOCK_SETTING = 'clock.offsetSeconds';
const KEY = SANDBOX_CLOCK_SETTING;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Not before 1970: dates before the epoch are legal but nothing a sandbox needs, and tokens' iat/exp are unsigned. */
const EARLIEST = Date.UTC(1970, 0, 2);

/** The sandbox clock (SANDBOX): shared by every node through the database. */
export interface SandboxClock {
  /** The clock's time and offset now. */
  state(): { now: string; offsetSeconds: number };
  /** Reads the shared offset (at start, and periodically on every node). */
  load(): Promise<void>;
  /** Moves the shared clock by `seconds`, forward or (negative) back; every node follows. */
  advance(seconds: number): Promise<{ now: string; offsetSeconds: number }>;
  /** Sets the shared clock to an instant, in the future or the past; every node follows. */
  setTo(instant: Date): Promise<{ now: string; offsetSeconds: number }>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SANDBOX_CLOCK_STORE = storeUse({ reads: ['settings'], writes: ['locks', 'settings'] });

export function createSandboxClock(deps: { store: SliceOf<typeof SANDBOX_CLOCK_STORE>; clock: AdjustableClock }): SandboxClock {
  const { clock } = deps;
  const store = sliceOf(deps.store, SANDBOX_CLOCK_STORE);
  const state = () => ({ now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  // Bumped by every change this node makes: a reload that read the setting before the change
  // committed must not put the older offset back.
  let changes = 0;
  /** Writes the new offset (`next` from the stored one) under a lock, so two changes at once both count. */
  async function change(next: (current: number) => number, values: Record<string, unknown>) {
    changes++;
    const value = await store.transaction(async (repos) => {
      await repos.locks.exclusive(['sandbox-clock']);
      const stored = (await repos.settings.get<number>(KEY)) ?? 0;
      const v = next(stored);
      // Past year 9999 dates stop being ISO 8601 (and past 275760 JavaScript dates are
      // invalid): every request would then fail, so the clock stops short of it.
      if (Date.now() + v * 1000 > LATEST) throw invalidInput('The clock cannot move past the year 9999', values);
      if (Date.now() + v * 1000 < EARLIEST) throw invalidInput('The clock cannot move before 1970-01-02', values);
      await repos.settings.set(KEY, v);
      return v;
    });
    clock.offsetMs = value * 1000;
    return state();
  }
  return {
    state,
    /** Reads the shared offset (at start, and periodically on every node): forward or back. */
    async load(): Promise<void> {
      const before = changes;
      const v = await store.repos.settings.get<number>(KEY);
      if (changes !== before) return;
      clock.offsetMs = typeof v === 'number' && Number.isFinite(v) ? v * 1000 : 0;
    },
    async advance(seconds: number) {
      if (!Number.isFinite(seconds)) throw invalidInput('advanceSeconds must be a number of seconds', { advanceSeconds: seconds });
      return change((stored) => stored + seconds, { advanceSeconds: seconds });
    },
    async setTo(instant: Date) {
      const at = instant.getTime();
      if (!Number.isFinite(at)) throw invalidInput('to must be an instant (ISO 8601)', { to: String(instant) });
      // The offset from system time now; the stored offset does not matter.
      return change(() => Math.round(at - Date.now()) / 1000, { to: instant.toISOString() });
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
