// Runs the scanbase command in a child process, on a configuration folder of the test's
// (SCANBASE_CONFIG_DIR), piped (no terminal) or in a pseudo-terminal (util-linux `script`).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');
/** The sources run as they are, @scanbase/sdk's too (its `@scanbase/source` export condition), not the built dist/. */
export const NODE_ARGS = ['--conditions=@scanbase/source', MAIN];

export interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Asserts the command exited 0 (naming its standard error if not) and gives it back. */
export function ok(r: Run): Run {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r;
}

export interface RunOptions {
  configDir: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Sees standard error as it grows (the login address is printed there). */
  onStderr?: (all: string) => void;
  /** Gets the child as soon as it started (to kill it). */
  onSpawn?: (child: ChildProcess) => void;
}

const envOf = (o: RunOptions) => ({
  ...process.env, SCANBASE_CONFIG_DIR: o.configDir, SCANBASE_BASE_URL: '', SCANBASE_PROFILE: '', SCANBASE_ACCOUNT: '', SCANBASE_PROJECT: '', ...o.env,
});

function collect(child: ChildProcess, o: RunOptions): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => {
    stderr += d;
    o.onStderr?.(stderr);
  });
  if (o.stdin !== undefined) child.stdin!.end(o.stdin);
  o.onSpawn?.(child);
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** The command with pipes for standard input, output and error. */
export function scanbase(args: string[], o: RunOptions): Promise<Run> {
  return collect(spawn(process.execPath, [...NODE_ARGS, ...args], { env: envOf(o), stdio: ['pipe', 'pipe', 'pipe'] }), o);
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The command in a pseudo-terminal (standard output and error both on it): what a person sees. */
export function scanbaseInTerminal(args: string[], o: RunOptions): Promise<Run> {
  const command = [process.execPath, ...NODE_ARGS, ...args].map(quote).join(' ');
  // script -q (no banner) -e (the command's exit code) -f (flush) -c COMMAND /dev/null (no typescript file).
  return collect(spawn('script', ['-qefc', command, '/dev/null'], { env: { ...envOf(o), COLUMNS: '120', TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] }), o);
}
