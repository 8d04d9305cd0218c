// Work a node does on its own, every few seconds or minutes (docs/operations.md): each
// module declares its tasks; the process's scheduler (src/background.ts) runs them.

/** A task run periodically on every node (the task itself decides whether this node does the work, e.g. under a lock). */
export interface PeriodicTask {
  /** Names the task in log lines. */
  name: string;
  /** Seconds between passes; a pass still at work when the next is due is not joined by another. */
  everySeconds: number;
  /** Also run once when the node starts. */
  atStart: boolean;
  run(): Promise<unknown>;
  /** The log line of a failed pass (with the error's fields); the next pass retries. */
  failure: { level: 'warn' | 'error'; message: string };
}
