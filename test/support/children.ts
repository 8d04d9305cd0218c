// The processes a test file starts (servers, npm, emulators, helpers) end with it, whatever
// happens to its tests. Each is owned here: stopChild() asks it to stop and kills it after
// a grace period; and when the test process ends — normally, through process.exit (the
// runner's --test-force-exit, the file watchdog of scripts/test.mjs) or on SIGTERM, SIGINT
// or SIGHUP (a cancelled run) — every owned process still running is killed with SIGKILL,
// its whole process group when it was started `detached`. Browsers are Playwright's: it
// kills them when the process exits (test/support/browser.ts closes them with a deadline).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Owned children, with whether each leads a process group of its own (`detached`). */
const owned = new Map<ChildProcess, { group: boolean }>();

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** SIGKILL now: the child, or its whole process group. A child already gone is left alone. */
export function killChild(child: ChildProcess): void {
  if (!running(child) || child.pid === undefined) return;
  const group = owned.get(child)?.group ?? false;
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

function killAll(): void {
  for (const child of owned.keys()) killChild(child);
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAll();
      process.exit(128 + os.constants.signals[signal]);
    });
  }
}

/**
 * Owns a child this test process spawned: it is killed when the process ends if it is
 * still running. `group`: it was spawned with `detached: true` and leads its own process
 * group (npm and what it starts, a shell and its commands): the whole group is killed.
 */
export function ownChild<T extends ChildProcess>(child: T, opts: { group?: boolean } = {}): T {
  install();
  owned.set(child, { group: opts.group ?? false });
  child.once('exit', () => owned.delete(child));
  return child;
}

/** Resolves when the child has exited (at once if it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Stops a child: `signal` (SIGTERM by default), then SIGKILL when it has not exited after
 * `graceMs`. Resolves once it has exited; never waits longer than the grace period and the
 * kill.
 */
export async function stopChild(child: ChildProcess, opts: { signal?: NodeJS.Signals; graceMs?: number } = {}): Promise<void> {
  const exited = exitOf(child);
  if (!running(child)) return;
  child.kill(opts.signal ?? 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), opts.graceMs ?? 30_000);
  });
  try {
    if ((await Promise.race([exited, late])) === 'late') {
      killChild(child);
      await exited;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The state letter of /proc/<pid>/stat ('Z' for a zombie, not yet reaped), or undefined once the process is gone. */
export function processState(pid: number): string | undefined {
  try {
    return /^\d+ \(.*\) (\S)/s.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * What the test run gives every Node process it starts (scripts/test.mjs), for a child started
 * on an environment of its own (a server, an admin command, as an operator runs them): the
 * run's compile cache and its NODE_OPTIONS (WebAssembly on the baseline compiler,
 * scripts/test-wasm-baseline.mjs). Not configuration: only what spares each process
 * compiling the service again and recompiling PGlite with TurboFan.
 */
export function runProcessEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['NODE_COMPILE_CACHE', 'NODE_OPTIONS'] as const) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  return env;
}
