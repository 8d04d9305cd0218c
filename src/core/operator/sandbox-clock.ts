// The sandbox clock (CONTRACT §3): an offset kept in the database so every node of a
// cluster agrees; it only moves forward.
import { invalidInput } from '../errors.ts';
import type { AdjustableClock } from '../ports/clock.ts';
import type { Store } from '../ports/repositories.ts';

const KEY = 'clock.offsetSeconds';

export function createSandboxClock(deps: { store: Store; clock: AdjustableClock }) {
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
        const current = (await repos.settings.get<number>(KEY)) ?? 0;
        const value = Math.max(current, clock.offsetMs / 1000) + seconds;
        await repos.settings.set(KEY, value);
        return value;
      });
      clock.offsetMs = next * 1000;
      return state();
    },
  };
}

export type SandboxClock = ReturnType<typeof createSandboxClock>;
