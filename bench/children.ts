// Child processes of the benchmark (servers under test) and the temporary resources
// they use. Every child and every clean-up is registered here, so the run ends with
// nothing left behind, whether it succeeds, throws or is interrupted.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

const running = new Set<ChildProcess>();

export interface Child {
  pid: number;
  url: string;
  logs(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <args>` and waits until `ready(url)` answers true (polled every 100 ms).
 * The child is killed if it does not become ready within `timeoutMs`.
 */
export async function startChild(opts: {
  name: string;
  args: string[];
  env: Record<string, string | undefined>;
  port: number;
  ready: (url: string) => Promise<boolean>;
  cwd?: string;
  timeoutMs?: number;
}): Promise<Child> {
  const child = spawn(process.execPath, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 64_000) out = out.slice(-32_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${opts.port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${opts.name} exited with code ${child.exitCode} before it was ready:\n${out}`);
    }
    if (await opts.ready(url).catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${opts.name} was not ready within ${opts.timeoutMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { pid: child.pid!, url, logs: () => out, stop };
}

/** A child that talks over IPC (structured clone, so typed arrays cross as they are). */
export interface IpcChild<In, Out> {
  pid: number;
  logs(): string;
  /** Sends a message and answers the next message the child sends back. */
  request(message: In): Promise<Out>;
  stop(): Promise<void>;
}

/**
 * Forks `node <execArgv> <script>` with an IPC channel and waits for its first message
 * (answered as `ready`). The child is killed if it does not send it within `timeoutMs`.
 */
export async function startIpcChild<In, Out>(opts: {
  name: string;
  script: string;
  execArgv: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
}): Promise<{ child: IpcChild<In, Out>; ready: Out }> {
  const child = fork(opts.script, [], {
    cwd: opts.cwd,
    env: opts.env,
    execArgv: opts.execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  running.add(child);
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 64_000) out = out.slice(-32_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  const next = (timeoutMs?: number) =>
    new Promise<Out>((resolve, reject) => {
      const onMessage = (m: Out) => settle(() => resolve(m));
      const onExit = (code: number | null) =>
        settle(() => reject(new Error(`${opts.name} exited (code ${code}):\n${out}`)));
      const timer = timeoutMs === undefined ? undefined : setTimeout(
        () => settle(() => reject(new Error(`${opts.name} did not answer within ${timeoutMs} ms:\n${out}`))),
        timeoutMs,
      );
      const settle = (fn: () => void) => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        clearTimeout(timer);
        fn();
      };
      child.once('message', onMessage);
      child.once('exit', onExit);
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  let ready: Out;
  try {
    ready = await next(opts.timeoutMs ?? 60_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    ready,
    child: {
      pid: child.pid!,
      logs: () => out,
      request(message) {
        const answer = next();
        child.send(message as object);
        return answer;
      },
      stop,
    },
  };
}

/** Synchronous last resort: SIGKILL every child still running (used on exit). */
export function killAllChildren(): void {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
  running.clear();
}

/** Stops every child still running, politely first. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5000).unref();
        }),
    ),
  );
}

const cleanups = new Set<() => Promise<void>>();

/** Registers a clean-up (drop a database, remove a directory); it runs at most once. */
export function registerCleanup(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => {
    cleanups.delete(once);
    done ??= fn();
    return done;
  };
  cleanups.add(once);
  return once;
}

/** Stops every child, then runs every pending clean-up. */
export async function cleanUpEverything(): Promise<void> {
  await stopAllChildren();
  for (const fn of [...cleanups]) {
    await fn().catch((e: unknown) => console.error(`bench: clean-up failed: ${e instanceof Error ? e.message : String(e)}`));
  }
}

process.once('exit', killAllChildren);
