// A real server in a child process (npm start's entry point) on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { MIGRATED_PGLITE_TEMPLATE } from './database.ts';
import { SERVICE_PROCESS_ENV } from '../../src/runtime-env.ts';
import { exitOf, killChild, ownChild, runProcessEnv, stopChild } from './children.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  logs(): string;
  /** Graceful stop (SIGTERM), waits for exit; SIGKILL when it has not exited after its drain time and a margin. */
  stop(): Promise<void>;
  /** kill -9. */
  kill(): Promise<void>;
}

/**
 * A fresh DATA_DIR; for a server on the embedded database, holding the migrated cluster `npm test` wrote
 * (scripts/pglite-template.ts), so the server skips initdb and finds its migrations
 * applied (~5 s of CPU less per start). Without it (a test file run alone) the server
 * starts as on a first start; a caller naming its own DATA_DIR (the start-up tests)
 * always gets the real first start.
 */
function freshDataDir(embedded: boolean): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-'));
  const template = MIGRATED_PGLITE_TEMPLATE;
  if (embedded && template) {
    fs.mkdirSync(path.join(dataDir, 'pglite'));
    const tar = spawnSync('tar', ['-xf', template, '-C', path.join(dataDir, 'pglite')], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`extracting ${template}: ${tar.stderr}`);
  }
  return dataDir;
}

export async function startServer(env: Record<string, string> = {}, opts: { dataDir?: string } = {}): Promise<RunningServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = opts.dataDir ?? freshDataDir(!env.DATABASE_URL);
  const url = env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  const child = ownChild(spawn(process.execPath, [path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...runProcessEnv(),
      ...SERVICE_PROCESS_ENV, // as npm start and the image run it
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = exitOf(child);

  const deadline = Date.now() + 90_000; // generous: a loaded 2-core machine compiles slowly
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      killChild(child);
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    child,
    logs: () => out,
    async stop() {
      // SIGTERM drains for at most SHUTDOWN_DRAIN_SECONDS (25 by default): a server still
      // running well after that is killed rather than waited for.
      await stopChild(child, { graceMs: (Number(env.SHUTDOWN_DRAIN_SECONDS ?? 25) + 15) * 1000 });
    },
    async kill() {
      killChild(child);
      await exited;
    },
  };
}

/**
 * Runs the entry point until it exits (it must, within the timeout: a start-up that fails);
 * answers its exit code and output. Without DATA_DIR in `env` it gets a fresh one (holding
 * the migrated cluster, as startServer's), removed afterwards. The default wait is 90 s: a
 * start that opens PGlite took 31 s before failing as it should on a CI machine at load 16
 * (test/e2e/startup-failures.test.ts, PORT); a start that hangs still fails, named.
 */
export function runServerToExit(env: Record<string, string>, timeoutMs = 90_000): Promise<{ code: number | null; output: string }> {
  const ownDataDir = env.DATA_DIR === undefined ? freshDataDir(!env.DATABASE_URL) : undefined;
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = ownChild(spawn(process.execPath, [path.join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...runProcessEnv(),
        ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}), ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }));
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once('close', (code) => { // close: the output read to the end
      clearTimeout(timer);
      resolve({ code, output });
    });
  }).finally(() => {
    if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
  });
}

/** Stops a started server, then drops its database (when it has one of its own) and removes its data directory. */
export async function stopAndRemove(server: RunningServer, database?: { drop(): Promise<void> }): Promise<void> {
  try {
    await server.stop();
  } finally {
    await database?.drop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
