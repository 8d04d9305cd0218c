// The node's scheduler: runs the modules' periodic tasks (src/core/ports/background.ts)
// on timers that never keep the process alive. Each task runs alone (a pass still at work
// when the next is due is skipped), a failed pass is logged and the next one retries, and
// stop() clears the timers and waits for the passes under way.
import type { PeriodicTask } from './core/ports/background.ts';
import { errorFields, type Logger } from './core/ports/telemetry.ts';

export interface Scheduler {
  /** Runs `task` every `task.everySeconds` (and now, with `atStart`). */
  every(task: PeriodicTask): void;
  /** Clears every timer, then waits for the passes under way. */
  stop(): Promise<void>;
}

/**
 * `periods`: seconds per task name overriding the tasks' own (TASK_PERIODS: tests and soak
 * runs put a node through every period in seconds); a name no task has is refused at start.
 */
export function createScheduler(logger: Logger, periods: Record<string, number> = {}): Scheduler {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  return {
    every(task) {
      const everySeconds = periods[task.name] ?? task.everySeconds;
      let busy = false;
      const pass = () => {
        if (busy) return;
        busy = true;
        const p = task
          .run()
          .then(
            () => undefined,
            (e: unknown) => logger[task.failure.level]({ task: task.name, ...errorFields(e) }, task.failure.message),
          )
          .finally(() => {
            busy = false;
            running.delete(p);
          });
        running.add(p);
      };
      if (task.atStart) pass();
      const t = setInterval(pass, everySeconds * 1000);
      t.unref();
      timers.push(t);
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.all(running);
    },
  };
}
